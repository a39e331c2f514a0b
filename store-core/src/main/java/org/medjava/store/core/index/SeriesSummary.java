package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;
import java.util.List;

/**
 * A series-level result; JSON-B writes the DICOM keywords. {@code directories} are the store directories holding
 * the series' instances (usually one), sorted.
 */
public record SeriesSummary(
        @JsonbProperty("StudyInstanceUID") String studyInstanceUid,
        @JsonbProperty("SeriesInstanceUID") String seriesInstanceUid,
        @JsonbProperty("Modality") String modality,
        @JsonbProperty("SeriesNumber") Integer seriesNumber,
        @JsonbProperty("SeriesDescription") String seriesDescription,
        @JsonbProperty("BodyPartExamined") String bodyPartExamined,
        @JsonbProperty("SeriesDate") String seriesDate,
        @JsonbProperty("NumberOfSeriesRelatedInstances") long numberOfSeriesRelatedInstances,
        @JsonbProperty("directories") List<String> directories) {

    public SeriesSummary {
        directories = directories == null ? List.of() : List.copyOf(directories);
    }
}
