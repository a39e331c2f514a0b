package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;
import java.time.Instant;

/**
 * A study a retention rule selects (see {@link DicomIndex#studiesOlderThan}): its date, when its last instance was
 * received, its modalities ({@code \}-separated) and how many files it has.
 */
public record AgedStudy(@JsonbProperty("StudyInstanceUID") String studyInstanceUid,
        @JsonbProperty("StudyDate") String studyDate, Instant lastReceived, String modalities, long instances) {
}
