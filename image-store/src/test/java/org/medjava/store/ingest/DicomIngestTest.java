package org.medjava.store.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.index.IndexDatabase;
import org.medjava.store.index.InstanceQuery;
import org.medjava.store.index.TestDicom;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.repo.RepositoryListener;
import org.medjava.store.repo.StorePath;
import org.medjava.store.repo.UploadValidator;
import org.medjava.store.testsupport.Samples;

/** {@link DicomIngest} on a temp repository and an H2 index: placement, the duplicate policies, refusals. */
class DicomIngestTest {

    @TempDir
    Path dir;
    private DicomIndex index;
    private ImageRepository images;

    @BeforeEach
    void open() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        images = new ImageRepository(dir.resolve("images"), 1 << 24, new UploadValidator(1 << 24),
                new RepositoryListener() {
                    @Override
                    public void stored(StorePath path, Path file, org.medjava.codec.ImageFormat format) {
                        index.put(path.relative(), file);
                    }

                    @Override
                    public void deleted(StorePath path) {
                        index.remove(path.relative());
                    }
                });
    }

    @AfterEach
    void close() {
        index.close();
    }

    private DicomIngest ingest(DuplicatePolicy policy) {
        return new DicomIngest(images, index, policy);
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
        Ingested r = ingest(DuplicatePolicy.REJECT).ingest(staged(ct("P/1", "1.2.826.0.1.3680043.9.3")),
                Expected.NOTHING);

        assertThat(r.path().relative()).isEqualTo("dicom/P_1/1.2.826.0.1.3680043.9.1/1.2.826.0.1.3680043.9.2/"
                + "1.2.826.0.1.3680043.9.3.dcm");
        assertThat(r.replaced()).isFalse();
        assertThat(images.root().resolve(r.path().relative())).exists();
        assertThat(index.instance(r.path().relative())).get().extracting(i -> i.patientId()).isEqualTo("P/1");
        assertStagingEmpty();
    }

    @Test
    void rejectPolicyRefusesASecondCopyAndKeepsTheFirst() throws Exception {
        DicomIngest ingest = ingest(DuplicatePolicy.REJECT);
        Ingested first = ingest.ingest(staged(ct("P1", "1.2.826.0.1.3680043.9.4")), Expected.NOTHING);
        Path file = images.root().resolve(first.path().relative());
        byte[] before = Files.readAllBytes(file);

        Path again = staged(ct("P1", "1.2.826.0.1.3680043.9.4").set("StudyDescription", "changed"));
        assertThatThrownBy(() -> ingest.ingest(again, Expected.NOTHING)).isInstanceOfSatisfying(IngestFailure.class,
                e -> {
                    assertThat(e.status()).isEqualTo(0x0111);
                    assertThat(e.getMessage()).contains("duplicate", "reject");
                });
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertStagingEmpty();
    }

    @Test
    void replacePolicySwapsTheFileAndDropsCopiesStoredUnderAnOldPatientId() throws Exception {
        DicomIngest ingest = ingest(DuplicatePolicy.REPLACE);
        Ingested first = ingest.ingest(staged(ct("OLD", "1.2.826.0.1.3680043.9.5")), Expected.NOTHING);
        Ingested sameId = ingest.ingest(staged(ct("OLD", "1.2.826.0.1.3680043.9.5").set("StudyDescription", "v2")),
                Expected.NOTHING);
        assertThat(sameId.replaced()).isTrue();
        assertThat(sameId.path()).isEqualTo(first.path());
        assertThat(index.studies(org.medjava.store.index.StudyQuery.all()).get(0).studyDescription()).isEqualTo("v2");

        Ingested newId = ingest.ingest(staged(ct("NEW", "1.2.826.0.1.3680043.9.5")), Expected.NOTHING);
        assertThat(images.root().resolve(newId.path().relative())).exists();
        assertThat(images.root().resolve(first.path().relative())).doesNotExist();
        assertThat(index.instances(null, InstanceQuery.all().sopInstanceUid("1.2.826.0.1.3680043.9.5"))).hasSize(1);
    }

    @Test
    void aDataSetThatIsNotWhatWasAnnouncedIsRefused() throws Exception {
        Path file = staged(ct("P2", "1.2.826.0.1.3680043.9.6"));
        assertThatThrownBy(() -> ingest(DuplicatePolicy.REJECT).ingest(file,
                Expected.sop("1.2.840.10008.5.1.4.1.1.2", "1.2.826.0.1.3680043.9.999")))
                .isInstanceOfSatisfying(IngestFailure.class, e -> assertThat(e.status()).isEqualTo(0xA900));
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    @Test
    void malformedNonImageAndNonDicomObjectsAreRefusedWithTheirStatus() throws Exception {
        DicomIngest ingest = ingest(DuplicatePolicy.REJECT);
        assertFailure(ingest, copy("MR_truncated.dcm"), 0xC000);
        assertFailure(ingest, copy("rtdose.dcm"), 0x0122);
        Path text = images.newStagingFile("test-");
        Files.writeString(text, "not DICOM");
        assertFailure(ingest, text, 0xC000);
        assertThat(index.count()).isZero();
        assertStagingEmpty();
    }

    private Path copy(String sample) throws IOException {
        Path staged = images.newStagingFile("test-");
        Files.copy(Samples.dicom(sample), staged, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return staged;
    }

    private static void assertFailure(DicomIngest ingest, Path staged, int status) {
        assertThatThrownBy(() -> ingest.ingest(staged, Expected.NOTHING)).isInstanceOfSatisfying(IngestFailure.class,
                e -> assertThat(e.status()).as(e.getMessage()).isEqualTo(status));
    }

    private void assertStagingEmpty() throws IOException {
        try (Stream<Path> files = Files.list(images.root().resolve(".staging"))) {
            assertThat(files.toList()).isEmpty();
        }
    }
}
