package org.medjava.store.core.trash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvent;
import org.medjava.store.core.audit.Coded;
import org.medjava.store.core.index.Change;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.index.TrashedFile;
import org.medjava.store.core.index.Trashed;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.KeyObjectNote;
import org.medjava.store.core.testsupport.MovableClock;
import org.medjava.store.core.testsupport.RecordingMetrics;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * The trash on one node with files and H2: a deletion hides a study from the index and from reads by path at once,
 * a restore gives it back, the purge removes the files when the grace period ends (never a file written at the same
 * path since), the guard holds large deletions, and each step is audited and counted.
 */
class TrashTest {
    private static final String STUDY = "1.2.826.31.1";
    private static final String OTHER = "1.2.826.31.2";

    @TempDir
    Path tmp;

    private DicomIndex index;
    private ImageRepository images;
    private Ingest ingest;
    private Trash trash;
    private final MovableClock clock = new MovableClock(Instant.parse("2026-12-06T10:00:00Z"));
    private final List<AuditEvent> audit = new ArrayList<>();
    private final RecordingMetrics metrics = new RecordingMetrics();

    @BeforeEach
    void setUp() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(Files.createDirectories(tmp.resolve("db"))));
        images = new ImageRepository(new LocalFileStorage(Files.createDirectories(tmp.resolve("images"))),
                1 << 24);
        ingest = Ingest.builder(images, index, new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS),
                DuplicatePolicy.REJECT).build();
        for (int i = 1; i <= 3; i++) {
            put("s/a" + i + ".dcm", TestDicom.ct().patient("T1", "Trash^One").study(STUDY, "20200105")
                    .series(STUDY + ".1", "CT", 1).instance(STUDY + ".1." + i, i));
        }
        put("s/b1.dcm", TestDicom.ct().patient("T2", "Trash^Two").study(OTHER, "20210105")
                .series(OTHER + ".1", "CT", 1).instance(OTHER + ".1.1", 1));
        trash = newTrash(new Trash.Settings(Duration.ofHours(72), 0.8, 2));
    }

    private Trash newTrash(Trash.Settings settings) {
        return new Trash(index, images, settings, audit::add, metrics, clock);
    }

    @AfterEach
    void tearDown() {
        index.close();
    }

    private void put(String path, TestDicom dicom) throws IOException {
        Path file = dicom.writeTo(tmp.resolve("src-" + path.replace('/', '-')));
        try (InputStream in = Files.newInputStream(file)) {
            ingest.put(StorePath.parse(path), in, Files.size(file), "application/dicom", Preconditions.NONE,
                    TestCallers.USER);
        }
    }

    private boolean readable(String path) {
        return images.stat(StorePath.parse(path)).isPresent();
    }

    @Test
    void aDeletedStudyIsGoneForReadersAtOnceButItsFilesStayUntilThePurge() {
        Trashed trashed = trash.delete(TrashScope.study(STUDY), "wrong patient", false, TestCallers.USER);

        assertThat(trashed.instances()).isEqualTo(3);
        assertThat(trashed.purgeAfter()).isEqualTo(clock.instant().plus(Duration.ofHours(72)));
        assertThat(index.studies(StudyQuery.all())).hasSize(1);
        assertThat(readable("s/a1.dcm")).isFalse();
        assertThat(readable("s/b1.dcm")).isTrue();
        assertThat(images.list(StorePath.parse("s/"))).extracting(f -> f.path().name()).containsExactly("b1.dcm");
        assertThat(Files.exists(tmp.resolve("images/s/a1.dcm"))).isTrue();
        assertThat(trash.size()).isEqualTo(3);
        assertThat(trash.list()).containsOnlyKeys(trashed.trashId());
        assertThat(audit).last().satisfies(e -> {
            assertThat(e.id()).isEqualTo(Coded.STUDY_DELETED);
            assertThat(e.action()).isEqualTo('D');
            assertThat(e.objects()).extracting(AuditEvent.ParticipantObject::id).containsExactly(STUDY, "T1");
        });
        assertThat(metrics.events()).contains("trash deleted 3");

        assertThat(trash.purgeDue()).isZero(); // the grace period has not ended
        assertThat(Files.exists(tmp.resolve("images/s/a1.dcm"))).isTrue();
    }

    @Test
    void aRestoreGivesTheStudyBackAsItWas() {
        Trashed trashed = trash.delete(TrashScope.series(STUDY, STUDY + ".1"), null, false, TestCallers.USER);

        Trash.Outcome outcome = trash.restore(trashed.trashId(), TestCallers.USER);

        assertThat(outcome.restored()).isEqualTo(3);
        assertThat(outcome.failed()).isZero();
        assertThat(index.instances(STUDY + ".1")).hasSize(3);
        assertThat(readable("s/a2.dcm")).isTrue();
        assertThat(trash.size()).isZero();
        assertThat(index.changes(0, 100)).extracting(Change::kind).endsWith(Change.RESTORED, Change.RESTORED,
                Change.RESTORED);
        assertThatThrownBy(() -> trash.restore(trashed.trashId(),
                TestCallers.USER)).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
    }

    @Test
    void thePurgeRemovesTheFilesOnceTheGracePeriodHasEndedButNeverAFileWrittenThereSince() throws IOException {
        trash.delete(TrashScope.study(STUDY), null, false, TestCallers.USER);
        put("s/a3.dcm", TestDicom.ct().patient("T3", "Trash^Three").study("1.2.826.31.3", "20220105")
                .series("1.2.826.31.3.1", "CT", 1).instance("1.2.826.31.3.1.1", 1));
        assertThat(readable("s/a3.dcm")).isTrue(); // a new file at a trashed path is not hidden

        clock.advance(Duration.ofHours(73));
        assertThat(trash.purgeDue()).isEqualTo(3);

        assertThat(Files.exists(tmp.resolve("images/s/a1.dcm"))).isFalse();
        assertThat(Files.exists(tmp.resolve("images/s/a2.dcm"))).isFalse();
        assertThat(Files.exists(tmp.resolve("images/s/a3.dcm"))).isTrue();
        assertThat(index.instance("s/a3.dcm")).isPresent();
        assertThat(trash.size()).isZero();
        assertThat(trash.list()).isEmpty();
        assertThat(index.changes(0, 100)).extracting(Change::kind).filteredOn(Change.PURGED::equals).hasSize(3);
    }

    @Test
    void anAdministratorPurgesADeletionBeforeItsTime() {
        Trashed trashed = trash.delete(TrashScope.instance(STUDY, STUDY + ".1", STUDY + ".1.2"), null, false,
                TestCallers.USER);

        Trash.Outcome outcome = trash.purge(trashed.trashId(), TestCallers.USER);

        assertThat(outcome.purged()).isEqualTo(1);
        assertThat(Files.exists(tmp.resolve("images/s/a2.dcm"))).isFalse();
        assertThat(index.instances(STUDY + ".1")).hasSize(2);
    }

    @Test
    void theGuardHoldsADeletionOfTooLargeAShareUnlessForced() {
        Trash trash = newTrash(new Trash.Settings(Duration.ofHours(72), 0.5, 2));
        assertThatThrownBy(() -> trash.delete(TrashScope.study(STUDY), null, false, TestCallers.USER))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT);
                    assertThat(e.getMessage()).contains("3 of the store's 4 instances (75%)", "force=true");
                });
        assertThat(index.count()).isEqualTo(4);

        assertThat(trash.delete(TrashScope.study(STUDY), null, true, TestCallers.USER).instances()).isEqualTo(3);
    }

    @Test
    void nothingToDeleteIsNotFound() {
        assertThatThrownBy(() -> trash.delete(TrashScope.study("1.2.3.4"), null, false, TestCallers.USER))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
        assertThatThrownBy(() -> TrashScope.study("1.2.x")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anotherNodesTrashIsSeenAfterARefresh() {
        Trash other = newTrash(trash.settings()); // a second node on the same index
        trash.delete(TrashScope.study(OTHER), null, false, TestCallers.USER);
        other.refresh();
        assertThat(other.size()).isEqualTo(1);
        assertThat(other.hides("s/b1.dcm", 0, Instant.EPOCH)).isFalse(); // a different file at that path
    }

    @Test
    void anIocmRejectionNoteMovesTheInstancesItNamesToTheTrash() throws Exception {
        ingest.afterReceive((stored, dataSet, from) -> RejectionNote.of(dataSet)
                .ifPresent(note -> trash.reject(note, stored.sopInstanceUid(), from)));
        String ctClass = "1.2.840.10008.5.1.4.1.1.2";
        Path ofInterest = tmp.resolve("of-interest.dcm");
        KeyObjectNote.write(ofInterest, "T1", STUDY, "113000", "Of Interest", STUDY + ".1", ctClass,
                List.of(STUDY + ".1.1"));
        Path rejection = tmp.resolve("rejection.dcm");
        String note = KeyObjectNote.write(rejection, "T1", STUDY, "113001", "Rejected for Quality Reasons",
                STUDY + ".1", ctClass, List.of(STUDY + ".1.1", STUDY + ".1.3", STUDY + ".1.99"));

        ingest.receive(staged(ofInterest), Expected.NOTHING, TestCallers.USER);
        assertThat(index.instances(STUDY + ".1")).hasSize(3);
        ingest.receive(staged(rejection), Expected.NOTHING, TestCallers.USER);

        assertThat(index.instances(STUDY + ".1")).extracting(i -> i.sopInstanceUid()).containsExactly(STUDY + ".1.2");
        assertThat(readable("s/a1.dcm")).isFalse();
        assertThat(trash.list().values()).singleElement().satisfies(files -> {
            assertThat(files).extracting(TrashedFile::path).containsExactly("s/a1.dcm", "s/a3.dcm");
            assertThat(files.get(0).reason()).isEqualTo("IOCM rejection note " + note
                    + ": Rejected for Quality Reasons");
        });
        assertThat(index.pathsOf(note)).hasSize(1); // the note itself is kept
        // the change feed says why they went, and the trash follows a rejection as a deletion
        assertThat(index.changes(0, 100)).filteredOn(c -> c.trashId() != null).extracting(Change::kind,
                Change::path).containsExactly(tuple(Change.REJECTED, "s/a1.dcm"), tuple(Change.REJECTED, "s/a3.dcm"));
        Trash other = newTrash(trash.settings()); // a second node on the same index
        other.refresh();
        assertThat(other.size()).isEqualTo(2);
    }

    private Path staged(Path file) throws IOException {
        Path staged = images.newStagingFile("note-");
        Files.copy(file, staged, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return staged;
    }
}
