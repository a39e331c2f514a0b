package org.medjava.store.testkit.pacs;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.peers.Orthanc;
import org.medjava.store.testkit.store.PayaraStore;

/**
 * One store with its DICOM service on, shared by the PACS integration tests that
 * {@code @ExtendWith(PacsStore.class)}: started once per test run on free loopback ports, stopped when the run ends.
 * The ports of the peers it knows (a storescp move destination, Orthanc) are chosen up front, so the store can be
 * configured with them before they run.
 */
public final class PacsStore implements BeforeAllCallback {

    public static final String AE = "MEDJAVA";
    /** The AE title of the storescp move destination the tests start on {@link #moveDestinationPort()}. */
    public static final String DESTINATION_AE = "DEST";
    public static final String ORTHANC_AE = "ORTHANC";
    /** An AE title allowed only from an address the tests never use. */
    public static final String HOST_LOCKED_AE = "LOCKED";

    private static PayaraStore store;
    private static int dicomPort;
    private static int moveDestinationPort;
    private static int orthancDicomPort;
    private static int orthancHttpPort;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (PacsStore.class) {
            if (store != null) {
                return;
            }
            dicomPort = Ports.free();
            moveDestinationPort = Ports.free();
            orthancDicomPort = Ports.free();
            orthancHttpPort = Ports.free();
            store = PayaraStore.named("pacs")
                    .property("medjava.dicom.port", Integer.toString(dicomPort))
                    .property("medjava.dicom.bind", "127.0.0.1")
                    .property("medjava.dicom.aet", AE)
                    .property("medjava.dicom.allowed-aets", "STORESCU, FINDSCU, GETSCU, MOVESCU, ECHOSCU, "
                            + ORTHANC_AE + "=127.0.0.1, " + HOST_LOCKED_AE + "=192.0.2.1")
                    .property("medjava.dicom.move-destinations", DESTINATION_AE + "=127.0.0.1:" + moveDestinationPort
                            + "," + ORTHANC_AE + "=127.0.0.1:" + orthancDicomPort)
                    .property("medjava.dicom.remotes", ORTHANC_AE + "=127.0.0.1:" + orthancDicomPort)
                    .property("medjava.dicom.duplicate-policy", "reject")
                    .seedPlugins()
                    .start();
            context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                    .put(PacsStore.class.getName(), (ExtensionContext.Store.CloseableResource) () -> {
                        store.close();
                        store = null;
                    });
        }
    }

    public static PayaraStore store() {
        return store;
    }

    public static int dicomPort() {
        return dicomPort;
    }

    public static int moveDestinationPort() {
        return moveDestinationPort;
    }

    public static int orthancDicomPort() {
        return orthancDicomPort;
    }

    public static int orthancHttpPort() {
        return orthancHttpPort;
    }

    /**
     * Orthanc on this store's reserved ports, knowing the store as a DICOM peer and a DICOMweb server ({@code
     * moreConfig}: extra lines of Orthanc's JSON configuration, each ending with a comma).
     */
    public static Orthanc startOrthanc(java.nio.file.Path dir, String moreConfig)
            throws java.io.IOException, InterruptedException {
        return Orthanc.start(dir, ORTHANC_AE, orthancDicomPort, orthancHttpPort, new Orthanc.Peer(AE, dicomPort,
                store().uri("/dicomweb/").toString(), "admin", PayaraStore.ADMIN_PASSWORD), moreConfig);
    }
}
