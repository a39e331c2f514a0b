package org.medjava.store.core.index;

import java.util.Map;
import java.util.Set;

/** Matching keys at the series level: {@link #KEYWORDS}. */
public final class SeriesQuery extends DicomQuery<SeriesQuery> {
    public static final Set<String> KEYWORDS = Set.of("SeriesInstanceUID", "Modality", "SeriesNumber",
            "SeriesDescription", "BodyPartExamined", "SeriesDate");

    private SeriesQuery(Map<String, String> keys, boolean fuzzy, int offset, int limit,
                     Visibility visibility) {
        super(KEYWORDS, keys, fuzzy, offset, limit, visibility);
    }

    /** Every series. */
    public static SeriesQuery all() {
        return new SeriesQuery(Map.of(), false, 0, 0, Visibility.everything());
    }

    @Override
    SeriesQuery copy(Map<String, String> keys, boolean fuzzy, int offset, int limit,
                   Visibility visibility) {
        return new SeriesQuery(keys, fuzzy, offset, limit, visibility);
    }

    public SeriesQuery seriesInstanceUid(String key) {
        return with("SeriesInstanceUID", key);
    }

    public SeriesQuery modality(String key) {
        return with("Modality", key);
    }

    public SeriesQuery seriesNumber(String key) {
        return with("SeriesNumber", key);
    }
}
