package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.network.DicomNetworkException;
import com.pixelmed.network.PresentationContext;
import com.pixelmed.network.VerificationSOPClassSCU;
import java.nio.file.Path;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;

/** The association limit counts the associations that are open, not those released a moment ago. */
class DimseServerTest {

    private static final String STORE = "DIMSE-TEST";
    private static final String MODALITY = "MODALITY";

    @TempDir
    Path dir;
    private DicomIndex index;
    private DimseServer server;

    @BeforeEach
    void start() throws Exception {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        ImageRepository images = new ImageRepository(new LocalFileStorage(dir.resolve("images")), 1 << 24);
        Ingest ingest = Ingest.builder(images, index, new UploadValidator(1 << 24), DuplicatePolicy.REJECT).build();
        DimseSettings settings = new DimseSettings(0, "127.0.0.1", STORE, AllowedPeers.parse(MODALITY), Map.of(),
                DimseSettings.DEFAULT_MAX_PDU, 1, DimseSettings.DEFAULT_IDLE_TIMEOUT_MILLIS);
        server = DimseServer.start(settings, ingest, new ArchiveSearch(index), index, images, ReadAudit.OFF);
    }

    @AfterEach
    void stop() {
        server.close();
        index.close();
    }

    @Test
    void twoHundredAssociationsOneAfterTheOtherAreAllAcceptedWithALimitOfOne() {
        for (int i = 0; i < 200; i++) {
            int n = i + 1;
            assertThatCode(this::echo).as("association %d of 200", n).doesNotThrowAnyException();
        }
    }

    @Test
    void anAssociationBeyondTheLimitIsRefusedUntilTheOpenOneIsReleased() throws Exception {
        Association first = open();
        try {
            assertThatThrownBy(this::open).isInstanceOf(DicomNetworkException.class);
        } finally {
            first.release();
        }
        assertThatCode(this::echo).doesNotThrowAnyException();
    }

    /** One association: A-ASSOCIATE, C-ECHO, A-RELEASE (PixelMed's SCU). */
    private void echo() throws Exception {
        new VerificationSOPClassSCU("127.0.0.1", server.port(), STORE, MODALITY, false, 0);
    }

    private Association open() throws Exception {
        LinkedList<PresentationContext> contexts = new LinkedList<>(List.of(new PresentationContext((byte) 1,
                SOPClass.Verification, TransferSyntax.ImplicitVRLittleEndian)));
        return AssociationFactory.createNewAssociation("127.0.0.1", server.port(), STORE, MODALITY, contexts,
                null, false);
    }
}
