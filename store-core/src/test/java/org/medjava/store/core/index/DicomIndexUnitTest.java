package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.DicomDictionary;
import jakarta.json.bind.annotation.JsonbProperty;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The parts of the index that need no database. */
class DicomIndexUnitTest {

    /** Names on the wire that are not DICOM keywords. */
    private static final Set<String> NON_DICOM = Set.of("path", "size", "lastModified", "indexedAt", "directories",
            "patients", "studies", "series", "instances", "indexed", "skipped", "failed", "removed", "elapsed");

    @Test
    void resultRecordsCarryDicomKeywordsForJsonB() {
        for (Class<?> type : List.of(PatientSummary.class, StudySummary.class, SeriesSummary.class,
                InstanceSummary.class, IndexCounts.class, RebuildReport.class)) {
            for (RecordComponent c : type.getRecordComponents()) {
                JsonbProperty property = c.getAccessor().getAnnotation(JsonbProperty.class);
                assertThat(property).as(type.getSimpleName() + "." + c.getName()).isNotNull();
                String name = property.value();
                if (!NON_DICOM.contains(name)) {
                    assertThat((Object) DicomDictionary.StandardDictionary.getTagFromName(name))
                            .as(type.getSimpleName() + "." + c.getName() + " → " + name + " is a DICOM keyword")
                            .isNotNull();
                }
            }
        }
        List<String> study = new ArrayList<>();
        for (RecordComponent c : StudySummary.class.getRecordComponents()) {
            study.add(c.getAccessor().getAnnotation(JsonbProperty.class).value());
        }
        assertThat(study).contains("StudyInstanceUID", "PatientName", "ModalitiesInStudy",
                "NumberOfStudyRelatedSeries", "NumberOfStudyRelatedInstances");
    }

    @Test
    void toStringLeavesPatientNamesOut() {
        StudySummary study = new StudySummary("P1", null, "Secret^Name", null, null, "1.2", "20200101", null, null,
                null, null, "Doctor^Who", List.of("CT"), 1, 2);
        InstanceSummary instance = new InstanceSummary("a/b.dcm", "P1", "Secret^Name", "1.2", null, null, "1.2.3",
                "CT", 1, null, "1.2.3.4", null, 1, null, 1, 1, null, 16, null, 10, Instant.EPOCH, Instant.EPOCH);
        PatientSummary patient = new PatientSummary("P1", null, "Secret^Name", null, null, 1, 1, 1);
        assertThat(study.toString()).doesNotContain("Secret", "Doctor").contains("1.2");
        assertThat(instance.toString()).doesNotContain("Secret").contains("a/b.dcm");
        assertThat(patient.toString()).doesNotContain("Secret").contains("P1");
        assertThat(StudyQuery.all().patientName("Secret*").toString()).doesNotContain("Secret")
                .contains("PatientName");
    }

    @Test
    void likePatternsEscapeSqlWildcards() {
        assertThat(Matching.likePattern("Doe*")).isEqualTo("Doe%");
        assertThat(Matching.likePattern("D?e")).isEqualTo("D_e");
        assertThat(Matching.likePattern("100%_a!b*")).isEqualTo("100!%!_a!!b%");
    }

    @Test
    void storePathsAreNormalized() {
        assertThat(StorePaths.file("/ct/head/1.dcm")).isEqualTo("ct/head/1.dcm");
        assertThat(StorePaths.directory("/ct/head/")).isEqualTo("ct/head");
        assertThat(StorePaths.directory("")).isEmpty();
        assertThat(StorePaths.directory(null)).isEmpty();
        assertThat(StorePaths.parentOf("ct/head/1.dcm")).isEqualTo("ct/head");
        assertThat(StorePaths.parentOf("1.dcm")).isEmpty();
        assertThat(StorePaths.nameOf("ct/head/1.dcm")).isEqualTo("1.dcm");
        assertThatThrownBy(() -> StorePaths.file("a/../b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StorePaths.file("x".repeat(1025))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than 1024");
    }

    @Test
    void queriesAreImmutableAndCheckTheirKeywords() {
        StudyQuery all = StudyQuery.all();
        StudyQuery some = all.patientName("Doe*").studyDate("20200101-").limit(10).offset(5).fuzzyNames(true);
        assertThat(all.keys()).isEmpty();
        assertThat(some.keys()).containsOnlyKeys("PatientName", "StudyDate");
        assertThat(some.limit()).isEqualTo(10);
        assertThat(some.offset()).isEqualTo(5);
        assertThat(some.fuzzyNames()).isTrue();
        assertThat(some.with("PatientName", "")).isEqualTo(all.studyDate("20200101-").limit(10).offset(5)
                .fuzzyNames(true));
        assertThat(all.supports("ModalitiesInStudy")).isTrue();
        assertThat(SeriesQuery.all().supports("Modality")).isTrue();
        assertThat(InstanceQuery.all().supportedKeywords()).containsExactly("InstanceNumber", "SOPClassUID",
                "SOPInstanceUID");
        assertThatThrownBy(() -> all.with("Foo", "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Foo").hasMessageContaining("PatientName");
        // invalid keys fail where the query is built (the web layer turns that into 400)
        assertThatThrownBy(() -> all.studyDate("2020*")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("StudyDate");
        assertThatThrownBy(() -> all.with("StudyTime", "25:xx")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> all.studyInstanceUid("1.2\\1.3.*")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SeriesQuery.all().seriesNumber("x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(all.studyDate("20200101-\\-19991231").studyInstanceUid("1.2\\1.3").patientName("*^J?n*")
                .keys()).hasSize(3);
        assertThatThrownBy(() -> all.limit(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> all.offset(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everySupportedKeywordHasAMatchingRule() {
        for (Set<String> keywords : List.of(PatientQuery.KEYWORDS, StudyQuery.KEYWORDS, SeriesQuery.KEYWORDS,
                InstanceQuery.KEYWORDS)) {
            assertThat(Matching.VRS).containsKeys(keywords.toArray(String[]::new));
        }
    }

    @Test
    void databasesDescribeThemselvesWithoutSecrets() {
        IndexDatabase pg = IndexDatabase.of("jdbc:postgresql://db:5432/medjava?password=hush&ssl=true", "medjava",
                "secret");
        assertThat(pg.toString()).doesNotContain("secret", "hush").contains("jdbc:postgresql://db:5432/medjava");
        assertThat(pg.describe()).isEqualTo("jdbc:postgresql://db:5432/medjava");
        assertThat(pg.driverClass()).isEqualTo("org.postgresql.Driver");
        IndexDatabase h2 = IndexDatabase.h2(Path.of("/data/index"));
        assertThat(h2.url()).isEqualTo("jdbc:h2:file:/data/index/index");
        assertThat(h2.driverClass()).isEqualTo("org.h2.Driver");
        assertThatThrownBy(() -> IndexDatabase.of("postgres://x", "", "")).isInstanceOf(
                IllegalArgumentException.class);
    }

    @Test
    void dicomIsToldByDicmAtOffset128() throws IOException {
        byte[] head = new byte[132];
        System.arraycopy("DICM".getBytes(StandardCharsets.US_ASCII), 0, head, 128, 4);
        assertThat(ParsedInstance.isDicom(new ByteArrayInputStream(head))).isTrue();
        assertThat(ParsedInstance.isDicom(new ByteArrayInputStream(head, 0, 131))).isFalse();
        assertThat(ParsedInstance.isDicom(new ByteArrayInputStream(new byte[0]))).isFalse();
        head[131] = 'X';
        assertThat(ParsedInstance.isDicom(new ByteArrayInputStream(head))).isFalse();
    }

    @Test
    void aHeaderIsParsedFromAStreamWithTheFilesSizeAndTime(@TempDir Path tmp) throws IOException {
        Path file = TestDicom.ct().patient("PS", "Stream^Sam").study("1.2.826.60.1", "20200105")
                .series("1.2.826.60.1.1", "CT", 1).instance("1.2.826.60.1.1.1", 4).writeTo(tmp.resolve("s.dcm"));
        ParsedInstance parsed;
        try (InputStream in = Files.newInputStream(file)) {
            parsed = ParsedInstance.parse("s/1.dcm", in, 4321, 8765);
        }
        assertThat(parsed.sopInstanceUid()).isEqualTo("1.2.826.60.1.1.1");
        assertThat(parsed.instanceNumber()).isEqualTo(4);
        assertThat(parsed.fileSize()).isEqualTo(4321);
        assertThat(parsed.lastModified()).isEqualTo(8765);
        assertThat(parsed.metadataJson()).doesNotContain("7FE00010");
        assertThat(parsed).isEqualTo(ParsedInstance.of("s/1.dcm", IndexFiles.header(file)).withFile(4321, 8765));
        assertThatThrownBy(() -> ParsedInstance.parse("s/2.dcm", new ByteArrayInputStream(new byte[10]), 10, 0))
                .isInstanceOf(IndexException.class).hasMessageStartingWith("s/2.dcm: ");
    }

    @Test
    void theSchemaProbesNameEveryMappedColumn() {
        assertThat(Schema.probes()).allMatch(p -> p.startsWith("SELECT ") && p.endsWith(" WHERE 1 = 0"))
                .extracting(p -> p.replaceAll(".* FROM (\\w+) WHERE.*", "$1")).containsExactly("mj_patient", "mj_study",
                        "mj_series", "mj_instance", "mj_trash", "mj_change", "mj_metadata", "mj_label", "mj_audit",
                        "mj_share", "mj_route_task", "mj_ready_metadata");
        assertThat(Schema.probes().get(2)).contains("FROM mj_series").contains("study_uid", "instance_count");
        assertThat(Schema.probes().get(3)).contains("FROM mj_instance").contains("store_path", "series_uid",
                "photometric", "indexed_at_ms");
        assertThat(Schema.probes().get(4)).contains("FROM mj_trash").contains("trash_id", "purge_after_ms");
        assertThat(Schema.probes().get(5)).contains("FROM mj_change").contains("seq", "kind", "trash_id");
        assertThat(Schema.probes().get(6)).contains("FROM mj_metadata").contains("store_path", "metadata_json");
        assertThat(Schema.probes().get(11)).contains("FROM mj_ready_metadata").contains("uid", "base_url",
                "change_seq", "json_gzip");
    }
}
