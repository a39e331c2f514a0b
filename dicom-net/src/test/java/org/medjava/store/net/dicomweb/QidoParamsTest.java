package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.StoreException;

/** QIDO-RS query parameters: keywords and tags, includefield, paging, and the 400s. */
class QidoParamsTest {

    @Test
    void keywordsAndTagsMatchIncludefieldsAndPaging() {
        QidoParams p = QidoParams.parse(QueryLevel.STUDY, Map.of("PatientName", List.of("Doe*"),
                "00080020", List.of("20200101-"), "includefield", List.of("00080080,StudyDescription",
                        "InstitutionName"), "limit", List.of("10"), "offset", List.of("5"),
                "fuzzymatching", List.of("true")), Map.of());
        assertThat(p.query().keys()).containsOnlyKeys("PatientName", "StudyDate");
        assertThat(p.query().limit()).isEqualTo(10);
        assertThat(p.query().offset()).isEqualTo(5);
        assertThat(p.query().fuzzy()).isTrue();
        assertThat(QidoParams.parse(QueryLevel.STUDY, Map.of("fuzzymatching", List.of("false"), "StudyDate",
                List.of("20240229-20241231")), Map.of()).query().fuzzy()).isFalse();
        assertThat(p.includes()).hasSize(2);
        assertThat(p.includeAll()).isFalse();
        assertThat(QidoParams.parse(QueryLevel.IMAGE, Map.of("includefield", List.of("all")), Map.of())
                .includeAll()).isTrue();
    }

    @Test
    void pathKeysAreKeptAndSeriesQueriesTakeStudyKeys() {
        QidoParams p = QidoParams.parse(QueryLevel.SERIES, Map.of("Modality", List.of("CT"), "PatientID",
                List.of("P1")), Map.of("StudyInstanceUID", "1.2.3"));
        assertThat(p.query().keys()).containsEntry("StudyInstanceUID", "1.2.3").containsEntry("Modality", "CT")
                .containsEntry("PatientID", "P1");
    }

    @Test
    void studiesMayBeOrdered() {
        QidoParams p = QidoParams.parse(QueryLevel.STUDY, Map.of("orderby", List.of("-StudyDate,PatientName",
                "AccessionNumber")), Map.of());
        assertThat(p.query().orderBy()).extracting(Object::toString)
                .containsExactly("-StudyDate", "PatientName", "AccessionNumber");
        assertBad(QueryLevel.STUDY, "orderby", "Modality", "cannot order studies by Modality");
        assertThatThrownBy(() -> QidoParams.parse(QueryLevel.SERIES, Map.of("orderby", List.of("StudyDate")),
                Map.of())).hasMessageContaining("only study results can be ordered");
    }

    @Test
    void whatCannotBeMatchedIsABadRequest() {
        assertBad(QueryLevel.STUDY, "Modality", "CT", "not a matching key of study queries");
        assertBad(QueryLevel.STUDY, "Colour", "red", "Colour");
        assertBad(QueryLevel.STUDY, "StudyDate", "2020", "date");
        assertBad(QueryLevel.STUDY, "StudyDate", "20231301", "2023-13-01 is not a day");
        assertBad(QueryLevel.STUDY, "StudyDate", "20230101-20230230", "2023-02-30 is not a day");
        assertBad(QueryLevel.STUDY, "StudyTime", "2500", "hours run 00-23");
        assertBad(QueryLevel.STUDY, "fuzzymatching", "maybe", "fuzzymatching=maybe is neither true nor false");
        assertBad(QueryLevel.STUDY, "fuzzymatching", "", "neither true nor false");
        assertBad(QueryLevel.STUDY, "limit", "-1", "negative");
        assertBad(QueryLevel.STUDY, "offset", "x", "whole number");
        assertBad(QueryLevel.STUDY, "includefield", "NoSuchKeyword", "neither");
        assertThatThrownBy(() -> QidoParams.parse(QueryLevel.SERIES, Map.of("StudyInstanceUID", List.of("9.9")),
                Map.of("StudyInstanceUID", "1.2.3"))).hasMessageContaining("path");
    }

    private static void assertBad(QueryLevel level, String name, String value, String message) {
        assertThatThrownBy(() -> QidoParams.parse(level, Map.of(name, List.of(value)), Map.of()))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST);
                    assertThat(e.getMessage()).contains(message);
                });
    }
}
