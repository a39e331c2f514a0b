package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.storage.ObjectStorage;

/**
 * What {@link DicomIndex} does, whatever the database: run against embedded H2 ({@link DicomIndexH2Test}) and a
 * real PostgreSQL ({@link DicomIndexPostgresTest}). Each test gets a fresh, empty database.
 */
abstract class DicomIndexContract {
    static final String EXPLICIT_LE = "1.2.840.10008.1.2.1";

    @TempDir
    Path tmp;

    IndexDatabase database;
    DicomIndex index;

    /** A new, empty database (each call a different one). */
    abstract IndexDatabase newDatabase();

    @BeforeEach
    void openIndex() {
        database = newDatabase();
        index = new DicomIndex(database);
    }

    @AfterEach
    void closeIndex() throws SQLException {
        if (index != null) {
            index.close();
        }
        assertCountsKept(); // whatever the test wrote
    }

    /**
     * Counting by the rule, in SQL of its own: each series' rows that are the current file of their SOP Instance
     * UID (no other row of it comes before: the network's copy under dicom/ first, then by path).
     */
    private static final String COUNTED = "select s.series_uid, s.instance_count, (select count(*) from mj_instance i"
            + " where i.series_uid = s.series_uid and not exists (select 1 from mj_instance j"
            + " where j.sop_instance_uid = i.sop_instance_uid and ((j.store_path like 'dicom/%'"
            + " and i.store_path not like 'dicom/%') or ((j.store_path like 'dicom/%') = (i.store_path like 'dicom/%')"
            + " and j.store_path < i.store_path)))) from mj_series s";

    /** Every series' kept count (NumberOfSeriesRelatedInstances) is what counting its rows gives. */
    void assertCountsKept() throws SQLException {
        java.util.Map<String, Long> kept = new java.util.TreeMap<>();
        java.util.Map<String, Long> counted = new java.util.TreeMap<>();
        try (Connection c = DriverManager.getConnection(database.url(), database.user(), database.password());
                Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery(COUNTED)) {
            while (rs.next()) {
                kept.put(rs.getString(1), rs.getObject(2) == null ? null : rs.getLong(2));
                counted.put(rs.getString(1), rs.getLong(3));
            }
        }
        assertThat(kept).as("kept instance counts by series").isEqualTo(counted);
    }

    // ------------------------------------------------------------------------------------------------ audit trail

    @Test
    void keepsAuditRecordsSearchableByStudyPatientUserTypeAndTime() {
        java.time.Instant t0 = java.time.Instant.parse("2026-01-02T10:00:00Z");
        org.medjava.store.core.audit.Caller alice = org.medjava.store.core.audit.Caller.account("alice", "10.0.0.5");
        index.recordAudit(List.of(
                org.medjava.store.core.audit.AuditRecord.of(org.medjava.store.core.audit.AuditEvents.accessed(alice,
                        "front", t0, "1.2.3", "P1", "2 instances read"), "MEDJAVA@test"),
                org.medjava.store.core.audit.AuditRecord.of(org.medjava.store.core.audit.AuditEvents.accessed(
                        org.medjava.store.core.audit.Caller.account("bob", null), "dicomweb", t0.plusSeconds(60),
                        "1.2.3", "P1", "1 instances read"), "MEDJAVA@test"),
                org.medjava.store.core.audit.AuditRecord.of(org.medjava.store.core.audit.AuditEvents.login(alice, true,
                        null), "MEDJAVA@test")));

        List<org.medjava.store.core.audit.AuditRecord> study = index.audit(new org.medjava.store.core.audit
                .AuditQuery("1.2.3", null, null, null, null, 0, 10));
        assertThat(study).extracting(org.medjava.store.core.audit.AuditRecord::user).containsExactly("bob", "alice");
        assertThat(study.get(1)).satisfies(r -> {
            assertThat(r.time()).isEqualTo(t0);
            assertThat(r.type()).isEqualTo("read");
            assertThat(r.address()).isEqualTo("10.0.0.5");
            assertThat(r.door()).isEqualTo("front");
            assertThat(r.patientId()).isEqualTo("P1");
            assertThat(r.description()).isEqualTo("2 instances read");
            assertThat(r.seq()).isPositive();
        });
        assertThat(index.audit(new org.medjava.store.core.audit.AuditQuery(null, "P1", "alice", "read", null, 0, 10)))
                .hasSize(1);
        assertThat(index.audit(new org.medjava.store.core.audit.AuditQuery(null, null, "alice", "login", null, 0, 10)))
                .singleElement().extracting(org.medjava.store.core.audit.AuditRecord::studyInstanceUid).isNull();
        assertThat(index.audit(new org.medjava.store.core.audit.AuditQuery("1.2.3", null, null, null,
                t0.plusSeconds(30), 0, 10))).extracting(org.medjava.store.core.audit.AuditRecord::user)
                .containsExactly("bob");
        assertThat(index.audit(new org.medjava.store.core.audit.AuditQuery("1.2.3", null, null, null, null,
                study.get(0).seq(), 10))).extracting(org.medjava.store.core.audit.AuditRecord::user)
                .containsExactly("alice");
        assertThat(index.audit(new org.medjava.store.core.audit.AuditQuery(null, null, null, null, null, 0, 2)))
                .hasSize(2);
    }

    // ------------------------------------------------------------------------------------------------ put, query

    @Test
    void keepsEachInstancesHeaderAsDicomJson() throws IOException {
        Path f = TestDicom.ct().patient("PJ", "Json^Jane").instance("1.2.826.1.9.1", 1).writeTo(tmp.resolve("j.dcm"));
        IndexFiles.put(index, "json/1.dcm", f);

        String json = index.metadata("json/1.dcm").orElseThrow();
        assertThat(json).startsWith("{").contains("\"00080018\":{\"vr\":\"UI\",\"Value\":[\"1.2.826.1.9.1\"]}",
                "\"Alphabetic\":\"Json^Jane\"").doesNotContain("7FE00010");
        assertThat(index.metadata(java.util.List.of("json/1.dcm", "none.dcm"))).containsOnlyKeys("json/1.dcm");
        assertThat(index.metadata("none.dcm")).isEmpty();
    }

    @Test
    void putFromAParsedDataSetIndexesWhatReadingTheStoredFileDoes() throws Exception {
        Path images = Files.createDirectories(tmp.resolve("images"));
        Path f = TestDicom.ct().patient("PE", "Entry^Eve").study("1.2.826.1.8", "20200105")
                .series("1.2.826.1.8.1", "CT", 3).instance("1.2.826.1.8.1.1", 7)
                .writeTo(images.resolve("file/1.dcm"));
        com.pixelmed.dicom.AttributeList whole = new com.pixelmed.dicom.AttributeList();
        whole.setDecompressPixelData(false);
        whole.read(f.toString()); // pixel data included: the entry must leave it out, as a file's header does

        index.rebuild(storage(images)); // reads the file's header from the storage, up to Pixel Data
        InstanceSummary fromFile = index.instance("file/1.dcm").orElseThrow();
        InstanceSummary fromEntry = index.put(IndexEntry.of("entry/1.dcm", whole), 1234, 5678);

        assertThat(fromEntry).usingRecursiveComparison().ignoringFields("path", "size", "lastModified", "indexedAt")
                .isEqualTo(fromFile);
        assertThat(fromEntry.size()).isEqualTo(1234);
        assertThat(fromEntry.lastModified().toEpochMilli()).isEqualTo(5678);
        assertThat(index.instance("entry/1.dcm")).contains(fromEntry);
        assertThat(index.metadata("entry/1.dcm")).isEqualTo(index.metadata("file/1.dcm"));
        assertThat(index.metadata("entry/1.dcm").orElseThrow()).doesNotContain("7FE00010");
        assertThat(index.pathsOf("1.2.826.1.8.1.1")).containsExactly("entry/1.dcm", "file/1.dcm");
        assertThat(index.pathsOf("1.2.826.1.8.1.2")).isEmpty();
    }

    @Test
    void concurrentPutsAreCommittedTogetherAndEachCallerGetsItsOwnInstance() throws Exception {
        int threads = 8;
        List<IndexEntry> entries = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            com.pixelmed.dicom.AttributeList list = new com.pixelmed.dicom.AttributeList();
            list.read(TestDicom.ct().patient("PG", "Group^Commit").study("1.2.826.32.1", "20200105")
                    .series("1.2.826.32.1." + (t % 2), t % 2 == 0 ? "CT" : "MR", t % 2)
                    .instance("1.2.826.32.1.9." + t, t).writeTo(tmp.resolve("g" + t + ".dcm")).toString());
            entries.add(IndexEntry.of("g/" + t + ".dcm", list));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<InstanceSummary>> done = new ArrayList<>();
            for (IndexEntry entry : entries) {
                done.add(pool.submit(() -> {
                    go.await();
                    return index.put(entry, 100, 200);
                }));
            }
            go.countDown();
            for (int t = 0; t < threads; t++) {
                InstanceSummary mine = done.get(t).get(60, TimeUnit.SECONDS);
                assertThat(mine.path()).isEqualTo("g/" + t + ".dcm");
                assertThat(mine.sopInstanceUid()).isEqualTo("1.2.826.32.1.9." + t);
                assertThat(mine.modality()).isEqualTo(t % 2 == 0 ? "CT" : "MR");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 2, threads));
        assertThat(index.studies(StudyQuery.all()).get(0).modalitiesInStudy()).containsExactly("CT", "MR");
    }

    @Test
    void putThenQueryStudiesSeriesInstancesAndPatients() throws IOException {
        Path f1 = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.1.1", "20200105")
                .set("AccessionNumber", "ACC1").set("StudyDescription", "Head CT").set("StudyTime", "101112")
                .series("1.2.826.1.1.1", "CT", 1).instance("1.2.826.1.1.1.1", 1).writeTo(tmp.resolve("f1.dcm"));
        Path f2 = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.1.1", "20200105")
                .set("StudyTime", "101112").series("1.2.826.1.1.1", "CT", 1).instance("1.2.826.1.1.1.2", 2).writeTo(tmp.resolve("f2.dcm"));
        Path f3 = TestDicom.mr().patient("P1", "Doe^John").study("1.2.826.1.1", "20200105")
                .set("StudyTime", "101112").series("1.2.826.1.1.2", "MR", 2).instance("1.2.826.1.1.2.1", 1).writeTo(tmp.resolve("f3.dcm"));

        InstanceSummary put = IndexFiles.put(index, "ct/head/2.dcm", f2);
        IndexFiles.put(index, "/ct/head/1.dcm", f1);
        IndexFiles.put(index, "mr/1.dcm", f3);

        assertThat(put.path()).isEqualTo("ct/head/2.dcm");
        assertThat(put.sopInstanceUid()).isEqualTo("1.2.826.1.1.1.2");
        assertThat(put.sopClassUid()).isEqualTo("1.2.840.10008.5.1.4.1.1.2");
        assertThat(put.transferSyntaxUid()).isEqualTo(EXPLICIT_LE);
        assertThat(put.rows()).isEqualTo(128);
        assertThat(put.columns()).isEqualTo(128);
        assertThat(put.bitsAllocated()).isEqualTo(16);
        assertThat(put.photometricInterpretation()).isEqualTo("MONOCHROME2");
        assertThat(put.instanceNumber()).isEqualTo(2);
        assertThat(put.size()).isEqualTo(Files.size(f2));
        assertThat(put.lastModified().toEpochMilli()).isEqualTo(Files.getLastModifiedTime(f2).toMillis());
        assertThat(put.indexedAt()).isNotNull();
        assertThat(put.patientName()).isEqualTo("Doe^John");
        assertThat(put.modality()).isEqualTo("CT");

        List<StudySummary> studies = index.studies(StudyQuery.all());
        assertThat(studies).hasSize(1);
        StudySummary study = studies.get(0);
        assertThat(study.studyInstanceUid()).isEqualTo("1.2.826.1.1");
        assertThat(study.patientId()).isEqualTo("P1");
        assertThat(study.patientName()).isEqualTo("Doe^John");
        assertThat(study.studyDate()).isEqualTo("20200105");
        assertThat(study.studyTime()).isEqualTo("101112");
        assertThat(study.accessionNumber()).isEqualTo("ACC1");
        assertThat(study.studyDescription()).isEqualTo("Head CT");
        assertThat(study.modalitiesInStudy()).containsExactly("CT", "MR");
        assertThat(study.numberOfStudyRelatedSeries()).isEqualTo(2);
        assertThat(study.numberOfStudyRelatedInstances()).isEqualTo(3);

        List<SeriesSummary> series = index.series("1.2.826.1.1");
        assertThat(series).extracting(SeriesSummary::seriesInstanceUid).containsExactly("1.2.826.1.1.1",
                "1.2.826.1.1.2");
        assertThat(series.get(0).modality()).isEqualTo("CT");
        assertThat(series.get(0).seriesNumber()).isEqualTo(1);
        assertThat(series.get(0).numberOfSeriesRelatedInstances()).isEqualTo(2);
        assertThat(series.get(0).directories()).containsExactly("ct/head");
        assertThat(series.get(0).studyInstanceUid()).isEqualTo("1.2.826.1.1");
        assertThat(series.get(1).modality()).isEqualTo("MR");
        assertThat(series.get(1).numberOfSeriesRelatedInstances()).isEqualTo(1);
        assertThat(series.get(1).directories()).containsExactly("mr");

        assertThat(index.instances("1.2.826.1.1.1")).extracting(InstanceSummary::path)
                .containsExactly("ct/head/1.dcm", "ct/head/2.dcm");
        assertThat(index.instances("1.2.826.1.1.2")).extracting(InstanceSummary::sopInstanceUid)
                .containsExactly("1.2.826.1.1.2.1");
        assertThat(index.series("no.such.study")).isEmpty();

        List<PatientSummary> patients = index.patients(PatientQuery.all());
        assertThat(patients).hasSize(1);
        assertThat(patients.get(0).patientId()).isEqualTo("P1");
        assertThat(patients.get(0).numberOfPatientRelatedStudies()).isEqualTo(1);
        assertThat(patients.get(0).numberOfPatientRelatedSeries()).isEqualTo(2);
        assertThat(patients.get(0).numberOfPatientRelatedInstances()).isEqualTo(3);

        assertThat(index.count()).isEqualTo(3);
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 2, 3));
        assertThat(index.storedBytes()).isEqualTo(Files.size(f1) + Files.size(f2) + Files.size(f3));
        index.ping(); // the health check's trivial query answers on this database
        assertThat(index.instance("ct/head/1.dcm")).get().extracting(InstanceSummary::sopInstanceUid)
                .isEqualTo("1.2.826.1.1.1.1");
        assertThat(index.instance("ct/head/none.dcm")).isEmpty();
    }

    @Test
    void rePuttingAPathReplacesWhatWasIndexedThere() {
        Path first = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.2.1", "20200105")
                .series("1.2.826.2.1.1", "CT", 1).instance("1.2.826.2.1.1.1", 1).writeTo(tmp.resolve("a.dcm"));
        Path second = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.2.1", "20200105")
                .set("StudyDescription", "corrected").series("1.2.826.2.1.1", "CT", 1)
                .instance("1.2.826.2.1.1.9", 7).writeTo(tmp.resolve("b.dcm"));
        IndexFiles.put(index, "x/slice.dcm", first);
        IndexFiles.put(index, "x/slice.dcm", second);

        assertThat(index.count()).isEqualTo(1);
        InstanceSummary instance = index.instance("x/slice.dcm").orElseThrow();
        assertThat(instance.sopInstanceUid()).isEqualTo("1.2.826.2.1.1.9");
        assertThat(instance.instanceNumber()).isEqualTo(7);
        assertThat(index.studies(StudyQuery.all())).singleElement()
                .extracting(StudySummary::studyDescription).isEqualTo("corrected");
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 1));
    }

    @Test
    void theSameSopInstanceAtTwoPathsIsOneInstanceInTwoFiles() {
        Path file = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.3.1", "20200105")
                .series("1.2.826.3.1.1", "CT", 1).instance("1.2.826.3.1.1.1", 1).writeTo(tmp.resolve("a.dcm"));
        IndexFiles.put(index, "b/copy.dcm", file);
        IndexFiles.put(index, "a/one.dcm", file);
        assertThat(index.pathsOf("1.2.826.3.1.1.1")).containsExactly("a/one.dcm", "b/copy.dcm");
        assertThat(index.instances(null, InstanceQuery.all().sopInstanceUid("1.2.826.3.1.1.1")))
                .extracting(InstanceSummary::path).containsExactly("a/one.dcm");
        assertThat(index.series("1.2.826.3.1")).singleElement().satisfies(s -> {
            assertThat(s.numberOfSeriesRelatedInstances()).isEqualTo(1);
            assertThat(s.directories()).containsExactly("a", "b"); // where its files are
        });
        assertThat(index.instancesIn("b")).containsOnlyKeys("copy.dcm"); // a directory lists files
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 1));
    }

    // ---------------------------------------------------------------- one SOP Instance UID held by several files

    private static final String COPIES_STUDY = "1.2.826.40.1";
    private static final String COPIES_CT = COPIES_STUDY + ".1";
    private static final String COPIES_MR = COPIES_STUDY + ".2";
    private static final String NETWORK_DIR = "dicom/P40/" + COPIES_STUDY + "/" + COPIES_CT + "/";

    /**
     * Six instances in two series of one study, most of them held by several files (the network's copy under
     * dicom/, uploads elsewhere), written under {@code images} and indexed in a scrambled order; returns the current
     * file of each SOP Instance UID by the rule: the copy under dicom/, else the first by path.
     */
    private java.util.Map<String, String> putCopies(Path images) {
        java.util.Map<String, List<String>> files = new java.util.LinkedHashMap<>();
        files.put("1", List.of("up/y/a1.dcm", NETWORK_DIR + "a1.dcm", "up/x/a1.dcm"));
        files.put("2", List.of("up/y/a2.dcm", "up/x/a2.dcm"));
        files.put("3", List.of("up/x/a3.dcm"));
        files.put("4", List.of("up/z/a4.dcm", "up/x/a4.dcm", "up/y/a4.dcm"));
        files.put("5", List.of(NETWORK_DIR + "a5.dcm", "up/a5.dcm"));
        files.put("b", List.of("up/y/b1.dcm", "up/x/b1.dcm"));
        java.util.Map<String, String> current = new java.util.LinkedHashMap<>();
        List<String[]> puts = new ArrayList<>();
        int n = 0;
        for (var e : files.entrySet()) {
            boolean ct = !e.getKey().equals("b");
            String sop = ct ? COPIES_CT + "." + e.getKey() : COPIES_MR + ".1";
            TestDicom dicom = (ct ? TestDicom.ct() : TestDicom.mr()).patient("P40", "Copies^Carl")
                    .study(COPIES_STUDY, "20240401").series(ct ? COPIES_CT : COPIES_MR, ct ? "CT" : "MR", ct ? 1 : 2)
                    .instance(sop, ct ? Integer.parseInt(e.getKey()) : 1);
            for (String path : e.getValue()) {
                dicom.writeTo(images.resolve(path));
                puts.add(new String[] {path, sop});
            }
            current.put(sop, e.getValue().stream().filter(p -> p.startsWith("dicom/")).findFirst()
                    .orElse(e.getValue().stream().sorted().findFirst().orElseThrow()));
        }
        java.util.Collections.shuffle(puts, new java.util.Random(40));
        for (String[] put : puts) {
            IndexFiles.put(index, put[0], images.resolve(put[0]));
        }
        return current;
    }

    @Test
    void aSopInstanceHeldBySeveralFilesIsOneInstanceInEveryCountAndList() throws IOException {
        Path images = Files.createDirectories(tmp.resolve("images"));
        java.util.Map<String, String> current = putCopies(images);

        List<InstanceSummary> ct = index.instances(COPIES_CT);
        assertThat(ct).extracting(InstanceSummary::path).containsExactly(current.get(COPIES_CT + ".1"),
                current.get(COPIES_CT + ".2"), current.get(COPIES_CT + ".3"), current.get(COPIES_CT + ".4"),
                current.get(COPIES_CT + ".5"));
        List<InstanceSummary> all = index.instances(null, InstanceQuery.all());
        assertThat(all).extracting(InstanceSummary::path).containsExactlyInAnyOrderElementsOf(current.values());
        assertThat(index.series(COPIES_STUDY)).extracting(SeriesSummary::numberOfSeriesRelatedInstances)
                .containsExactly((long) ct.size(), (long) index.instances(COPIES_MR).size());
        assertThat(index.studies(StudyQuery.all())).singleElement()
                .extracting(StudySummary::numberOfStudyRelatedInstances).isEqualTo((long) all.size());
        assertThat(index.patients(PatientQuery.all())).singleElement()
                .extracting(PatientSummary::numberOfPatientRelatedInstances).isEqualTo((long) all.size());
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 2, 6));
        assertThat(index.count()).isEqualTo(6);

        // a rebuild from the files gives the same instances
        try (DicomIndex rebuilt = new DicomIndex(newDatabase()); ObjectStorage storage = storage(images)) {
            assertThat(rebuilt.rebuild(storage).indexed()).isEqualTo(13);
            assertSameAnswers(rebuilt, index);
            assertThat(rebuilt.instances(null, InstanceQuery.all())).extracting(InstanceSummary::path)
                    .containsExactlyElementsOf(all.stream().map(InstanceSummary::path).toList());
        }

        // removing the current file makes the next one current; removing the last file removes the instance
        assertThat(index.remove(NETWORK_DIR + "a1.dcm")).isTrue();
        assertThat(index.instances(null, InstanceQuery.all().sopInstanceUid(COPIES_CT + ".1")))
                .extracting(InstanceSummary::path).containsExactly("up/x/a1.dcm");
        assertThat(index.remove("up/x/a3.dcm")).isTrue();
        assertThat(index.series(COPIES_STUDY)).extracting(SeriesSummary::numberOfSeriesRelatedInstances)
                .containsExactly(4L, 1L);
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 2, 5));
    }

    @Test
    void keptInstanceCountsEqualCountingAfterEveryKindOfWrite() throws Exception {
        Path images = Files.createDirectories(tmp.resolve("images"));
        putCopies(images); // copies at several paths, the network's among them
        assertCountsKept();
        assertCountsAnswered(6);

        // the same SOP Instance UID in another series (a corrected copy): one instance, counted where its current
        // file is: the network's copy first, then the first by path
        String sop = COPIES_CT + ".2"; // up/x/a2.dcm, up/y/a2.dcm
        TestDicom elsewhere = TestDicom.mr().patient("P40", "Copies^Carl").study(COPIES_STUDY, "20240401")
                .series(COPIES_MR, "MR", 2).instance(sop, 2);
        IndexFiles.put(index, "up/w/a2.dcm", elsewhere.writeTo(images.resolve("up/w/a2.dcm"))); // first by path now
        assertCountsKept();
        assertThat(index.series(COPIES_STUDY)).extracting(SeriesSummary::numberOfSeriesRelatedInstances)
                .containsExactly(4L, 2L);
        IndexFiles.put(index, NETWORK_DIR + "a2.dcm", TestDicom.ct().patient("P40", "Copies^Carl")
                .study(COPIES_STUDY, "20240401").series(COPIES_CT, "CT", 1).instance(sop, 2)
                .writeTo(images.resolve(NETWORK_DIR + "a2.dcm"))); // the network's copy wins
        assertCountsKept();
        assertThat(index.series(COPIES_STUDY)).extracting(SeriesSummary::numberOfSeriesRelatedInstances)
                .containsExactly(5L, 1L);
        assertCountsAnswered(6);

        // an overwrite that moves an instance across series, and one that changes its SOP Instance UID
        IndexFiles.put(index, "up/x/a3.dcm", TestDicom.mr().patient("P40", "Copies^Carl")
                .study(COPIES_STUDY, "20240401").series(COPIES_MR, "MR", 2).instance(COPIES_CT + ".3", 3)
                .writeTo(images.resolve("moved.dcm")));
        assertCountsKept();
        IndexFiles.put(index, "up/z/a4.dcm", TestDicom.ct().patient("P40", "Copies^Carl")
                .study(COPIES_STUDY, "20240401").series(COPIES_CT, "CT", 1).instance(COPIES_CT + ".9", 9)
                .writeTo(images.resolve("renumbered.dcm")));
        assertCountsKept();
        assertCountsAnswered(7);

        // removals: the current file (the next one counts), the last file, a directory, a file held in the trash
        assertThat(index.remove(NETWORK_DIR + "a2.dcm")).isTrue();
        assertCountsKept();
        assertThat(index.remove("up/x/a3.dcm")).isTrue();
        assertCountsKept();
        assertThat(index.removeUnder("up/y")).isEqualTo(4); // copies only: the instances stay
        assertCountsKept();
        assertCountsAnswered(6);
        java.time.Instant now = java.time.Instant.now();
        index.hold(new TrashedFile("up/w/a2.dcm", "v-1", TrashedFile.VERSION, COPIES_STUDY, COPIES_MR, sop, 1, 1,
                now, now.plusSeconds(60), "tester", "a previous version"));
        assertCountsKept();
        assertCountsAnswered(6);

        // the trash: an instance, a series, a restore, a study
        trash(TrashScope.instance(COPIES_STUDY, COPIES_CT, COPIES_CT + ".9"));
        assertCountsKept();
        Trashed mr = trash(TrashScope.series(COPIES_STUDY, COPIES_MR));
        assertCountsKept();
        assertCountsAnswered(4);
        try (ObjectStorage storage = storage(images)) {
            for (TrashedFile file : index.trashed(mr.trashId(), 100)) {
                index.restore(storage, file);
                assertCountsKept();
            }
            assertCountsAnswered(5);
            trash(TrashScope.study(COPIES_STUDY));
            assertCountsKept();
            assertCountsAnswered(0);

            // a rebuild indexes every file again (the trashed ones stay there) and removes the stale entries
            IndexFiles.put(index, "gone.dcm", images.resolve("moved.dcm"));
            index.rebuild(storage);
            assertCountsKept();
        }
        index.removeUnder("");
        assertCountsKept();
        assertCountsAnswered(0);
    }

    @Test
    void seriesIndexedBeforeCountsWereKeptAreCountedWhenTheIndexOpensAndMeanwhileByTheirRows() throws Exception {
        putCopies(Files.createDirectories(tmp.resolve("images")));
        try (Connection c = DriverManager.getConnection(database.url(), database.user(), database.password());
                Statement s = c.createStatement()) {
            s.execute("update mj_series set instance_count = null"); // as an older version left them
        }
        assertCountsAnswered(6); // counted
        index.close();
        index = new DicomIndex(database);
        assertCountsKept();
        assertCountsAnswered(6);
    }

    /** What the queries answer: {@code n} instances, and the numbers of every level sum up to it. */
    private void assertCountsAnswered(long n) {
        assertThat(index.count()).isEqualTo(n);
        assertThat(index.counts().instances()).isEqualTo(n);
        List<StudySummary> studies = index.studies(StudyQuery.all());
        assertThat(studies.stream().mapToLong(StudySummary::numberOfStudyRelatedInstances).sum()).isEqualTo(n);
        assertThat(index.patients(PatientQuery.all()).stream()
                .mapToLong(PatientSummary::numberOfPatientRelatedInstances).sum()).isEqualTo(n);
        for (StudySummary study : studies) {
            List<SeriesSummary> series = index.series(study.studyInstanceUid());
            assertThat(series.stream().mapToLong(SeriesSummary::numberOfSeriesRelatedInstances).sum())
                    .isEqualTo(study.numberOfStudyRelatedInstances());
            for (SeriesSummary one : series) {
                assertThat((long) index.instances(one.seriesInstanceUid()).size())
                        .isEqualTo(one.numberOfSeriesRelatedInstances());
            }
        }
    }

    @Test
    void pagesOfInstancesHeldBySeveralFilesAreFullAndNeverRepeat() throws IOException {
        putCopies(Files.createDirectories(tmp.resolve("images")));
        for (String series : new String[] {null, COPIES_CT}) {
            List<String> unpaged = index.instances(series, InstanceQuery.all()).stream()
                    .map(InstanceSummary::sopInstanceUid).toList();
            assertThat(unpaged).doesNotHaveDuplicates().hasSize(series == null ? 6 : 5);
            for (int limit = 1; limit <= 4; limit++) {
                List<String> paged = new ArrayList<>();
                for (int offset = 0; ; offset += limit) {
                    List<InstanceSummary> page = index.instances(series,
                            InstanceQuery.all().offset(offset).limit(limit));
                    if (page.isEmpty()) {
                        break;
                    }
                    page.forEach(i -> paged.add(i.sopInstanceUid()));
                    assertThat(page.size()).as("page at %d of %d in %s", offset, limit, series)
                            .isEqualTo(Math.min(limit, unpaged.size() - offset));
                }
                assertThat(paged).as("limit %d in %s", limit, series).containsExactlyElementsOf(unpaged);
            }
        }
    }

    @Test
    void labelsAreAddedOnceRemovedAndCounted() {
        assertThat(index.addLabel("1.2.826.9.1", "cardiology")).isTrue();
        assertThat(index.addLabel("1.2.826.9.1", "cardiology")).as("already there").isFalse();
        assertThat(index.addLabel("1.2.826.9.1", "research-2")).isTrue();
        assertThat(index.addLabel("1.2.826.9.2", "research-2")).isTrue();

        assertThat(index.labels("1.2.826.9.1")).containsExactly("cardiology", "research-2");
        assertThat(index.labels("1.2.826.9.3")).isEmpty();
        assertThat(index.labelCounts()).containsExactly(Map.entry("cardiology", 1L), Map.entry("research-2", 2L));

        assertThat(index.removeLabel("1.2.826.9.1", "cardiology")).isTrue();
        assertThat(index.removeLabel("1.2.826.9.1", "cardiology")).isFalse();
        assertThat(index.labels(List.of("1.2.826.9.1", "1.2.826.9.2"))).containsOnlyKeys("1.2.826.9.1",
                "1.2.826.9.2");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> index.addLabel("1.2.826.9.1", "no spaces"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aQueryVisibleToSomeLabelsFindsAndCountsOnlyTheirStudies() {
        // patient P7 has a cardiology study (2 instances) and an unlabelled one; P8 a research study
        IndexFiles.put(index, "v/1.dcm", TestDicom.ct().patient("P7", "Seven^S").study("1.2.826.7.1", "20200101")
                .series("1.2.826.7.1.1", "CT", 1).instance("1.2.826.7.1.1.1", 1).writeTo(tmp.resolve("v1.dcm")));
        IndexFiles.put(index, "v/2.dcm", TestDicom.ct().patient("P7", "Seven^S").study("1.2.826.7.1", "20200101")
                .series("1.2.826.7.1.1", "CT", 1).instance("1.2.826.7.1.1.2", 2).writeTo(tmp.resolve("v2.dcm")));
        IndexFiles.put(index, "v/3.dcm", TestDicom.mr().patient("P7", "Seven^S").study("1.2.826.7.2", "20210101")
                .series("1.2.826.7.2.1", "MR", 1).instance("1.2.826.7.2.1.1", 1).writeTo(tmp.resolve("v3.dcm")));
        IndexFiles.put(index, "v/4.dcm", TestDicom.ct().patient("P8", "Eight^E").study("1.2.826.8.1", "20220101")
                .series("1.2.826.8.1.1", "CT", 1).instance("1.2.826.8.1.1.1", 1).writeTo(tmp.resolve("v4.dcm")));
        index.addLabel("1.2.826.7.1", "cardiology");
        index.addLabel("1.2.826.8.1", "research");
        Visibility cardiology = Visibility.labels(java.util.Set.of("cardiology"));

        assertThat(index.studies(StudyQuery.all().visibleTo(cardiology))).extracting(StudySummary::studyInstanceUid)
                .containsExactly("1.2.826.7.1");
        assertThat(index.studies(StudyQuery.all().studyInstanceUid("1.2.826.7.2").visibleTo(cardiology)))
                .as("a study outside the caller's labels is not found by its UID").isEmpty();
        List<PatientSummary> patients = index.patients(PatientQuery.all().visibleTo(cardiology));
        assertThat(patients).extracting(PatientSummary::patientId).containsExactly("P7");
        assertThat(patients.get(0).numberOfPatientRelatedStudies()).as("the unlabelled study is not counted")
                .isEqualTo(1);
        assertThat(patients.get(0).numberOfPatientRelatedSeries()).isEqualTo(1);
        assertThat(patients.get(0).numberOfPatientRelatedInstances()).isEqualTo(2);
        assertThat(index.series("1.2.826.7.2", SeriesQuery.all().visibleTo(cardiology))).isEmpty();
        assertThat(index.series("1.2.826.7.1", SeriesQuery.all().visibleTo(cardiology))).hasSize(1);
        assertThat(index.instances("1.2.826.7.2.1", InstanceQuery.all().visibleTo(cardiology))).isEmpty();
        assertThat(index.instances("1.2.826.7.1.1", InstanceQuery.all().visibleTo(cardiology))).hasSize(2);

        Visibility none = Visibility.labels(java.util.Set.of());
        assertThat(index.studies(StudyQuery.all().visibleTo(none))).isEmpty();
        assertThat(index.patients(PatientQuery.all().visibleTo(none))).isEmpty();
        assertThat(index.studies(StudyQuery.all().visibleTo(Visibility.labels(java.util.Set.of("cardiology",
                "research"))))).hasSize(2);
        assertThat(index.studies(StudyQuery.all())).as("everything by default").hasSize(3);
    }

    @Test
    void aQueryVisibleToOneStudySeesThatStudyAloneWhateverItsLabels() {
        IndexFiles.put(index, "w/1.dcm", TestDicom.ct().patient("P9", "Nine^N").study("1.2.826.9.5", "20200101")
                .series("1.2.826.9.5.1", "CT", 1).instance("1.2.826.9.5.1.1", 1).writeTo(tmp.resolve("w1.dcm")));
        IndexFiles.put(index, "w/2.dcm", TestDicom.mr().patient("P9", "Nine^N").study("1.2.826.9.6", "20210101")
                .series("1.2.826.9.6.1", "MR", 1).instance("1.2.826.9.6.1.1", 1).writeTo(tmp.resolve("w2.dcm")));
        index.addLabel("1.2.826.9.6", "cardiology");
        Visibility one = Visibility.study("1.2.826.9.5");

        assertThat(index.studies(StudyQuery.all().visibleTo(one))).extracting(StudySummary::studyInstanceUid)
                .containsExactly("1.2.826.9.5");
        assertThat(index.studies(StudyQuery.all().studyInstanceUid("1.2.826.9.6").visibleTo(one))).isEmpty();
        List<PatientSummary> patients = index.patients(PatientQuery.all().visibleTo(one));
        assertThat(patients).singleElement().satisfies(p -> {
            assertThat(p.numberOfPatientRelatedStudies()).as("the patient's other study is not counted").isEqualTo(1);
            assertThat(p.numberOfPatientRelatedInstances()).isEqualTo(1);
        });
        assertThat(index.changes(0, 100, one)).extracting(Change::studyInstanceUid).containsExactly("1.2.826.9.5");
        assertThat(index.changes(0, 100, Visibility.labels(java.util.Set.of("cardiology"))))
                .extracting(Change::studyInstanceUid).containsExactly("1.2.826.9.6");
        assertThat(index.changes(0, 100, Visibility.labels(java.util.Set.of()))).isEmpty();
        assertThat(index.changes(0, 100)).hasSize(2);
        assertThat(index.series("1.2.826.9.6", SeriesQuery.all().visibleTo(one))).isEmpty();
        assertThat(index.instances("1.2.826.9.5.1", InstanceQuery.all().visibleTo(one))).hasSize(1);
        assertThat(index.instances("1.2.826.9.6.1", InstanceQuery.all().visibleTo(one))).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Visibility.study("1' or '1' = '1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shareLinksAreRecordedListedCountedAndRevokedOnce() {
        java.time.Instant t = java.time.Instant.parse("2026-01-01T10:00:00Z");
        index.addShare(new Share("s-one", "1.2.826.9.5", "alice", t, t.plusSeconds(3600), null, null, "tumour board",
                0, null));
        index.addShare(new Share("s-two", "1.2.826.9.6", "bob", t.plusSeconds(60), t.plusSeconds(7200), null, null,
                "", 0, null));

        Share one = index.share("s-one").orElseThrow();
        assertThat(one.studyUid()).isEqualTo("1.2.826.9.5");
        assertThat(one.note()).isEqualTo("tumour board");
        assertThat(one.live(t.plusSeconds(10))).isTrue();
        assertThat(one.live(t.plusSeconds(3600))).as("expired").isFalse();
        assertThat(index.share("nothing")).isEmpty();
        assertThat(index.shares(null, null, 10)).extracting(Share::id).containsExactly("s-two", "s-one");
        assertThat(index.shares("1.2.826.9.5", null, 10)).extracting(Share::id).containsExactly("s-one");
        assertThat(index.shares(null, "bob", 10)).extracting(Share::id).containsExactly("s-two");

        index.shareOpened("s-one", t.plusSeconds(20));
        index.shareOpened("s-one", t.plusSeconds(30));
        assertThat(index.share("s-one").orElseThrow()).satisfies(s -> {
            assertThat(s.opens()).isEqualTo(2);
            assertThat(s.lastOpen()).isEqualTo(t.plusSeconds(30));
        });

        assertThat(index.revokeShare("s-one", "admin", t.plusSeconds(40))).isTrue();
        assertThat(index.revokeShare("s-one", "admin", t.plusSeconds(50))).as("once").isFalse();
        assertThat(index.revokeShare("s-two", "admin", t.plusSeconds(7200))).as("expired already").isFalse();
        Share revoked = index.share("s-one").orElseThrow();
        assertThat(revoked.revoked()).isEqualTo(t.plusSeconds(40));
        assertThat(revoked.revokedBy()).isEqualTo("admin");
        assertThat(revoked.live(t.plusSeconds(41))).isFalse();
    }

    @Test
    void movingAnInstanceToAnotherSeriesStudyAndPatientLeavesNoOrphans() {
        Path before = TestDicom.ct().patient("PA", "Alpha^A").study("1.2.826.4.1", "20200105")
                .series("1.2.826.4.1.1", "CT", 1).instance("1.2.826.4.1.1.1", 1).writeTo(tmp.resolve("a.dcm"));
        Path after = TestDicom.mr().patient("PB", "Beta^B").study("1.2.826.4.2", "20210105")
                .series("1.2.826.4.2.1", "MR", 1).instance("1.2.826.4.1.1.1", 1).writeTo(tmp.resolve("b.dcm"));
        IndexFiles.put(index, "p/1.dcm", before);
        IndexFiles.put(index, "p/1.dcm", after);

        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 1));
        assertThat(index.studies(StudyQuery.all())).extracting(StudySummary::studyInstanceUid)
                .containsExactly("1.2.826.4.2");
        assertThat(index.series("1.2.826.4.1")).isEmpty();
        assertThat(index.patients(PatientQuery.all())).extracting(PatientSummary::patientId).containsExactly("PB");
    }

    @Test
    void movingAnInstanceToAnotherSeriesOfTheSameStudyUpdatesModalitiesInStudy() {
        Path ct = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.5.1", "20200105")
                .series("1.2.826.5.1.1", "CT", 1).instance("1.2.826.5.1.1.1", 1).writeTo(tmp.resolve("a.dcm"));
        Path mr = TestDicom.mr().patient("P1", "Doe^John").study("1.2.826.5.1", "20200105")
                .series("1.2.826.5.1.2", "MR", 2).instance("1.2.826.5.1.1.1", 1).writeTo(tmp.resolve("b.dcm"));
        IndexFiles.put(index, "s/1.dcm", ct);
        assertThat(index.studies(StudyQuery.all()).get(0).modalitiesInStudy()).containsExactly("CT");
        IndexFiles.put(index, "s/1.dcm", mr);
        assertThat(index.series("1.2.826.5.1")).extracting(SeriesSummary::seriesInstanceUid)
                .containsExactly("1.2.826.5.1.2");
        assertThat(index.studies(StudyQuery.all()).get(0).modalitiesInStudy()).containsExactly("MR");
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 1));
    }

    @Test
    void aSeriesThatChangesStudyTakesItsInstancesAlongAndTheEmptyStudyGoes() {
        Path a1 = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.6.1", "20200105")
                .series("1.2.826.6.9", "CT", 1).instance("1.2.826.6.9.1", 1).writeTo(tmp.resolve("a1.dcm"));
        Path a2 = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.6.1", "20200105")
                .series("1.2.826.6.9", "CT", 1).instance("1.2.826.6.9.2", 2).writeTo(tmp.resolve("a2.dcm"));
        Path b = TestDicom.ct().patient("P2", "Roe^Jane").study("1.2.826.6.2", "20200106")
                .series("1.2.826.6.9", "CT", 1).instance("1.2.826.6.9.2", 2).writeTo(tmp.resolve("b.dcm"));
        IndexFiles.put(index, "s/1.dcm", a1);
        IndexFiles.put(index, "s/2.dcm", a2);
        // the series now claims another study: its UID is unique, so it moves there
        IndexFiles.put(index, "s/2.dcm", b);
        assertThat(index.studies(StudyQuery.all())).extracting(StudySummary::studyInstanceUid)
                .containsExactly("1.2.826.6.2");
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 2));
    }

    // --------------------------------------------------------------------------------------------------- remove

    @Test
    void removeDeletesTheSeriesStudyAndPatientLeftEmpty() {
        Path ct1 = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.7.1", "20200105")
                .series("1.2.826.7.1.1", "CT", 1).instance("1.2.826.7.1.1.1", 1).writeTo(tmp.resolve("1.dcm"));
        Path ct2 = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.7.1", "20200105")
                .series("1.2.826.7.1.1", "CT", 1).instance("1.2.826.7.1.1.2", 2).writeTo(tmp.resolve("2.dcm"));
        Path mr = TestDicom.mr().patient("P1", "Doe^John").study("1.2.826.7.1", "20200105")
                .series("1.2.826.7.1.2", "MR", 2).instance("1.2.826.7.1.2.1", 1).writeTo(tmp.resolve("3.dcm"));
        IndexFiles.put(index, "d/1.dcm", ct1);
        IndexFiles.put(index, "d/2.dcm", ct2);
        IndexFiles.put(index, "d/3.dcm", mr);

        assertThat(index.remove("d/3.dcm")).isTrue();
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 2));
        assertThat(index.studies(StudyQuery.all()).get(0).modalitiesInStudy()).containsExactly("CT");
        assertThat(index.remove("d/3.dcm")).isFalse();
        assertThat(index.remove("d/1.dcm")).isTrue();
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 1));
        assertThat(index.remove("/d/2.dcm")).isTrue();
        assertThat(index.counts()).isEqualTo(new IndexCounts(0, 0, 0, 0));
        assertThat(index.studies(StudyQuery.all())).isEmpty();
        assertThat(index.patients(PatientQuery.all())).isEmpty();
    }

    @Test
    void removeUnderRemovesADirectoryTreeAndNothingBeside() {
        String[] paths = {"a/b/1.dcm", "a/b/2.dcm", "a/b/c/3.dcm", "a/4.dcm", "ab/5.dcm", "a_b/6.dcm", "axb/7.dcm",
            "a%/8.dcm", "a%b/9.dcm"};
        for (int n = 0; n < paths.length; n++) {
            Path file = TestDicom.ct().patient("P" + n, "Patient^" + n).study("1.2.826.8." + n, "20200105")
                    .series("1.2.826.8." + n + ".1", "CT", 1).instance("1.2.826.8." + n + ".1.1", 1)
                    .writeTo(tmp.resolve(n + ".dcm"));
            IndexFiles.put(index, paths[n], file);
        }
        assertThat(index.removeUnder("a/b/")).isEqualTo(3);
        assertThat(index.removeUnder("a_b")).isEqualTo(1); // '_' is no wildcard
        assertThat(index.removeUnder("/a%")).isEqualTo(1); // nor '%'
        assertThat(index.removeUnder("a")).isEqualTo(1);
        assertThat(index.removeUnder("nothing/here")).isZero();
        assertThat(index.instancesIn("ab")).containsOnlyKeys("5.dcm");
        assertThat(index.instancesIn("axb")).containsOnlyKeys("7.dcm");
        assertThat(index.instancesIn("a%b")).containsOnlyKeys("9.dcm");
        assertThat(index.counts()).isEqualTo(new IndexCounts(3, 3, 3, 3));
        assertThat(index.removeUnder("")).isEqualTo(3);
        assertThat(index.counts()).isEqualTo(new IndexCounts(0, 0, 0, 0));
    }

    // ----------------------------------------------------------------------------------------- non-DICOM, broken

    @Test
    void aNonDicomFileOverADicomOneRemovesTheEntry() throws IOException {
        Path images = Files.createDirectories(tmp.resolve("images"));
        Path dicom = TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.9.1", "20200105")
                .series("1.2.826.9.1.1", "CT", 1).instance("1.2.826.9.1.1.1", 1).writeTo(images.resolve("img/x"));
        IndexFiles.put(index, "img/x", dicom);
        Files.move(gif(tmp.resolve("x.gif")), dicom, StandardCopyOption.REPLACE_EXISTING);
        RebuildReport report = index.rebuild(storage(images));
        assertThat(report.skipped()).isEqualTo(1);
        assertThat(report.removed()).isEqualTo(1);
        assertThat(index.instance("img/x")).isEmpty();
        assertThat(index.counts()).isEqualTo(new IndexCounts(0, 0, 0, 0));
    }

    @Test
    void aBrokenDicomFileFailsWithAClearMessageAndLeavesNoStaleEntry() throws IOException {
        Path images = Files.createDirectories(tmp.resolve("images"));
        Path dicom = TestDicom.ct().patient("P1", "Secret^Name").study("1.2.826.10.1", "20200105")
                .series("1.2.826.10.1.1", "CT", 1).instance("1.2.826.10.1.1.1", 1)
                .writeTo(images.resolve("img/x.dcm"));
        IndexFiles.put(index, "img/x.dcm", dicom);
        IndexFiles.put(index, "img/y.dcm", dicom); // its file is missing from the storage
        Path broken = brokenDicom(tmp.resolve("broken.dcm"));
        assertThatThrownBy(() -> IndexFiles.entry("img/x.dcm", broken)).isInstanceOf(IndexException.class)
                .hasMessageContaining("img/x.dcm").hasMessageContaining("StudyInstanceUID")
                .hasMessageNotContaining("Secret");

        brokenDicom(dicom);
        RebuildReport report = index.rebuild(storage(images));
        assertThat(report.failed()).containsOnlyKeys("img/x.dcm");
        assertThat(report.failed().get("img/x.dcm")).contains("damaged or truncated").doesNotContain("Secret");
        assertThat(report.removed()).isEqualTo(2);
        assertThat(index.instance("img/x.dcm")).isEmpty();
        assertThat(index.instance("img/y.dcm")).isEmpty();
        assertThat(index.counts()).isEqualTo(new IndexCounts(0, 0, 0, 0));
    }

    @Test
    void aDeeplyNestedObjectIsReportedAndTheRebuildGoesOn() throws IOException {
        Path images = Files.createDirectories(tmp.resolve("images"));
        TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.11.1", "20200105")
                .series("1.2.826.11.1.1", "CT", 1).instance("1.2.826.11.1.1.1", 1)
                .writeTo(images.resolve("img/good.dcm"));
        Files.createDirectories(images.resolve("img"));
        Files.write(images.resolve("img/deep.dcm"), org.medjava.filter.testkit.NestedDicom.part10(5000,
                org.medjava.filter.testkit.NestedDicom.Syntax.EXPLICIT_LE, true, "1.2.826.11.2"));

        RebuildReport report = index.rebuild(storage(images));

        assertThat(report.indexed()).isEqualTo(1);
        assertThat(report.failed()).containsOnlyKeys("img/deep.dcm");
        assertThat(report.failed().get("img/deep.dcm")).isEqualTo(
                "not a readable DICOM file: DICOM sequence nesting deeper than 64 levels");
        assertThat(index.instance("img/good.dcm")).isPresent();
    }

    @Test
    void invalidStorePathsAreRefused() {
        Path file = TestDicom.ct().writeTo(tmp.resolve("a.dcm"));
        for (String bad : new String[] {"", "/", "dir/", "../x.dcm", "a/../x.dcm", "a//x.dcm", "./x.dcm"}) {
            assertThatThrownBy(() -> IndexFiles.put(index, bad, file)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> index.instancesIn("a/../b")).isInstanceOf(IllegalArgumentException.class);
    }

    // ------------------------------------------------------------------------------------------------- rebuild

    @Test
    void rebuildFromTheFilesGivesTheSameAnswersAsIncrementalPuts() throws IOException {
        Path images = Files.createDirectories(tmp.resolve("images"));
        TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.11.1", "20200105").set("AccessionNumber", "A1")
                .series("1.2.826.11.1.1", "CT", 1).instance("1.2.826.11.1.1.1", 1).writeTo(images.resolve("ct/s1/1.dcm"));
        TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.11.1", "20200105").set("AccessionNumber", "A1")
                .series("1.2.826.11.1.1", "CT", 1).instance("1.2.826.11.1.1.2", 2).writeTo(images.resolve("ct/s1/2.dcm"));
        TestDicom.mr().patient("P1", "Doe^John").study("1.2.826.11.1", "20200105").set("AccessionNumber", "A1")
                .series("1.2.826.11.1.2", "MR", 2).instance("1.2.826.11.1.2.1", 1).writeTo(images.resolve("ct/s2/1.dcm"));
        TestDicom.mr().patient("P2", "Roe^Jane").study("1.2.826.11.2", "20210105")
                .series("1.2.826.11.2.1", "MR", 1).instance("1.2.826.11.2.1.1", 1).writeTo(images.resolve("mr/x"));
        gif(Files.createDirectories(images.resolve("pics")).resolve("logo.gif"));
        Files.writeString(images.resolve("readme.txt"), "not an image\n", StandardCharsets.UTF_8);
        // hidden: an upload in progress and a hidden directory, both DICOM, both ignored
        TestDicom.ct().patient("P9", "Hidden^One").study("1.2.826.11.9", "20200105")
                .series("1.2.826.11.9.1", "CT", 1).instance("1.2.826.11.9.1.1", 1)
                .writeTo(images.resolve("ct/s1/.upload-1.tmp"));
        TestDicom.ct().patient("P9", "Hidden^One").study("1.2.826.11.9", "20200105")
                .series("1.2.826.11.9.1", "CT", 1).instance("1.2.826.11.9.1.2", 2)
                .writeTo(images.resolve(".trash/old.dcm"));
        brokenDicom(Files.createDirectories(images.resolve("broken")).resolve("bad.dcm"));

        for (String path : List.of("ct/s1/1.dcm", "ct/s1/2.dcm", "ct/s2/1.dcm", "mr/x")) {
            IndexFiles.put(index, path, images.resolve(path));
        }
        try (DicomIndex rebuilt = new DicomIndex(newDatabase()); ObjectStorage storage = storage(images)) {
            RebuildReport report = rebuilt.rebuild(storage);
            assertThat(report.indexed()).isEqualTo(4);
            assertThat(report.skipped()).isEqualTo(2);
            assertThat(report.failed()).containsOnlyKeys("broken/bad.dcm");
            assertThat(report.failed().get("broken/bad.dcm")).contains("damaged or truncated");
            assertThat(report.removed()).isZero();
            assertSameAnswers(rebuilt, index);

            // a stale entry (its file is gone) is removed; a file that became broken leaves the index
            IndexFiles.put(rebuilt, "gone/y.dcm", images.resolve("ct/s1/1.dcm"));
            brokenDicom(images.resolve("ct/s2/1.dcm"));
            RebuildReport again = rebuilt.rebuild(storage);
            assertThat(again.indexed()).isEqualTo(3);
            assertThat(again.failed()).containsOnlyKeys("broken/bad.dcm", "ct/s2/1.dcm");
            assertThat(again.removed()).isEqualTo(2);
            assertThat(rebuilt.instance("gone/y.dcm")).isEmpty();
            assertThat(rebuilt.instance("ct/s2/1.dcm")).isEmpty();
            assertThat(rebuilt.counts()).isEqualTo(new IndexCounts(2, 2, 2, 3));
            assertThat(rebuilt.studies(StudyQuery.all()).get(1).modalitiesInStudy()).containsExactly("CT");
        }
    }

    @Test
    void rebuildFailsWhenTheObjectsCannotBeListed() {
        ObjectStorage unreadable = (ObjectStorage) Proxy.newProxyInstance(ObjectStorage.class.getClassLoader(),
                new Class<?>[] {ObjectStorage.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "walk" -> throw new NoSuchFileException("/data/none");
                    case "describe" -> "files in /data/none";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        assertThatThrownBy(() -> index.rebuild(unreadable)).isInstanceOf(IndexException.class)
                .hasMessageContaining("cannot rebuild the DICOM index: cannot list files in /data/none");
    }

    /** The objects in the directory {@code root}, as the store keeps them. */
    static ObjectStorage storage(Path root) throws IOException {
        return new LocalFileStorage(root);
    }

    private static void assertSameAnswers(DicomIndex actual, DicomIndex expected) {
        assertThat(actual.counts()).isEqualTo(expected.counts());
        assertThat(actual.patients(PatientQuery.all())).isEqualTo(expected.patients(PatientQuery.all()));
        List<StudySummary> studies = expected.studies(StudyQuery.all());
        assertThat(actual.studies(StudyQuery.all())).isEqualTo(studies);
        for (StudySummary study : studies) {
            List<SeriesSummary> series = expected.series(study.studyInstanceUid());
            assertThat(actual.series(study.studyInstanceUid())).isEqualTo(series);
            for (SeriesSummary s : series) {
                assertThat(actual.instances(s.seriesInstanceUid()))
                        .usingRecursiveFieldByFieldElementComparatorIgnoringFields("indexedAt")
                        .isEqualTo(expected.instances(s.seriesInstanceUid()));
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ matching

    /** Six studies of five patients, in a dataset for the matching tests. */
    private void putMatchingDataset() {
        put("S1", TestDicom.ct().patient("P1", "Doe^John").study("1.2.826.20.1", "20200105")
                .set("AccessionNumber", "ACC1").set("StudyDescription", "Head CT").set("StudyTime", "081500")
                .series("1.2.826.20.1.1", "CT", 1).instance("1.2.826.20.1.1.1", 1));
        put("S2", TestDicom.mr().patient("P1", "Doe^John").study("1.2.826.20.2", "20210310")
                .set("AccessionNumber", "ACC2").set("StudyTime", "143000")
                .series("1.2.826.20.2.1", "MR", 1).instance("1.2.826.20.2.1.1", 1));
        put("S3", TestDicom.ct().patient("P2", "Doering^Jane").study("1.2.826.20.3", "20191231")
                .set("AccessionNumber", "X_1").set("PatientBirthDate", "19700101")
                .series("1.2.826.20.3.1", "CT", 3).instance("1.2.826.20.3.1.1", 1));
        put("S4", TestDicom.ct().patient("P3", "O'Brien^Anna").study("1.2.826.20.4", "20220101")
                .set("AccessionNumber", "X%1").set("PatientBirthDate", "19851224")
                .series("1.2.826.20.4.1", "US", 1).instance("1.2.826.20.4.1.1", 1));
        put("S5", TestDicom.mr().patient("P4", "Müller^Hans").study("1.2.826.20.5", "")
                .series("1.2.826.20.5.1", "MR", 1).instance("1.2.826.20.5.1.1", 1));
        put("S6", TestDicom.ct().patient("P5", "doe^jim").study("1.2.826.20.6", "20200601")
                .series("1.2.826.20.6.1", "CT", 1).instance("1.2.826.20.6.1.1", 1));
        // a second series in S1, MR, with more instances
        for (int n = 1; n <= 3; n++) {
            put("S1-mr-" + n, TestDicom.mr().patient("P1", "Doe^John").study("1.2.826.20.1", "20200105")
                    .set("StudyTime", "081500").series("1.2.826.20.1.2", "MR", 2).instance("1.2.826.20.1.2." + n, 4 - n));
        }
    }

    // ------------------------------------------------------------------------------------------------ ready metadata

    @Test
    void readyMetadataIsServedUntilAWriteChangesItsSeriesOrStudy() {
        String study = "1.2.826.34.7";
        for (int n = 1; n <= 2; n++) {
            put("R-" + n, TestDicom.ct().patient("P7", "Ready^Seven").study(study, "20260101")
                    .series(study + "." + n, "CT", n).instance(study + "." + n + ".1", 1));
        }
        ReadyMetadata.Level series = ReadyMetadata.Level.SERIES;
        ReadyMetadata.Level whole = ReadyMetadata.Level.STUDY;
        byte[] bytes = new byte[70_000]; // larger than a page, as a real one is
        new java.util.Random(34).nextBytes(bytes);
        java.util.function.BiConsumer<ReadyMetadata.Level, String> keep = (level, uid) -> index.keepReadyMetadata(
                new ReadyMetadata(level, uid, study, "P7", 1, index.metadataVersion(level, uid), 9, bytes), "b");
        keep.accept(series, study + ".1");
        keep.accept(series, study + ".2");
        keep.accept(whole, study);
        keep.accept(whole, study); // kept again in place of the first
        assertThat(index.readyMetadata(series, study + ".1", "b")).get().satisfies(r -> {
            assertThat(r.gzip()).isEqualTo(bytes);
            assertThat(r.version()).isPositive();
            assertThat(r.patientId()).isEqualTo("P7");
        });
        assertThat(index.readyMetadata(series, study + ".1", "other base")).isEmpty();
        assertThat(index.readyMetadata(whole, study + ".1", "b")).isEmpty();

        put("R-3", TestDicom.ct().patient("P7", "Ready^Seven").study(study, "20260101").series(study + ".1", "CT", 1)
                .instance(study + ".1.2", 2));
        assertThat(index.readyMetadata(series, study + ".1", "b")).isEmpty();
        assertThat(index.readyMetadata(whole, study, "b")).isEmpty();
        assertThat(index.readyMetadata(series, study + ".2", "b")).isPresent(); // another series of the study

        keep.accept(series, study + ".1");
        assertThat(index.readyMetadata(series, study + ".1", "b")).isPresent();
        index.trash(TrashScope.series(study, study + ".2"), "t1", "tester", "wrong", java.time.Instant.now(),
                java.time.Instant.now());
        assertThat(index.readyMetadata(series, study + ".2", "b")).isEmpty();
        assertThat(index.readyMetadata(series, study + ".1", "b")).isPresent();
        assertThat(index.remove("m/R-3.dcm")).isTrue();
        assertThat(index.readyMetadata(series, study + ".1", "b")).isEmpty();
    }

    private void put(String name, TestDicom dicom) {
        IndexFiles.put(index, "m/" + name + ".dcm", dicom.writeTo(tmp.resolve(name + ".dcm")));
    }

    /** The studies matching {@code query}, by a short name ("S1"...). */
    private List<String> studies(StudyQuery query) {
        return index.studies(query).stream().map(s -> "S" + s.studyInstanceUid().substring("1.2.826.20.".length()))
                .toList();
    }

    @Test
    void studiesAreOrderedByStudyDateNewestFirstWithUndatedOnesLast() {
        putMatchingDataset();
        assertThat(studies(StudyQuery.all())).containsExactly("S4", "S2", "S6", "S1", "S3", "S5");
        assertThat(index.studies(StudyQuery.all().studyInstanceUid("1.2.826.20.5")).get(0).studyDate()).isNull();
    }

    @Test
    void singleValueAndWildcardMatchingOfNames() {
        putMatchingDataset();
        assertThat(studies(StudyQuery.all().patientName("Doe^John"))).containsExactly("S2", "S1");
        assertThat(studies(StudyQuery.all().patientName("Doe*"))).containsExactly("S2", "S1", "S3");
        assertThat(studies(StudyQuery.all().patientName("Doe^J?hn"))).containsExactly("S2", "S1");
        assertThat(studies(StudyQuery.all().patientName("*^J*"))).containsExactly("S2", "S1", "S3");
        assertThat(studies(StudyQuery.all().patientName("doe*"))).containsExactly("S6");
        assertThat(studies(StudyQuery.all().patientName("DOE^JOHN"))).isEmpty();
        assertThat(studies(StudyQuery.all().patientName("O'Brien^Anna"))).containsExactly("S4");
        assertThat(studies(StudyQuery.all().patientName("Müller^Hans"))).containsExactly("S5");
        assertThat(studies(StudyQuery.all().patientName("*"))).hasSize(6);
        assertThat(studies(StudyQuery.all().patientName(""))).hasSize(6);
    }

    @Test
    void fuzzyNameMatchingIgnoresCase() {
        putMatchingDataset();
        StudyQuery fuzzy = StudyQuery.all().fuzzyNames(true);
        assertThat(studies(fuzzy.patientName("DOE^JOHN"))).containsExactly("S2", "S1");
        assertThat(studies(fuzzy.patientName("doe*"))).containsExactly("S2", "S6", "S1", "S3");
        assertThat(studies(fuzzy.patientName("MÜLLER*"))).containsExactly("S5");
        assertThat(index.patients(PatientQuery.all().fuzzyNames(true).patientName("d?E^*")))
                .extracting(PatientSummary::patientId).containsExactly("P1", "P5"); // "Doe^John" < "doe^jim"
    }

    @Test
    void dateRangeMatching() {
        putMatchingDataset();
        assertThat(studies(StudyQuery.all().studyDate("20200105"))).containsExactly("S1");
        assertThat(studies(StudyQuery.all().studyDate("2020.01.05"))).containsExactly("S1");
        assertThat(studies(StudyQuery.all().studyDate("20200101-20201231"))).containsExactly("S6", "S1");
        assertThat(studies(StudyQuery.all().studyDate("-20200105"))).containsExactly("S1", "S3");
        assertThat(studies(StudyQuery.all().studyDate("20210101-"))).containsExactly("S4", "S2");
        assertThat(studies(StudyQuery.all().studyDate("20200105\\20191231"))).containsExactly("S1", "S3");
        assertThat(studies(StudyQuery.all().with("StudyTime", "0800-0815"))).containsExactly("S1");
        assertThat(studies(StudyQuery.all().with("StudyTime", "1400-"))).containsExactly("S2", "S5"); // MR_small: 185059
        assertThat(studies(StudyQuery.all().with("PatientBirthDate", "19800101-"))).containsExactly("S4");
    }

    @Test
    void uidListMatching() {
        putMatchingDataset();
        assertThat(studies(StudyQuery.all().studyInstanceUid("1.2.826.20.1\\1.2.826.20.3\\9.9.9")))
                .containsExactly("S1", "S3");
        assertThat(index.series(null, SeriesQuery.all().seriesInstanceUid("1.2.826.20.1.2\\1.2.826.20.6.1")))
                .extracting(SeriesSummary::seriesInstanceUid).containsExactly("1.2.826.20.6.1", "1.2.826.20.1.2");
        assertThat(index.instances("1.2.826.20.1.2", InstanceQuery.all().sopInstanceUid("1.2.826.20.1.2.1\\1.2.826.20.1.2.3")))
                .extracting(InstanceSummary::sopInstanceUid).containsExactly("1.2.826.20.1.2.3", "1.2.826.20.1.2.1");
    }

    @Test
    void wildcardCharactersOfSqlAreMatchedLiterally() {
        putMatchingDataset();
        assertThat(studies(StudyQuery.all().accessionNumber("X_1"))).containsExactly("S3");
        assertThat(studies(StudyQuery.all().accessionNumber("X%1"))).containsExactly("S4");
        assertThat(studies(StudyQuery.all().accessionNumber("X_*"))).containsExactly("S3");
        assertThat(studies(StudyQuery.all().accessionNumber("X%*"))).containsExactly("S4");
        assertThat(studies(StudyQuery.all().accessionNumber("X?1"))).containsExactly("S4", "S3");
        assertThat(studies(StudyQuery.all().accessionNumber("ACC*"))).containsExactly("S2", "S1");
        assertThat(studies(StudyQuery.all().studyDescription("Head*"))).containsExactly("S1");
    }

    @Test
    void modalitiesInStudyMatchesAnySeries() {
        putMatchingDataset();
        assertThat(studies(StudyQuery.all().modalitiesInStudy("MR"))).containsExactly("S2", "S1", "S5");
        assertThat(studies(StudyQuery.all().modalitiesInStudy("US\\CT"))).containsExactly("S4", "S6", "S1", "S3");
        StudySummary s1 = index.studies(StudyQuery.all().studyInstanceUid("1.2.826.20.1")).get(0);
        assertThat(s1.modalitiesInStudy()).containsExactly("CT", "MR");
        assertThat(s1.numberOfStudyRelatedSeries()).isEqualTo(2);
        assertThat(s1.numberOfStudyRelatedInstances()).isEqualTo(4);
    }

    @Test
    void combinedKeysLimitAndOffset() {
        putMatchingDataset();
        assertThat(studies(StudyQuery.all().patientId("P1").modalitiesInStudy("CT"))).containsExactly("S1");
        assertThat(studies(StudyQuery.all().limit(2))).containsExactly("S4", "S2");
        assertThat(studies(StudyQuery.all().offset(2).limit(2))).containsExactly("S6", "S1");
        assertThat(studies(StudyQuery.all().offset(5))).containsExactly("S5");
        assertThat(studies(StudyQuery.all().offset(6))).isEmpty();
        assertThat(studies(StudyQuery.all().patientName("Doe*").offset(1).limit(1))).containsExactly("S1");
        assertThat(index.instances("1.2.826.20.1.2", InstanceQuery.all().offset(1).limit(1)))
                .extracting(InstanceSummary::instanceNumber).containsExactly(2);
    }

    @Test
    void seriesAndInstanceLevelMatching() {
        putMatchingDataset();
        assertThat(index.series(null, SeriesQuery.all().modality("CT"))).hasSize(3);
        assertThat(index.series("1.2.826.20.1", SeriesQuery.all().seriesNumber("2")))
                .extracting(SeriesSummary::modality).containsExactly("MR");
        assertThat(index.series("1.2.826.20.1", SeriesQuery.all().modality("M?")))
                .extracting(SeriesSummary::seriesInstanceUid).containsExactly("1.2.826.20.1.2");
        assertThat(index.instances("1.2.826.20.1.2")).extracting(InstanceSummary::instanceNumber)
                .containsExactly(1, 2, 3);
        assertThat(index.instances("1.2.826.20.1.2", InstanceQuery.all().instanceNumber("2\\3")))
                .extracting(InstanceSummary::instanceNumber).containsExactly(2, 3);
        assertThat(index.instances(null, InstanceQuery.all().sopClassUid("1.2.840.10008.5.1.4.1.1.4")))
                .hasSize(5);
    }

    @Test
    void patientLevelQueries() {
        putMatchingDataset();
        assertThat(index.patients(PatientQuery.all())).extracting(PatientSummary::patientId)
                .containsExactly("P1", "P2", "P4", "P3", "P5"); // by name: Doe, Doering, Müller, O'Brien, doe
        assertThat(index.patients(PatientQuery.all().patientName("Doe*"))).extracting(PatientSummary::patientId)
                .containsExactly("P1", "P2");
        PatientSummary p1 = index.patients(PatientQuery.all().patientId("P1")).get(0);
        assertThat(p1.numberOfPatientRelatedStudies()).isEqualTo(2);
        assertThat(p1.numberOfPatientRelatedSeries()).isEqualTo(3);
        assertThat(p1.numberOfPatientRelatedInstances()).isEqualTo(5);
        assertThat(index.patients(PatientQuery.all().patientBirthDate("-19751231")))
                .extracting(PatientSummary::patientId).containsExactly("P2");
    }

    @Test
    void invalidMatchingKeysAreRefused() {
        assertThatThrownBy(() -> index.studies(StudyQuery.all().studyDate("2020*")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("StudyDate");
        assertThatThrownBy(() -> index.studies(StudyQuery.all().studyDate("yesterday")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("StudyDate");
        assertThatThrownBy(() -> index.studies(StudyQuery.all().studyDate("-")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> index.studies(StudyQuery.all().studyInstanceUid("1.2.*")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("StudyInstanceUID");
        assertThatThrownBy(() -> index.series(null, SeriesQuery.all().seriesNumber("one")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SeriesNumber");
        assertThatThrownBy(() -> StudyQuery.all().with("Modality", "CT"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ModalitiesInStudy");
    }

    @Test
    void patientsWithoutAnIdAreToldApartByName() {
        put("A1", TestDicom.ct().patient("", "Anon^One").study("1.2.826.21.1", "20200105")
                .series("1.2.826.21.1.1", "CT", 1).instance("1.2.826.21.1.1.1", 1));
        put("A2", TestDicom.ct().patient("", "Anon^Two").study("1.2.826.21.2", "20200105")
                .series("1.2.826.21.2.1", "CT", 1).instance("1.2.826.21.2.1.1", 1));
        assertThat(index.patients(PatientQuery.all())).extracting(PatientSummary::patientName)
                .containsExactly("Anon^One", "Anon^Two");
        assertThat(index.patients(PatientQuery.all()).get(0).patientId()).isNull();
    }

    // -------------------------------------------------------------------------------------------- concurrency

    @Test
    void concurrentPutsIntoOneNewStudyMakeOneStudy() throws Exception {
        int threads = 4;
        int rounds = 5;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < rounds; round++) {
                String study = "1.2.826.30." + round;
                List<Path> files = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    files.add(TestDicom.ct().patient("PC" + round, "Parallel^" + round).study(study, "20200105")
                            .series(study + ".1", "CT", 1).instance(study + ".1." + t, t)
                            .writeTo(tmp.resolve("c" + round + "-" + t + ".dcm")));
                }
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> done = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int n = t;
                    done.add(pool.submit(() -> {
                        go.await();
                        return IndexFiles.put(index, "c/" + round(study) + "/" + n + ".dcm", files.get(n));
                    }));
                }
                go.countDown();
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
                assertThat(index.studies(StudyQuery.all().studyInstanceUid(study))).singleElement()
                        .satisfies(s -> assertThat(s.numberOfStudyRelatedInstances()).isEqualTo(threads));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(index.counts()).isEqualTo(new IndexCounts(rounds, rounds, rounds, (long) rounds * threads));
    }

    private static String round(String study) {
        return study.substring(study.lastIndexOf('.') + 1);
    }

    @Test
    void readersRunWhileWritersWrite() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Path> files = new ArrayList<>();
            for (int n = 0; n < 20; n++) {
                files.add(TestDicom.ct().patient("PR", "Reader^Writer").study("1.2.826.31.1", "20200105")
                        .series("1.2.826.31.1.1", "CT", 1).instance("1.2.826.31.1.1." + n, n)
                        .writeTo(tmp.resolve("r" + n + ".dcm")));
            }
            Future<?> writer = pool.submit(() -> {
                for (int n = 0; n < files.size(); n++) {
                    IndexFiles.put(index, "r/" + n + ".dcm", files.get(n));
                }
                return null;
            });
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(pool.submit(() -> {
                    while (!writer.isDone()) {
                        List<StudySummary> studies = index.studies(StudyQuery.all());
                        assertThat(studies.size()).isLessThanOrEqualTo(1);
                        index.instancesIn("r");
                    }
                    return null;
                }));
            }
            writer.get(120, TimeUnit.SECONDS);
            for (Future<?> r : readers) {
                r.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(index.instancesIn("r")).hasSize(20);
    }

    // ------------------------------------------------------------------------------------- directory, reopen

    @Test
    void instancesInListsTheDirectChildrenOfOneDirectory() {
        String[] paths = {"ct/head/1.dcm", "ct/head/2.dcm", "ct/head/sub/3.dcm", "ct/4.dcm", "top.dcm"};
        for (int n = 0; n < paths.length; n++) {
            IndexFiles.put(index, paths[n], TestDicom.ct().patient("PD", "Dir^Listing")
                    .study("1.2.826.40.1", "20200105").series("1.2.826.40.1.1", "CT", 1).instance("1.2.826.40.1.1." + n, n + 1)
                    .writeTo(tmp.resolve(n + ".dcm")));
        }
        var head = index.instancesIn("ct/head");
        assertThat(head).containsOnlyKeys("1.dcm", "2.dcm");
        assertThat(head.keySet()).containsExactly("1.dcm", "2.dcm");
        assertThat(head.get("2.dcm").path()).isEqualTo("ct/head/2.dcm");
        assertThat(head.get("2.dcm").patientName()).isEqualTo("Dir^Listing");
        assertThat(head.get("2.dcm").modality()).isEqualTo("CT");
        assertThat(head.get("2.dcm").studyDate()).isEqualTo("20200105");
        assertThat(index.instancesIn("ct/head/")).isEqualTo(head);
        assertThat(index.instancesIn("/ct")).containsOnlyKeys("4.dcm");
        assertThat(index.instancesIn("")).containsOnlyKeys("top.dcm");
        assertThat(index.instancesIn("/")).containsOnlyKeys("top.dcm");
        assertThat(index.instancesIn("nowhere")).isEmpty();
    }

    @Test
    void dataSurvivesCloseAndReopen() {
        put("K1", TestDicom.ct().patient("PK", "Kept^Data").study("1.2.826.50.1", "20200105")
                .series("1.2.826.50.1.1", "CT", 1).instance("1.2.826.50.1.1.1", 1));
        List<StudySummary> before = index.studies(StudyQuery.all());
        index.close();
        index.close(); // idempotent
        assertThatThrownBy(() -> index.count()).isInstanceOf(IllegalStateException.class);

        try (EclipseLinkWarnings warnings = new EclipseLinkWarnings()) {
            index = new DicomIndex(database); // the tables exist: nothing lost, nothing logged
            assertThat(warnings.messages()).isEmpty();
        }
        assertThat(index.studies(StudyQuery.all())).isEqualTo(before);
        put("K2", TestDicom.ct().patient("PK", "Kept^Data").study("1.2.826.50.1", "20200105")
                .series("1.2.826.50.1.1", "CT", 1).instance("1.2.826.50.1.1.2", 2));
        assertThat(index.counts()).isEqualTo(new IndexCounts(1, 1, 1, 2));
    }

    @Test
    void missingColumnsAreAddedWhenTheIndexOpens() throws SQLException {
        put("E1", TestDicom.ct().patient("PE", "Extend^Me").study("1.2.826.51.1", "20200105")
                .series("1.2.826.51.1.1", "CT", 1).instance("1.2.826.51.1.1.1", 1));
        index.close();
        try (Connection c = DriverManager.getConnection(database.url(), database.user(), database.password());
                Statement s = c.createStatement()) {
            s.execute("ALTER TABLE mj_instance DROP COLUMN photometric"); // as if written by an older version
        }
        try (EclipseLinkWarnings warnings = new EclipseLinkWarnings()) {
            index = new DicomIndex(database);
            assertThat(warnings.messages()).isEmpty();
        }
        assertThat(index.instance("m/E1.dcm")).get().extracting(InstanceSummary::photometricInterpretation)
                .isNull();
        put("E1", TestDicom.ct().patient("PE", "Extend^Me").study("1.2.826.51.1", "20200105")
                .series("1.2.826.51.1.1", "CT", 1).instance("1.2.826.51.1.1.1", 1));
        assertThat(index.instance("m/E1.dcm")).get().extracting(InstanceSummary::photometricInterpretation)
                .isEqualTo("MONOCHROME2");
    }

    @Test
    void closedIndexRefusesWork() {
        index.close();
        assertThatThrownBy(() -> index.studies(StudyQuery.all())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> index.remove("a.dcm")).isInstanceOf(IllegalStateException.class);
    }

    /** Collects what EclipseLink logs (through java.util.logging) at WARNING or above, while open. */
    static final class EclipseLinkWarnings extends Handler implements AutoCloseable {
        private final Logger logger = Logger.getLogger("org.eclipse.persistence");
        private final List<String> messages = new CopyOnWriteArrayList<>();

        EclipseLinkWarnings() {
            logger.addHandler(this);
        }

        List<String> messages() {
            return messages;
        }

        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                messages.add(record.getLoggerName() + ": " + record.getMessage()
                        + (record.getThrown() == null ? "" : " " + record.getThrown()));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }

    // ------------------------------------------------------------------------------------- trash, change feed

    /** Two studies on disk and in the index: 1.2.826.21.1 (series .1 with two instances, .2 with one), 1.2.826.21.2. */
    private Path twoStudies() throws IOException {
        Path images = Files.createDirectories(tmp.resolve("images"));
        TestDicom.ct().patient("T1", "Trash^One").study("1.2.826.21.1", "20200105").series("1.2.826.21.1.1", "CT", 1)
                .instance("1.2.826.21.1.1.1", 1).writeTo(images.resolve("t/a1.dcm"));
        TestDicom.ct().patient("T1", "Trash^One").study("1.2.826.21.1", "20200105").series("1.2.826.21.1.1", "CT", 1)
                .instance("1.2.826.21.1.1.2", 2).writeTo(images.resolve("t/a2.dcm"));
        TestDicom.mr().patient("T1", "Trash^One").study("1.2.826.21.1", "20200105").series("1.2.826.21.1.2", "MR", 2)
                .instance("1.2.826.21.1.2.1", 1).writeTo(images.resolve("t/b1.dcm"));
        TestDicom.ct().patient("T2", "Trash^Two").study("1.2.826.21.2", "20210105").series("1.2.826.21.2.1", "CT", 1)
                .instance("1.2.826.21.2.1.1", 1).writeTo(images.resolve("t/c1.dcm"));
        for (String path : List.of("t/a1.dcm", "t/a2.dcm", "t/b1.dcm", "t/c1.dcm")) {
            IndexFiles.put(index, path, images.resolve(path));
        }
        return images;
    }

    private Trashed trash(TrashScope scope) {
        java.time.Instant now = java.time.Instant.now();
        return index.trash(scope, java.util.UUID.randomUUID().toString(), "tester", "test", now,
                now.plusSeconds(3600));
    }

    @Test
    void aStudyMovedToTheTrashLeavesEveryQueryAndIsListedThereFileByFile() throws IOException {
        twoStudies();
        long before = index.lastChange();

        Trashed trashed = trash(TrashScope.study("1.2.826.21.1"));

        assertThat(trashed.instances()).isEqualTo(3);
        assertThat(index.studies(StudyQuery.all())).extracting(StudySummary::studyInstanceUid)
                .containsExactly("1.2.826.21.2");
        assertThat(index.patients(PatientQuery.all())).extracting(PatientSummary::patientId).containsExactly("T2");
        assertThat(index.series("1.2.826.21.1")).isEmpty();
        assertThat(index.instance("t/a1.dcm")).isEmpty();
        assertThat(index.metadata("t/a1.dcm")).isEmpty();
        assertThat(index.metadata("t/c1.dcm")).isPresent();
        assertThat(index.pathsOf("1.2.826.21.1.2.1")).isEmpty();
        assertThat(index.count()).isEqualTo(1);
        assertThat(index.count(TrashScope.study("1.2.826.21.1"))).isZero();
        assertThat(index.trashed(trashed.trashId(), 100)).extracting(TrashedFile::path)
                .containsExactly("t/a1.dcm", "t/a2.dcm", "t/b1.dcm");
        assertThat(index.trashed(null, 100)).allSatisfy(f -> {
            assertThat(f.level()).isEqualTo("STUDY");
            assertThat(f.trashedBy()).isEqualTo("tester");
            assertThat(f.studyInstanceUid()).isEqualTo("1.2.826.21.1");
        });
        assertThat(index.trashMarks()).containsOnlyKeys("t/a1.dcm", "t/a2.dcm", "t/b1.dcm");
        List<Change> deleted = index.changes(before, 100);
        assertThat(deleted).extracting(Change::kind).containsOnly(Change.DELETED).hasSize(3);
        assertThat(deleted).extracting(Change::trashId).containsOnly(trashed.trashId());
        assertThat(deleted).extracting(Change::sopInstanceUid)
                .containsExactlyInAnyOrder("1.2.826.21.1.1.1", "1.2.826.21.1.1.2", "1.2.826.21.1.2.1");
        assertThat(index.trashChanges(0, 100)).isEqualTo(deleted);
        assertThat(index.trashChanges(index.lastChange(), 100)).isEmpty();
    }

    @Test
    void aSeriesOrAnInstanceGoesAloneAndWhatIsLeftStays() throws IOException {
        twoStudies();

        assertThat(trash(TrashScope.instance("1.2.826.21.1", "1.2.826.21.1.1", "1.2.826.21.1.1.2")).instances())
                .isEqualTo(1);
        assertThat(index.instances("1.2.826.21.1.1")).extracting(InstanceSummary::path).containsExactly("t/a1.dcm");
        assertThat(trash(TrashScope.series("1.2.826.21.1", "1.2.826.21.1.2")).instances()).isEqualTo(1);
        assertThat(index.series("1.2.826.21.1")).extracting(SeriesSummary::seriesInstanceUid)
                .containsExactly("1.2.826.21.1.1");
        assertThat(index.studies(StudyQuery.all().studyInstanceUid("1.2.826.21.1")).get(0).modalitiesInStudy())
                .containsExactly("CT");
        // a series named under another study is not that study's: nothing matches
        assertThat(trash(TrashScope.series("1.2.826.21.2", "1.2.826.21.1.1")).instances()).isZero();
        assertThat(index.count()).isEqualTo(2);
    }

    @Test
    void aRestoreIndexesTheTrashedFileAgainAndAPurgeForgetsIt() throws IOException {
        Path images = twoStudies();
        Trashed trashed = trash(TrashScope.study("1.2.826.21.1"));
        long before = index.lastChange();

        try (ObjectStorage storage = storage(images)) {
            List<TrashedFile> files = index.trashed(trashed.trashId(), 100);
            assertThat(index.restore(storage, files.get(0))).isTrue();
            assertThat(index.restore(storage, files.get(1))).isTrue();
            assertThat(index.purged(files.get(2))).isTrue();
            assertThat(index.purged(files.get(2))).isFalse();
        }

        assertThat(index.instances("1.2.826.21.1.1")).extracting(InstanceSummary::path)
                .containsExactly("t/a1.dcm", "t/a2.dcm");
        assertThat(index.metadata("t/a1.dcm")).hasValueSatisfying(json -> assertThat(json).contains("1.2.826.21.1.1.1"));
        assertThat(index.metadata("t/b1.dcm")).isEmpty(); // purged
        assertThat(index.series("1.2.826.21.1")).hasSize(1);
        assertThat(index.trashed(null, 100)).isEmpty();
        assertThat(index.trashMarks()).isEmpty();
        assertThat(index.changes(before, 100)).extracting(Change::kind)
                .containsExactly(Change.RESTORED, Change.RESTORED, Change.PURGED);
    }

    @Test
    void aRebuildLeavesTrashedFilesInTheTrash() throws IOException {
        Path images = twoStudies();
        trash(TrashScope.study("1.2.826.21.1"));

        try (ObjectStorage storage = storage(images)) {
            RebuildReport report = index.rebuild(storage);
            assertThat(report.indexed()).isEqualTo(1);
        }
        assertThat(index.studies(StudyQuery.all())).hasSize(1);
        assertThat(index.trashed(null, 100)).hasSize(3);
    }

    @Test
    void aFileWrittenAtATrashedPathIsIndexedAndItsPredecessorGoesForGoodWhenItIsDeletedInTurn() throws IOException {
        twoStudies();
        trash(TrashScope.study("1.2.826.21.2"));
        Path again = TestDicom.ct().patient("T3", "Trash^Three").study("1.2.826.21.3", "20220105")
                .series("1.2.826.21.3.1", "CT", 1).instance("1.2.826.21.3.1.1", 1).writeTo(tmp.resolve("new.dcm"));
        IndexFiles.put(index, "t/c1.dcm", again);
        assertThat(index.instance("t/c1.dcm")).hasValueSatisfying(
                i -> assertThat(i.sopInstanceUid()).isEqualTo("1.2.826.21.3.1.1"));

        Trashed second = trash(TrashScope.study("1.2.826.21.3"));

        assertThat(second.instances()).isEqualTo(1);
        assertThat(index.trashed(null, 100)).singleElement().satisfies(f -> {
            assertThat(f.trashId()).isEqualTo(second.trashId());
            assertThat(f.studyInstanceUid()).isEqualTo("1.2.826.21.3");
        });
    }

    @Test
    void theChangeFeedNumbersPutsReplacementsAndRemovalsInOrderAndPagesThem() throws IOException {
        Path images = twoStudies();
        IndexFiles.put(index, "t/a1.dcm", images.resolve("t/a1.dcm"));
        index.remove("t/a2.dcm");
        index.removeUnder("t");

        List<Change> all = index.changes(0, 100);
        assertThat(all).extracting(Change::kind).containsExactly(Change.CREATED, Change.CREATED, Change.CREATED,
                Change.CREATED, Change.UPDATED, Change.DELETED, Change.DELETED, Change.DELETED, Change.DELETED);
        assertThat(all).extracting(Change::seq).isSorted().doesNotHaveDuplicates();
        assertThat(all.get(0)).satisfies(c -> {
            assertThat(c.path()).isEqualTo("t/a1.dcm");
            assertThat(c.studyInstanceUid()).isEqualTo("1.2.826.21.1");
            assertThat(c.seriesInstanceUid()).isEqualTo("1.2.826.21.1.1");
            assertThat(c.sopInstanceUid()).isEqualTo("1.2.826.21.1.1.1");
            assertThat(c.trashId()).isNull();
        });
        assertThat(all.get(5).path()).isEqualTo("t/a2.dcm");
        List<Change> page = index.changes(all.get(2).seq(), 3);
        assertThat(page).extracting(Change::seq).containsExactly(all.get(3).seq(), all.get(4).seq(),
                all.get(5).seq());
        assertThat(index.lastChange()).isEqualTo(all.get(8).seq());
        assertThat(index.changes(index.lastChange(), 10)).isEmpty();
    }

    // ------------------------------------------------------------------------------------------------- files

    static Path gif(Path file) throws IOException {
        BufferedImage image = new BufferedImage(2, 2, BufferedImage.TYPE_BYTE_INDEXED);
        ImageIO.write(image, "gif", file.toFile());
        return file;
    }

    /** A file with the DICOM preamble and "DICM", then garbage: not parseable. */
    static Path brokenDicom(Path file) throws IOException {
        byte[] bytes = new byte[600];
        System.arraycopy("DICM".getBytes(StandardCharsets.US_ASCII), 0, bytes, 128, 4);
        for (int i = 132; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 37 + 11);
        }
        Files.write(file, bytes);
        return file;
    }
}
