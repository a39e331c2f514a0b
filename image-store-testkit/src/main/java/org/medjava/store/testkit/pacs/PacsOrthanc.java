package org.medjava.store.testkit.pacs;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.medjava.store.testkit.peers.Orthanc;

/**
 * Orthanc as the peer of the shared PACS store ({@link PacsStore}) for the tests of one class: registered as
 * {@code @RegisterExtension static final PacsOrthanc peer = new PacsOrthanc("");}, it starts Orthanc before the
 * class's tests ({@link PacsStore#startOrthanc}: on the ports the store was configured with, in a scratch directory
 * of its own) and after them stops it and deletes that directory.
 */
public final class PacsOrthanc implements BeforeAllCallback, AfterAllCallback {

    private final String moreConfig;
    private Orthanc orthanc;

    /**
     * @param moreConfig extra members of Orthanc's JSON configuration, each followed by a comma
     *                   ({@code "\"TranscodeDicomProtocol\": false,"}), or ""
     */
    public PacsOrthanc(String moreConfig) {
        this.moreConfig = moreConfig;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        new PacsStore().beforeAll(context); // the store first; it is started once per run
        Path dir = Files.createTempDirectory("medjava-orthanc");
        try {
            orthanc = PacsStore.startOrthanc(dir, moreConfig);
        } catch (Exception | Error e) {
            Orthanc.deleteTree(dir);
            throw e;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (orthanc != null) {
            orthanc.close();
            orthanc.deleteFiles();
            orthanc = null;
        }
    }

    /** The running Orthanc (while the class's tests run). */
    public Orthanc orthanc() {
        if (orthanc == null) {
            throw new IllegalStateException("Orthanc runs while the tests of the class that registers this run");
        }
        return orthanc;
    }
}
