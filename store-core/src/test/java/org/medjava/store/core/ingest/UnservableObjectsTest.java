package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.GeneratedDicom;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.testkit.Samples;

/**
 * What is stored must be servable (issue 40, item 4): objects that no rendering could ever serve are refused at the
 * ingest door with the reason, by every way in (HTTP PUT; C-STORE, STOW-RS and retrieves through
 * {@link Ingest#receive}), instead of being stored and then refused by every rendering. A multi-frame image too large
 * for the decode budget is 413 (A700) from its header, before its body is received or parsed; a transfer syntax
 * that is no UID, a Photometric Interpretation DICOM does not define and a File Meta Information Group Length that
 * lies are 422 (C000). What the store keeps without rendering (objects without pixels, pixel data described in terms
 * it cannot render) is still stored.
 */
class UnservableObjectsTest {

    /** The decode budget of MemoryLimitsIT's store. */
    private static final long BUDGET = 160L << 20;

    @TempDir
    Path dir;
    private DicomIndex index;
    private LocalFileStorage storage;
    private ImageRepository images;
    private Ingest ingest;

    @BeforeEach
    void open() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        storage = new LocalFileStorage(dir.resolve("images"));
        images = new ImageRepository(storage, 2L << 30);
        ingest = Ingest.builder(images, index, new UploadValidator(1 << 28, new DecodeBudget(BUDGET, 0)),
                DuplicatePolicy.REJECT).build();
    }

    @AfterEach
    void close() {
        index.close();
    }

    /** 512 MiB and 1 GiB of 512 x 512 x 16-bit frames: 201 before, then 413 on every rendering. */
    @Test
    void aMultiFrameImageTooLargeEverToRenderIs413FromItsHeaderBeforeItsBodyIsReceived() throws Exception {
        for (int frames : new int[] {1024, 2047}) {
            GeneratedDicom object = new GeneratedDicom(frames);
            Counting body = new Counting(object);
            StorePath path = StorePath.parse("it/large-" + frames + ".dcm");
            assertThatThrownBy(() -> ingest.put(path, body, object.size(), "application/dicom", Preconditions.NONE,
                    TestCallers.USER))
                    .isInstanceOfSatisfying(StoreException.class, e -> {
                        assertThat(e.kind().status).isEqualTo(413);
                        assertThat(e.getMessage()).contains("512x512 x " + frames + " frames",
                                "decode budget of 160 MiB", "medjava.memory.decode-budget-bytes",
                                "could never be rendered");
                    });
            assertThat(body.read).as("bytes received of " + object.size()).isLessThanOrEqualTo(1 << 20);
            assertThat(storage.root().resolve(path.relative())).doesNotExist();
        }
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    /** The same object staged by the network (a sparse file: no room on disk) is refused before it is parsed. */
    @Test
    void theSameObjectFromTheNetworkIsRefusedOutOfResourcesBeforeItIsParsed() throws Exception {
        Path staged = new GeneratedDicom(2047).writeSparse(images.newStagingFile("test-"));
        assertThatThrownBy(() -> ingest.receive(staged, Expected.NOTHING, TestCallers.USER)).isInstanceOfSatisfying(
                IngestFailure.class, e -> {
                    assertThat(e.status()).isEqualTo(0xA700);
                    assertThat(e.getMessage()).contains("x 2047 frames", "decode budget", "could never be rendered");
                });
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    @Test
    void aTransferSyntaxThatIsNoUidIsRefusedAtEveryDoor() throws Exception {
        Path file = ct("1.2.826.0.1.3680043.9.40.1");
        patch(file, "1.2.840.10008.1.2.1\0", "not-a-uid           ");
        assertRefused(file, DicomRules.Problem.INVALID_UID, "TransferSyntaxUID (0002,0010) \"not-a-uid\"");
    }

    @Test
    void aPhotometricInterpretationDicomDoesNotDefineIsRefusedAtEveryDoor() throws Exception {
        Path file = TestDicom.ct().instance("1.2.826.0.1.3680043.9.40.2", 1).set("PhotometricInterpretation",
                "BOGUS").writeTo(dir.resolve("bogus.dcm"));
        assertRefused(file, DicomRules.Problem.INVALID_PIXEL_DESCRIPTION,
                "PhotometricInterpretation (0028,0004) \"BOGUS\"");
    }

    /** 0 made the header that renderings read end at the meta information: every rendering was 422. */
    @Test
    void aFileMetaInformationGroupLengthThatLiesIsRefusedAtEveryDoor() throws Exception {
        for (int lie : new int[] {0, 40, 1000}) {
            Path file = ct("1.2.826.0.1.3680043.9.40.3." + lie);
            byte[] bytes = Files.readAllBytes(file);
            ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(b.getInt(132)).as("(0002,0000) first").isEqualTo(0x00000002);
            int truth = b.getInt(140);
            b.putInt(140, lie == 0 ? 0 : truth + lie);
            Files.write(file, bytes);
            assertRefused(file, DicomRules.Problem.MALFORMED, "File Meta Information Group Length (0002,0000) says "
                    + (lie == 0 ? 0 : truth + lie) + " bytes", "take " + truth + " bytes");
        }
    }

    /** Not every object the store cannot render is unservable: these are kept and served as they are. */
    @Test
    void whatTheStoreKeepsWithoutRenderingIsStillStored() throws Exception {
        Path sr = Samples.sopClass("test-SR.dcm");
        Path cmyk = TestDicom.ct().instance("1.2.826.0.1.3680043.9.40.4", 1).set("PhotometricInterpretation",
                "CMYK").writeTo(dir.resolve("cmyk.dcm")); // defined by DICOM (retired), not rendered here
        Path ct = ct("1.2.826.0.1.3680043.9.40.5"); // within the budget
        for (Path file : new Path[] {sr, cmyk, ct}) {
            try (InputStream in = Files.newInputStream(file)) {
                assertThat(ingest.put(StorePath.parse("kept/" + file.getFileName()), in, Files.size(file),
                        "application/dicom", Preconditions.NONE,
                                TestCallers.USER).created()).as(file.getFileName().toString()).isTrue();
            }
        }
        GeneratedDicom pdf = GeneratedDicom.pdf(8 << 20); // MemoryLimitsIT's large object, smaller
        assertThat(ingest.put(StorePath.parse("kept/document.dcm"), pdf, pdf.size(), "application/dicom",
                Preconditions.NONE, TestCallers.USER).created()).isTrue();
        assertThat(index.count()).isEqualTo(4);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private Path ct(String sopInstanceUid) {
        return TestDicom.ct().instance(sopInstanceUid, 1).writeTo(dir.resolve(sopInstanceUid + ".dcm"));
    }

    private static void patch(Path file, String from, String to) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf(from);
        assertThat(at).as(from + " in " + file).isNotNegative();
        System.arraycopy(to.getBytes(StandardCharsets.ISO_8859_1), 0, bytes, at, from.length());
        Files.write(file, bytes);
    }

    /** Refused by HTTP PUT (422) and by the network's door (C000), naming the problem; nothing stored. */
    private void assertRefused(Path file, DicomRules.Problem problem, String... details) throws Exception {
        StorePath path = StorePath.parse("bad/" + file.getFileName());
        try (InputStream in = Files.newInputStream(file)) {
            assertThatThrownBy(() -> ingest.put(path, in, Files.size(file), "application/dicom", Preconditions.NONE,
                    TestCallers.USER))
                    .isInstanceOfSatisfying(StoreException.class, e -> {
                        assertThat(e.kind().status).as(e.getMessage()).isEqualTo(422);
                        assertThat(e.getMessage()).startsWith(problem.words + ": ").contains(details);
                    });
        }
        Path staged = images.newStagingFile("test-");
        Files.copy(file, staged, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThatThrownBy(() -> ingest.receive(staged, Expected.NOTHING, TestCallers.USER)).isInstanceOfSatisfying(
                IngestFailure.class, e -> {
                    assertThat(e.status()).as(e.getMessage()).isEqualTo(0xC000);
                    assertThat(e.getMessage()).startsWith(problem.words + ": ").contains(details);
                });
        assertThat(storage.root().resolve(path.relative())).doesNotExist();
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    private void assertStagingEmpty() throws IOException {
        try (Stream<Path> files = Files.list(storage.root().resolve(".staging"))) {
            assertThat(files.toList()).isEmpty();
        }
    }

    /** A body that counts what was read of it. */
    private static final class Counting extends FilterInputStream {
        long read;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            read += Math.max(n, 0);
            return n;
        }
    }
}
