package org.medjava.store.core.index;

import java.time.Instant;

/**
 * Which studies a retention rule selects ({@link DicomIndex#studiesOlderThan}): older than {@code cutoff} by
 * StudyDate ({@code byStudyDate}) or by reception, and, where given, with a series of {@code modality}, an instance
 * sent by {@code sourceAe} (its Source AE Title) and the label {@code label}.
 */
public record AgedStudyQuery(boolean byStudyDate, Instant cutoff, String modality, String sourceAe, String label) {
}
