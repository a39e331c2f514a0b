package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.testkit.Samples;

/**
 * Crash points injected through {@link Ingest.Seam} into PUT, C-STORE/STOW ({@link Ingest#receive}) and DELETE, then
 * a "restart" (the journal opened again, {@link Reconciliation} run): after every crash point the index agrees with
 * the stored files, and each path holds its old object or its new one.
 */
class CrashRecoveryTest {

    private static final String STUDY = "1.2.826.0.1.3680043.9.70";
    private static final String SERIES = "1.2.826.0.1.3680043.9.71";

    /** What a kill -9 does to the thread: it stops, and nothing after it runs (no "done" is written). */
    static final class SimulatedCrash extends Error {
        SimulatedCrash(Ingest.Seam.Point at) {
            super("crash at " + at);
        }
    }

    @TempDir
    Path dir;
    private DicomIndex index;
    private ObjectStorage storage;
    private ImageRepository images;
    private IntentJournal journal;
    private Ingest ingest;

    @BeforeEach
    void open() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        storage = openStorage(dir);
        images = new ImageRepository(storage, 1 << 24);
        restartJournal();
    }

    @AfterEach
    void close() {
        journal.close();
        index.close();
        storage.close();
    }

    /** The storage under test: files here, S3 in {@link CrashRecoveryOnS3Test}. */
    ObjectStorage openStorage(Path dir) throws IOException {
        return new LocalFileStorage(dir.resolve("images"));
    }

    /** The bytes stored at {@code key}, or null. */
    private byte[] stored(String key) throws IOException {
        java.util.Optional<org.medjava.store.core.storage.StorageEntry> e = storage.stat(key);
        if (e.isEmpty() || e.get().directory()) {
            return null;
        }
        try (java.io.InputStream in = storage.open(key, 0, e.get().size())) {
            return in.readAllBytes();
        }
    }

    private void restartJournal() throws IOException {
        if (journal != null) {
            journal.close();
        }
        journal = IntentJournal.open(dir.resolve("journal"));
        newIngest();
    }

    private void newIngest() {
        ingest = Ingest.builder(images, index, new UploadValidator(1 << 24), DuplicatePolicy.REPLACE)
                .barrier(new WriteBarrier(java.time.Duration.ofSeconds(5))).journal(journal).build();
    }

    private Reconciliation.Report restart() throws IOException {
        restartJournal();
        return Reconciliation.run(journal, images, index);
    }

    private void crashAt(Ingest.Seam.Point point) {
        ingest.seam((p, path) -> {
            if (p == point) {
                throw new SimulatedCrash(p);
            }
        });
    }

    private static byte[] ct(String sop, String description) throws IOException {
        Path file = Files.createTempFile("ct", ".dcm");
        try {
            TestDicom.ct().patient("CRASH", "Crash^Test").study(STUDY, "20240101").series(SERIES, "CT", 1)
                    .instance(sop, 1).set("StudyDescription", description).writeTo(file);
            return Files.readAllBytes(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private void put(String path, byte[] body, String type) throws IOException {
        ingest.put(StorePath.parse(path), new ByteArrayInputStream(body), body.length, type, Preconditions.NONE,
                TestCallers.USER);
    }

    enum Write { PUT_DICOM_OVER_DICOM, PUT_GIF_OVER_DICOM, PUT_NEW_DICOM, RECEIVE, DELETE }

    @ParameterizedTest
    @EnumSource(Write.class)
    void afterACrashAtAnyPointTheIndexAgreesWithTheFiles(Write write) throws Exception {
        for (Ingest.Seam.Point point : Ingest.Seam.Point.values()) {
            byte[] old = ct("1.2.826.0.1.3680043.9.72." + point.ordinal(), "old");
            byte[] fresh = ct("1.2.826.0.1.3680043.9.73." + point.ordinal(), "new");
            byte[] gif = Files.readAllBytes(Samples.gif("ct-small.gif"));
            String path = "crash/" + write + "-" + point + (write == Write.PUT_GIF_OVER_DICOM ? "" : ".dcm");
            if (write != Write.PUT_NEW_DICOM && write != Write.RECEIVE) {
                put(path, old, "application/dicom");
            }
            crashAt(point);
            String written = path;
            try {
                switch (write) {
                    case PUT_DICOM_OVER_DICOM, PUT_NEW_DICOM -> put(path, fresh, "application/dicom");
                    case PUT_GIF_OVER_DICOM -> put(path, gif, "image/gif");
                    case RECEIVE -> {
                        Path staged = images.newStagingFile("net-");
                        Files.write(staged, fresh);
                        ingest.receive(staged, Expected.NOTHING, TestCallers.USER);
                    }
                    case DELETE -> ingest.delete(StorePath.parse(path), Preconditions.NONE, TestCallers.USER);
                }
                throw new AssertionError("no crash at " + point);
            } catch (SimulatedCrash expected) {
                // the node died here
            }
            if (write == Write.RECEIVE) {
                written = ArchivePath.of(parsed(fresh).identity()).relative();
            }

            Reconciliation.Report report = restart();

            assertThat(report.intents()).as("open intents after a crash at %s", point)
                    .isEqualTo(point == Ingest.Seam.Point.ANSWERING ? 0 : 1);
            assertThat(report.failed()).isZero();
            assertAgreement();
            byte[] now = stored(written);
            byte[] before = write == Write.PUT_NEW_DICOM || write == Write.RECEIVE ? null : old;
            byte[] after = switch (write) {
                case PUT_GIF_OVER_DICOM -> gif;
                case DELETE -> null;
                default -> fresh;
            };
            boolean changed = point != Ingest.Seam.Point.JOURNALED;
            assertThat(now).as("%s after a crash at %s", written, point).isEqualTo(changed ? after : before);
            assertThat(restart().intents()).as("reconciled intents are forgotten").isZero();
        }
    }

    @Test
    void aWriteWhoseIndexUpdateFailsIsNotAcknowledgedAndIsIndexedOnceTheIndexIsBack() throws Exception {
        put("fail/a.dcm", ct("1.2.826.0.1.3680043.9.74", "old"), "application/dicom");
        index.close(); // the database goes away after the object is stored
        byte[] fresh = ct("1.2.826.0.1.3680043.9.75", "new");
        assertThatThrownBy(() -> put("fail/a.dcm", fresh, "application/dicom"))
                .isInstanceOfSatisfying(org.medjava.store.core.StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(org.medjava.store.core.StoreException.Kind.UNAVAILABLE);
                    assertThat(e.getMessage()).contains("fail/a.dcm", "not confirmed");
                });
        assertThatThrownBy(() -> ingest.delete(StorePath.parse("fail/a.dcm"), Preconditions.NONE, TestCallers.USER))
                .isInstanceOfSatisfying(org.medjava.store.core.StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(org.medjava.store.core.StoreException.Kind.UNAVAILABLE));
        assertThat(journal.unsettled()).extracting(IntentJournal.Intent::path).containsExactly("fail/a.dcm",
                "fail/a.dcm");
        assertThat(ingest.settle().failed()).as("the index is still away").isEqualTo(1);

        reopenIndex(); // the database is back: no restart, the next settling round indexes what the files hold
        Reconciliation.Report report = ingest.settle();
        assertThat(report.removed()).isEqualTo(1);
        assertThat(journal.unsettled()).isEmpty();
        assertThat(journal.openCount()).isZero();
        assertAgreement();
    }

    @Test
    void aWriteLeftUnindexedByACrashWhileTheIndexWasAwayIsSettledOnceItIsBack() throws Exception {
        index.close();
        byte[] fresh = ct("1.2.826.0.1.3680043.9.78", "new");
        assertThatThrownBy(() -> put("fail/b.dcm", fresh, "application/dicom"))
                .isInstanceOf(org.medjava.store.core.StoreException.class);
        Reconciliation.Report atStart = restart(); // the node restarts while the index is still away
        assertThat(atStart.failed()).isEqualTo(1);
        assertThat(journal.unsettled()).extracting(IntentJournal.Intent::path).containsExactly("fail/b.dcm");

        reopenIndex();
        assertThat(ingest.settle().indexed()).isEqualTo(1);
        assertThat(index.instance("fail/b.dcm")).get().extracting(InstanceSummary::sopInstanceUid)
                .isEqualTo("1.2.826.0.1.3680043.9.78");
        assertThat(restart().intents()).as("settled intents are forgotten").isZero();
        assertAgreement();
    }

    /** The index database back: a new index, the same journal (no restart of the node). */
    private void reopenIndex() {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        newIngest();
    }

    @Test
    void aRefusedWriteLeavesNoOpenIntent() throws Exception {
        assertThatThrownBy(() -> put("refused/a.dcm", "not dicom".getBytes(), "application/dicom"))
                .isInstanceOf(org.medjava.store.core.StoreException.class);
        assertThatThrownBy(() -> ingest.delete(StorePath.parse("refused/none.dcm"), Preconditions.NONE,
                TestCallers.USER))
                .isInstanceOf(org.medjava.store.core.StoreException.class);
        put("refused/b.dcm", ct("1.2.826.0.1.3680043.9.76", "x"), "application/dicom");
        assertThatThrownBy(() -> ingest.put(StorePath.parse("refused/b.dcm"),
                new ByteArrayInputStream(ct("1.2.826.0.1.3680043.9.77", "y")), -1, "application/dicom",
                new Preconditions("\"other\"", null),
                        TestCallers.USER)).isInstanceOf(org.medjava.store.core.StoreException.class);
        assertThat(journal.openCount()).isZero();
    }

    /** Every stored DICOM file has its row with its UID; every row has its file; nothing else is indexed. */
    private void assertAgreement() throws IOException {
        Map<String, String> files = new TreeMap<>();
        List<String> others = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        storage.walk("", e -> keys.add(e.key()));
        for (String key : keys) {
            try {
                byte[] bytes = stored(key);
                if (bytes.length > 132 && new String(bytes, 128, 4, java.nio.charset.StandardCharsets.US_ASCII)
                        .equals("DICM")) {
                    files.put(key, parsed(bytes).identity().sopInstanceUid());
                } else {
                    others.add(key);
                }
            } catch (IngestFailure x) {
                throw new AssertionError(x);
            }
        }
        Map<String, String> rows = new TreeMap<>();
        for (InstanceSummary i : index.instances(null, org.medjava.store.core.index.InstanceQuery.all())) {
            rows.put(i.path(), i.sopInstanceUid());
        }
        assertThat(rows).isEqualTo(files);
        assertThat(others).noneMatch(rows::containsKey);
    }

    /** The data set as the ingest door parses it (from a staged file, as a stream). */
    private static ReceivedDataSet parsed(byte[] bytes) throws IOException, IngestFailure {
        Path file = Files.createTempFile("parsed", ".dcm");
        try {
            Files.write(file, bytes);
            return ReceivedDataSet.read(file, Long.MAX_VALUE, new org.medjava.store.core.repo.UploadValidator(1 << 24));
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
