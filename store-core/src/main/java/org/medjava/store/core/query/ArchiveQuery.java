package org.medjava.store.core.query;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.Visibility;

/**
 * One query of the archive, as C-FIND and QIDO-RS both ask it: the level of the results, the matching keys by DICOM
 * keyword (this level's and the levels' above, PS3.4 C.2.2.2 semantics), case-insensitive person names, paging,
 * the order of the results (QIDO-RS's {@code orderby}, as dcm4chee offers it; C-FIND has none), and the studies
 * the caller may see.
 *
 * @param limit 0: no limit
 * @param orderBy empty: the level's default order (studies newest first)
 * @param visibility the studies the caller may see: nothing of the others is found, counted or retrieved
 */
public record ArchiveQuery(QueryLevel level, Map<String, String> keys, boolean fuzzy, int offset, int limit,
                           List<StudyQuery.Order> orderBy, Visibility visibility) {

    public ArchiveQuery {
        keys = Collections.unmodifiableMap(new TreeMap<>(keys));
        orderBy = List.copyOf(orderBy);
        java.util.Objects.requireNonNull(visibility, "visibility");
        if (offset < 0 || limit < 0) {
            throw new IllegalArgumentException("offset and limit must not be negative");
        }
        if (!orderBy.isEmpty() && level != QueryLevel.STUDY) {
            throw new IllegalArgumentException("only study results can be ordered (orderby), not "
                    + level.name().toLowerCase(java.util.Locale.ROOT) + " results");
        }
    }

    public ArchiveQuery(QueryLevel level, Map<String, String> keys, boolean fuzzy, int offset, int limit,
                        List<StudyQuery.Order> orderBy) {
        this(level, keys, fuzzy, offset, limit, orderBy, Visibility.everything());
    }

    public ArchiveQuery(QueryLevel level, Map<String, String> keys, boolean fuzzy, int offset, int limit) {
        this(level, keys, fuzzy, offset, limit, List.of());
    }

    /** The same query, for a caller who may see what {@code v} lets them. */
    public ArchiveQuery visibleTo(Visibility v) {
        return new ArchiveQuery(level, keys, fuzzy, offset, limit, orderBy, v);
    }

    public static ArchiveQuery of(QueryLevel level, Map<String, String> keys) {
        return new ArchiveQuery(level, keys, false, 0, 0);
    }

    /**
     * The value of a {@code fuzzymatching} query parameter: {@code true} or {@code false} (PS3.18 8.3.4.1, any case).
     *
     * @throws IllegalArgumentException for anything else, rather than taking it as false
     */
    public static boolean fuzzyMatching(String value) {
        String v = value == null ? "" : value.trim();
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException("fuzzymatching=" + value + " is neither true nor false");
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
                + ", limit=" + limit + ", orderBy=" + orderBy + ", " + visibility + "]"; // no values: patient names
    }
}
