package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.IntegerStringAttribute;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.testkit.LyingFrameHeader;
import org.medjava.filter.testkit.NestedDicom;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.InstanceQuery;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.testkit.Samples;

/** {@link Ingest#receive} (objects from the network) on a temp repository and an H2 index: placement, the duplicate policies, refusals. */
class IngestReceiveTest {

    @TempDir
    Path dir;
    private DicomIndex index;
    private LocalFileStorage storage;
    private ImageRepository images;

    @BeforeEach
    void open() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        storage = new LocalFileStorage(dir.resolve("images"));
        images = new ImageRepository(storage, 1 << 24);
    }

    @AfterEach
    void close() {
        index.close();
    }

    private Ingest ingest(DuplicatePolicy policy) {
        return Ingest.builder(images, index, new UploadValidator(1 << 24), policy).build();
    }

    /** A received object in the staging directory, as the network layer would leave it. */
    private Path staged(TestDicom dicom) throws IOException {
        Path staged = images.newStagingFile("test-");
        dicom.writeTo(staged);
        return staged;
    }

    private static TestDicom ct(String patientId, String sop) {
        return TestDicom.ct().patient(patientId, "Test^Patient").study("1.2.826.0.1.3680043.9.1", "20240101")
                .series("1.2.826.0.1.3680043.9.2", "CT", 1).instance(sop, 1);
    }

    @Test
    void storesUnderTheArchivePathAndIndexes() throws Exception {
        Ingested r = ingest(DuplicatePolicy.REJECT).receive(staged(ct("P/1", "1.2.826.0.1.3680043.9.3")),
                Expected.NOTHING, TestCallers.USER);

        assertThat(r.path().relative()).isEqualTo("dicom/P_1/1.2.826.0.1.3680043.9.1/1.2.826.0.1.3680043.9.2/"
                + "1.2.826.0.1.3680043.9.3.dcm");
        assertThat(r.replaced()).isFalse();
        assertThat(storage.root().resolve(r.path().relative())).exists();
        assertThat(index.instance(r.path().relative())).get().extracting(i -> i.patientId()).isEqualTo("P/1");
        assertStagingEmpty();
    }

    @Test
    void rejectPolicyRefusesASecondCopyAndKeepsTheFirst() throws Exception {
        Ingest ingest = ingest(DuplicatePolicy.REJECT);
        Ingested first = ingest.receive(staged(ct("P1", "1.2.826.0.1.3680043.9.4")), Expected.NOTHING,
                TestCallers.USER);
        Path file = storage.root().resolve(first.path().relative());
        byte[] before = Files.readAllBytes(file);

        Path again = staged(ct("P1", "1.2.826.0.1.3680043.9.4").set("StudyDescription", "changed"));
        assertThatThrownBy(() -> ingest.receive(again, Expected.NOTHING,
                TestCallers.USER)).isInstanceOfSatisfying(IngestFailure.class,
                e -> {
                    assertThat(e.status()).isEqualTo(0x0111);
                    assertThat(e.getMessage()).contains("duplicate", "reject");
                });
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertStagingEmpty();
    }

    @Test
    void replacePolicySwapsTheFileAndDropsCopiesStoredUnderAnOldPatientId() throws Exception {
        Ingest ingest = ingest(DuplicatePolicy.REPLACE);
        Ingested first = ingest.receive(staged(ct("OLD", "1.2.826.0.1.3680043.9.5")), Expected.NOTHING,
                TestCallers.USER);
        Ingested sameId = ingest.receive(staged(ct("OLD", "1.2.826.0.1.3680043.9.5").set("StudyDescription", "v2")),
                Expected.NOTHING, TestCallers.USER);
        assertThat(sameId.replaced()).isTrue();
        assertThat(sameId.path()).isEqualTo(first.path());
        assertThat(index.studies(org.medjava.store.core.index.StudyQuery.all()).get(0).studyDescription()).isEqualTo("v2");

        Ingested newId = ingest.receive(staged(ct("NEW", "1.2.826.0.1.3680043.9.5")), Expected.NOTHING,
                TestCallers.USER);
        assertThat(storage.root().resolve(newId.path().relative())).exists();
        assertThat(storage.root().resolve(first.path().relative())).doesNotExist();
        assertThat(index.instances(null, InstanceQuery.all().sopInstanceUid("1.2.826.0.1.3680043.9.5"))).hasSize(1);
    }

    @Test
    void aDataSetThatIsNotWhatWasAnnouncedIsRefused() throws Exception {
        Path file = staged(ct("P2", "1.2.826.0.1.3680043.9.6"));
        assertThatThrownBy(() -> ingest(DuplicatePolicy.REJECT).receive(file,
                Expected.sop("1.2.840.10008.5.1.4.1.1.2", "1.2.826.0.1.3680043.9.999"), TestCallers.USER))
                .isInstanceOfSatisfying(IngestFailure.class, e -> assertThat(e.status()).isEqualTo(0xA900));
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    @Test
    void malformedNonImageAndNonDicomObjectsAreRefusedWithTheirStatus() throws Exception {
        Ingest ingest = ingest(DuplicatePolicy.REJECT);
        assertFailure(ingest, copy("MR_truncated.dcm"), 0xC000);
        assertFailure(ingest, staged(ct("P9", "1.2.826.0.1.3680043.9.90").set("SOPClassUID", "1.2.840.10008.1.1")),
                0x0122); // Verification: a SOP class, but not a storage one
        Path text = images.newStagingFile("test-");
        Files.writeString(text, "not DICOM");
        assertFailure(ingest, text, 0xC000);
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    @Test
    void anObjectCutShortInsideItsTrailingPaddingIsRefused() throws Exception {
        Path staged = copy("CT_small.dcm"); // its last element is Data Set Trailing Padding (FFFC,FFFC)
        byte[] whole = Files.readAllBytes(staged);
        Files.write(staged, java.util.Arrays.copyOf(whole, whole.length - 50));
        assertFailure(ingest(DuplicatePolicy.REJECT), staged, 0xC000);
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    @Test
    void aDeeplyNestedObjectIsRefusedWithTheReasonAndNothingStored() throws Exception {
        for (NestedDicom.Syntax syntax : NestedDicom.Syntax.values()) {
            Path staged = images.newStagingFile("test-");
            Files.write(staged, NestedDicom.part10(2000, syntax, syntax.ordinal() % 2 == 0, "1.2.826.0.1.3680043.9.7"));
            assertThatThrownBy(() -> ingest(DuplicatePolicy.REJECT).receive(staged, Expected.NOTHING, TestCallers.USER))
                    .isInstanceOfSatisfying(IngestFailure.class, e -> {
                        assertThat(e.status()).isEqualTo(0xC000);
                        assertThat(e.getMessage()).isEqualTo("malformed: DICOM sequence nesting deeper than 64 levels");
                    });
        }
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    /**
     * Frame 0 is what the door decodes; a later frame whose JPEG header claims 20000 x 20000 would make a decoder
     * take gigabytes when it is rendered or transcoded: refused at the door, nothing stored.
     */
    @Test
    void aFrameWhoseOwnHeaderClaimsAnotherSizeIsRefusedEvenIfItIsNotTheFirst() throws Exception {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        list.read(Samples.dicom("SC_rgb_jpeg_dcmtk.dcm").toString());
        byte[] frame = ((OtherByteAttributeMultipleCompressedFrames)
                list.get(TagFromName.PixelData)).getByteValuesForSelectedFrame(0);
        byte[] claims = LyingFrameHeader.JPEG_SOF0.claim(frame.clone(), 20000);
        list.put(new OtherByteAttributeMultipleCompressedFrames(
                TagFromName.PixelData, new byte[][] {frame, claims}));
        Attribute frames = new IntegerStringAttribute(
                TagFromName.NumberOfFrames);
        frames.addValue(2);
        list.put(frames);
        Path staged = images.newStagingFile("test-");
        list.write(staged.toFile(), Attribute.getSingleStringValueOrEmptyString(list,
                TagFromName.TransferSyntaxUID), true, true);

        assertThatThrownBy(() -> ingest(DuplicatePolicy.REJECT).receive(staged, Expected.NOTHING, TestCallers.USER))
                .isInstanceOfSatisfying(IngestFailure.class, e -> {
                    assertThat(e.status()).isEqualTo(0xC000);
                    assertThat(e.getMessage()).contains("pixel data do not decode",
                            "DICOM frame 1 is coded as 20000x20000, the DICOM header says 100x100");
                });
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    private Path copy(String sample) throws IOException {
        Path staged = images.newStagingFile("test-");
        Files.copy(Samples.dicom(sample), staged, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return staged;
    }

    private static void assertFailure(Ingest ingest, Path staged, int status) {
        assertThatThrownBy(() -> ingest.receive(staged, Expected.NOTHING,
                TestCallers.USER)).isInstanceOfSatisfying(IngestFailure.class,
                e -> assertThat(e.status()).as(e.getMessage()).isEqualTo(status));
    }

    @Test
    void theDoorCountsWhatItStoresAndWhatItRefusesByReason() throws Exception {
        org.medjava.store.core.testsupport.RecordingMetrics metrics = new org.medjava.store.core.testsupport.RecordingMetrics();
        Ingest ingest = Ingest.builder(images, index, new UploadValidator(1 << 24), DuplicatePolicy.REJECT)
                .metrics(metrics).build();
        Path first = staged(ct("P9", "1.2.826.0.1.3680043.9.90"));
        long size = Files.size(first);

        ingest.receive(first, Expected.NOTHING, TestCallers.USER);
        assertThatThrownBy(() -> ingest.receive(staged(ct("P9", "1.2.826.0.1.3680043.9.90")), Expected.NOTHING,
                TestCallers.USER))
                .isInstanceOf(IngestFailure.class);

        assertThat(metrics.events()).containsExactly("ingested receive " + size,
                "refused receive duplicate_sop_instance");
        assertThat(IngestFailure.Reason.label(0)).isEqualTo("success");
        assertThat(IngestFailure.Reason.label(0xA700)).isEqualTo("out_of_resources");
        assertThat(IngestFailure.Reason.label(0xFFFF)).isEqualTo("failure");
    }

    private void assertStagingEmpty() throws IOException {
        try (Stream<Path> files = Files.list(storage.root().resolve(".staging"))) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
