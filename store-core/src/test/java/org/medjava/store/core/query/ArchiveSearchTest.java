package org.medjava.store.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.IndexFiles;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.TestDicom;

/** Archive queries over an H2 index: keys of the levels above, paging across parents, one row per SOP instance. */
class ArchiveSearchTest {

    @TempDir
    static Path dir;
    static DicomIndex index;
    static ArchiveSearch search;

    /** Two patients; P1 has two studies (CT and MR), P2 one; the first CT is stored twice. */
    @BeforeAll
    static void fill() {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        search = new ArchiveSearch(index);
        put("upload/ct1.dcm", TestDicom.ct().patient("P1", "Doe^John").study("1.9.1", "20200105")
                .series("1.9.1.1", "CT", 1).instance("1.9.1.1.1", 1));
        put("dicom/P1/1.9.1/1.9.1.1/1.9.1.1.1.dcm", TestDicom.ct().patient("P1", "Doe^John").study("1.9.1",
                "20200105").series("1.9.1.1", "CT", 1).instance("1.9.1.1.1", 1));
        put("dicom/P1/1.9.1/1.9.1.1/1.9.1.1.2.dcm", TestDicom.ct().patient("P1", "Doe^John").study("1.9.1",
                "20200105").series("1.9.1.1", "CT", 1).instance("1.9.1.1.2", 2));
        put("dicom/P1/1.9.2/1.9.2.1/1.9.2.1.1.dcm", TestDicom.mr().patient("P1", "Doe^John").study("1.9.2",
                "20210301").series("1.9.2.1", "MR", 1).instance("1.9.2.1.1", 1));
        put("dicom/P2/1.9.3/1.9.3.1/1.9.3.1.1.dcm", TestDicom.mr().patient("P2", "Roe^Jane").study("1.9.3",
                "20210302").series("1.9.3.1", "MR", 4).instance("1.9.3.1.1", 1));
    }

    private static void put(String path, TestDicom dicom) {
        IndexFiles.put(index, path, dicom.writeTo(dir.resolve("images").resolve(path)));
    }

    @AfterAll
    static void close() {
        index.close();
    }

    private static ArchiveQuery q(QueryLevel level, String... keyValues) {
        Map<String, String> keys = new java.util.HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            keys.put(keyValues[i], keyValues[i + 1]);
        }
        return ArchiveQuery.of(level, keys);
    }

    @Test
    void studiesMatchPatientAndStudyKeys() {
        assertThat(search.studies(q(QueryLevel.STUDY, "PatientName", "Doe*", "StudyDate", "20210101-")))
                .extracting(s -> s.studyInstanceUid()).containsExactly("1.9.2");
    }

    @Test
    void studiesComeNewestFirstOrInTheOrderAsked() {
        assertThat(search.studies(q(QueryLevel.STUDY))).extracting(s -> s.studyInstanceUid())
                .containsExactly("1.9.3", "1.9.2", "1.9.1");
        assertThat(search.studies(ordered("StudyDate"))).extracting(s -> s.studyInstanceUid())
                .containsExactly("1.9.1", "1.9.2", "1.9.3");
        // by name, then newest first within a patient; pages follow the same order
        assertThat(search.studies(ordered("-PatientName", "-StudyDate"))).extracting(s -> s.studyInstanceUid())
                .containsExactly("1.9.3", "1.9.2", "1.9.1");
        assertThat(search.studies(new ArchiveQuery(QueryLevel.STUDY, Map.of(), false, 1, 1,
                List.of(StudyQuery.Order.parse("PatientName"), StudyQuery.Order.parse("StudyDate")))))
                .extracting(s -> s.studyInstanceUid()).containsExactly("1.9.2");
    }

    private static ArchiveQuery ordered(String... keys) {
        return new ArchiveQuery(QueryLevel.STUDY, Map.of(), false, 0, 0,
                java.util.Arrays.stream(keys).map(StudyQuery.Order::parse).toList());
    }

    @Test
    void seriesMayBeSelectedByKeysOfTheLevelsAbove() {
        assertThat(search.series(q(QueryLevel.SERIES, "PatientID", "P1"))).extracting(s -> s.seriesInstanceUid())
                .containsExactlyInAnyOrder("1.9.1.1", "1.9.2.1");
        assertThat(search.series(q(QueryLevel.SERIES, "StudyInstanceUID", "1.9.1\\1.9.3", "Modality", "MR")))
                .extracting(s -> s.seriesInstanceUid()).containsExactly("1.9.3.1");
        assertThat(search.series(q(QueryLevel.SERIES))).hasSize(3);
    }

    @Test
    void instancesAreOneRowPerSopInstancePreferringTheNetworkCopy() {
        var rows = search.instances(q(QueryLevel.IMAGE, "StudyInstanceUID", "1.9.1"));
        assertThat(rows).extracting(InstanceSummary::sopInstanceUid).containsExactly("1.9.1.1.1", "1.9.1.1.2");
        assertThat(rows.get(0).path()).startsWith("dicom/");
        assertThat(search.instances(q(QueryLevel.IMAGE, "PatientID", "P2", "SeriesNumber", "4")))
                .extracting(InstanceSummary::sopInstanceUid).containsExactly("1.9.3.1.1");
    }

    @Test
    void pagesAcrossParents() {
        ArchiveQuery all = q(QueryLevel.IMAGE, "PatientID", "P*");
        assertThat(search.instances(all)).hasSize(4);
        ArchiveQuery page = new ArchiveQuery(QueryLevel.IMAGE, all.keys(), false, 1, 2);
        assertThat(search.instances(page)).hasSize(2);
        ArchiveQuery studies = new ArchiveQuery(QueryLevel.STUDY, Map.of(), false, 2, 5);
        assertThat(search.studies(studies)).hasSize(1);
    }

    @Test
    void pagesOfEveryInstanceCountEachSopInstanceOnceAndAgreeWithTheCounts() {
        List<String> paged = new java.util.ArrayList<>();
        for (int offset = 0; offset < 10; offset++) {
            var page = search.instances(new ArchiveQuery(QueryLevel.IMAGE, Map.of(), false, offset, 1));
            if (page.isEmpty()) {
                break;
            }
            assertThat(page).hasSize(1);
            paged.add(page.get(0).sopInstanceUid());
        }
        assertThat(paged).containsExactlyInAnyOrder("1.9.1.1.1", "1.9.1.1.2", "1.9.2.1.1", "1.9.3.1.1");
        for (var study : search.studies(q(QueryLevel.STUDY))) {
            assertThat(study.numberOfStudyRelatedInstances()).as(study.studyInstanceUid()).isEqualTo(search
                    .instances(q(QueryLevel.IMAGE, "StudyInstanceUID", study.studyInstanceUid())).size());
        }
    }

    @Test
    void invalidKeysAreRefused() {
        assertThatThrownBy(() -> search.studies(q(QueryLevel.STUDY, "StudyInstanceUID", "1.9.*")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> search.studies(q(QueryLevel.STUDY, "StudyDate", "2021-")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> QueryLevel.validateKey("Colour", "red")).hasMessageContaining("Colour");
    }
}
