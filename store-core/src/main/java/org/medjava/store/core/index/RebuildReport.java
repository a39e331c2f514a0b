package org.medjava.store.core.index;

import jakarta.json.bind.annotation.JsonbProperty;
import java.time.Duration;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@link DicomIndex#rebuild(org.medjava.store.core.storage.ObjectStorage)} did.
 *
 * @param indexed DICOM objects indexed
 * @param skipped objects that are not DICOM (no "DICM" at offset 128); hidden files and directories are not counted
 * @param failed  DICOM objects that could not be indexed: store path → reason
 * @param removed index entries removed because their object is gone, not DICOM, or failed
 * @param elapsed how long it took
 */
public record RebuildReport(
        @JsonbProperty("indexed") int indexed,
        @JsonbProperty("skipped") int skipped,
        @JsonbProperty("failed") SortedMap<String, String> failed,
        @JsonbProperty("removed") int removed,
        @JsonbProperty("elapsed") Duration elapsed) {

    public RebuildReport {
        failed = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(failed == null ? Map.of() : failed));
    }
}
