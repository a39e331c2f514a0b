package org.medjava.store.query;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One query of the archive, as C-FIND and QIDO-RS both ask it: the level of the results, the matching keys by DICOM
 * keyword (this level's and the levels' above, PS3.4 C.2.2.2 semantics), case-insensitive person names, paging.
 *
 * @param limit 0: no limit
 */
public record ArchiveQuery(QueryLevel level, Map<String, String> keys, boolean fuzzy, int offset, int limit) {

    public ArchiveQuery {
        keys = Collections.unmodifiableMap(new TreeMap<>(keys));
        if (offset < 0 || limit < 0) {
            throw new IllegalArgumentException("offset and limit must not be negative");
        }
    }

    public static ArchiveQuery of(QueryLevel level, Map<String, String> keys) {
        return new ArchiveQuery(level, keys, false, 0, 0);
    }

    /** The non-universal matching keys among {@code keywords}. */
    Map<String, String> keysIn(java.util.Set<String> keywords) {
        Map<String, String> selected = new TreeMap<>();
        keys.forEach((k, v) -> {
            if (keywords.contains(k) && !isUniversal(v)) {
                selected.put(k, v);
            }
        });
        return selected;
    }

    static boolean isUniversal(String value) {
        return value == null || value.trim().chars().allMatch(c -> c == '*');
    }

    @Override
    public String toString() {
        return "ArchiveQuery[" + level + ", keys=" + keys.keySet() + ", fuzzy=" + fuzzy + ", offset=" + offset
                + ", limit=" + limit + "]"; // no values: they may be patient names
    }
}
