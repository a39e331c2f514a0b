package org.medjava.store.core.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.index.AgedStudy;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.retention.RetentionRule.Basis;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.MovableClock;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.core.trash.Trash;

/**
 * Retention rules on one node: a preview selects the studies old enough by StudyDate or by reception (and by
 * modality, source AE title and label), a run moves them to the trash, rules are kept in their book, and the guard refuses or holds a rule
 * that takes too large a share of the store at once.
 */
class RetentionTest {
    @TempDir
    Path tmp;

    private DicomIndex index;
    private Ingest ingest;
    private Trash trash;
    private Retention retention;
    // today: the index stamps reception with the real clock, so the rules' clock starts from it
    private final MovableClock clock = new MovableClock(Instant.now());

    @BeforeEach
    void setUp() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(Files.createDirectories(tmp.resolve("db"))));
        ImageRepository images = new ImageRepository(new LocalFileStorage(Files.createDirectories(
                tmp.resolve("images"))), 1 << 24);
        ingest = Ingest.builder(images, index, new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS),
                DuplicatePolicy.REJECT).build();
        study("1.2.826.41.1", "20010315", "CT");
        study("1.2.826.41.2", "20100701", "MR");
        study("1.2.826.41.3", "20250101", "CT");
        study("1.2.826.41.4", java.time.LocalDate.now(java.time.ZoneOffset.UTC).minusDays(6)
                .format(java.time.format.DateTimeFormatter.BASIC_ISO_DATE), "MR"); // a recent study
        trash = new Trash(index, images, new Trash.Settings(Duration.ofHours(72), 0.5, 1), AuditTrail.NONE,
                StoreMetrics.NONE, clock);
        retention = new Retention(index, trash, RuleBook.directory(tmp.resolve("rules")), clock);
    }

    @AfterEach
    void tearDown() {
        index.close();
    }

    private static RetentionRule.Draft draft(String name, Basis basis, int days, String modality,
            boolean enabled) {
        return new RetentionRule.Draft(name, basis, days, modality, null, null, enabled);
    }

    private void study(String uid, String date, String modality) throws IOException {
        TestDicom dicom = (modality.equals("CT") ? TestDicom.ct() : TestDicom.mr()).patient("R" + uid.substring(11),
                "Retention^Test").study(uid, date).series(uid + ".1", modality, 1).instance(uid + ".1.1", 1)
                .sourceAe(uid.endsWith("1") || uid.endsWith("2") ? "OLD_CT" : "WARD_MR");
        Path file = dicom.writeTo(tmp.resolve("src-" + uid + ".dcm"));
        try (InputStream in = Files.newInputStream(file)) {
            ingest.put(StorePath.parse("r/" + uid + ".dcm"), in, Files.size(file), "application/dicom",
                    Preconditions.NONE, TestCallers.USER);
        }
    }

    @Test
    void aPreviewSelectsTheStudiesOlderThanTheRuleByStudyDateAndModality() {
        RetentionRule tenYears = retention.add(draft("ten years", Basis.STUDY_DATE, 3652, null, false), false, "admin");
        assertThat(retention.preview(tenYears.id()).studies()).extracting(AgedStudy::studyInstanceUid)
                .containsExactly("1.2.826.41.1", "1.2.826.41.2");
        RetentionRule mr = retention.add(draft("MR after a year", Basis.STUDY_DATE, 365, "MR", false), false, "admin");
        Retention.Preview preview = retention.preview(mr.id());
        assertThat(preview.studies()).extracting(AgedStudy::studyInstanceUid).containsExactly("1.2.826.41.2");
        assertThat(preview.instances()).isEqualTo(1);
        assertThat(preview.share()).isEqualTo(0.25);
        assertThat(index.count()).isEqualTo(4); // a preview deletes nothing
    }

    @Test
    void byReceptionAStudyGoesWhenItsLastInstanceIsOldEnough() {
        RetentionRule week = retention.add(draft("a week after reception", Basis.RECEIVED, 7, "CT", false),
                false, "admin");
        assertThat(retention.preview(week.id()).studies()).isEmpty();
        clock.advance(Duration.ofDays(8));
        assertThat(retention.preview(week.id()).studies()).extracting(AgedStudy::studyInstanceUid)
                .containsExactlyInAnyOrder("1.2.826.41.1", "1.2.826.41.3");
    }

    @Test
    void aRunMovesTheSelectedStudiesToTheTrashAndOnlyEnabledRulesRunInTheBackground() {
        RetentionRule off = retention.add(draft("off", Basis.STUDY_DATE, 3652, "CT", false), false, "admin");
        RetentionRule on = retention.add(draft("on", Basis.STUDY_DATE, 3652, "MR", true), false, "admin");

        assertThat(retention.runAll()).singleElement().satisfies(run -> {
            assertThat(run.ruleId()).isEqualTo(on.id());
            assertThat(run.outcome()).isEqualTo("deleted");
            assertThat(run.trashIds()).hasSize(1);
        });
        assertThat(index.studies(StudyQuery.all())).extracting(StudySummary::studyInstanceUid)
                .doesNotContain("1.2.826.41.2").contains("1.2.826.41.1");
        assertThat(trash.list().values()).singleElement().satisfies(files -> assertThat(files.get(0).reason())
                .isEqualTo("retention rule on"));

        assertThat(retention.run(off.id()).studies()).isEqualTo(1); // asked for: runs though disabled
        assertThat(retention.run(off.id()).outcome()).isEqualTo("nothing");

        // each rule keeps what its latest run did, for the console
        assertThat(retention.rule(on.id()).lastRun()).isEqualTo(new RetentionRule.LastRun(clock.instant(), "deleted",
                1, 1, null));
        assertThat(new Retention(index, trash, RuleBook.directory(tmp.resolve("rules")), clock).rule(off.id())
                .lastRun()).isEqualTo(new RetentionRule.LastRun(clock.instant(), "nothing", 0, 0,
                "no study is old enough"));
    }

    @Test
    void aDraftIsPreviewedWithoutBeingMade() {
        Retention.Preview draft = retention.preview(draft("MR after a year", Basis.STUDY_DATE, 365, "MR", false));
        assertThat(draft.studies()).extracting(AgedStudy::studyInstanceUid).containsExactly("1.2.826.41.2");
        assertThat(draft.rule().id()).isNull();
        assertThat(retention.rules()).isEmpty();
        assertThatThrownBy(() -> retention.preview(draft("bad", Basis.RECEIVED, 0, null, false)))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
    }

    @Test
    void aRuleOverTheGuardsShareIsRefusedUnlessConfirmedAndARuleThatGrewOverItIsHeld() {
        assertThatThrownBy(() -> retention.add(draft("everything", Basis.STUDY_DATE, 1, null, true), false,
                "admin")).isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT);
                    assertThat(e.getMessage()).contains("4 of the store's 4 instances", "confirm=true");
                });
        assertThat(retention.rules()).isEmpty();
        assertThat(retention.add(draft("everything", Basis.STUDY_DATE, 1, null, false), true, "admin")
                .confirmed()).isTrue();

        // 2 of 4: not over half
        RetentionRule tenYears = retention.add(draft("ten years", Basis.STUDY_DATE, 3652, null, true), false, "admin");
        trash.delete(TrashScope.study("1.2.826.41.4"), null, true, TestCallers.USER); // now 2 of 3
        Retention.Run held = retention.run(tenYears.id());
        assertThat(held.outcome()).isEqualTo("held");
        assertThat(held.message()).contains("66.7%", "confirm=true");
        assertThat(index.count()).isEqualTo(3);
    }

    @Test
    void aRuleNarrowedBySourceAeOrLabelTakesOnlyThoseStudies() {
        index.addLabel("1.2.826.41.1", "teaching");
        index.addLabel("1.2.826.41.3", "teaching");
        RetentionRule fromOldCt = retention.add(new RetentionRule.Draft("from OLD_CT", Basis.RECEIVED,
                7, null, "OLD_CT", null, true), false, "admin");
        RetentionRule teaching = retention.add(new RetentionRule.Draft("teaching", Basis.STUDY_DATE,
                3652, null, null, "teaching", true), false, "admin");
        RetentionRule both = retention.add(new RetentionRule.Draft("both", Basis.STUDY_DATE, 3652,
                "CT", "WARD_MR", "teaching", true), false, "admin");
        clock.advance(Duration.ofDays(8));
        assertThat(retention.preview(fromOldCt.id()).studies()).extracting(AgedStudy::studyInstanceUid)
                .containsExactly("1.2.826.41.1", "1.2.826.41.2");
        assertThat(retention.preview(teaching.id()).studies()).extracting(AgedStudy::studyInstanceUid)
                .containsExactly("1.2.826.41.1"); // 41.3 has the label but is too young
        assertThat(retention.preview(both.id()).studies()).isEmpty(); // 41.1 is teaching CT, but not from WARD_MR

        // kept with the rule, and read back by a store started again
        assertThat(new Retention(index, trash, RuleBook.directory(tmp.resolve("rules")), clock).rule(both.id()))
                .isEqualTo(both).satisfies(r -> assertThat(r.sourceAe()).isEqualTo("WARD_MR"));
        assertThatThrownBy(() -> retention.add(new RetentionRule.Draft("bad", Basis.RECEIVED, 5, null,
                "A\\B", null, true), false, "a")).isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.getMessage()).contains("sourceAe"));
        assertThatThrownBy(() -> retention.add(new RetentionRule.Draft("bad", Basis.RECEIVED, 5, null,
                "ABCDEFGHIJKLMNOPQ", null, true), false, "a")).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> retention.add(new RetentionRule.Draft("bad", Basis.RECEIVED, 5, null,
                null, "no spaces", true), false, "a")).isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.getMessage()).contains("label"));
    }

    @Test
    void rulesAreKeptInTheirBookAndRemoved() {
        RetentionRule rule = retention.add(draft("CT", Basis.RECEIVED, 30, "CT", true), false, "admin");
        Retention again = new Retention(index, trash, RuleBook.directory(tmp.resolve("rules")), clock);
        assertThat(again.rules()).containsExactly(rule);
        again.remove(rule.id());
        assertThat(retention.rules()).isEmpty();
        assertThatThrownBy(() -> retention.remove(rule.id())).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> retention.add(draft("bad", Basis.RECEIVED, 0, null, true), false, "a"))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
        assertThatThrownBy(() -> retention.add(draft("bad", Basis.RECEIVED, 5, "ct; drop", true), false, "a"))
                .isInstanceOf(StoreException.class);
    }
}
