package org.medjava.store.core.index;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Matching keys of a query at one level, by DICOM keyword, with DICOM PS3.4 C.2.2.2 semantics:
 * <ul>
 *   <li>universal: no key, an empty key, or {@code *};</li>
 *   <li>single value: exact (case-sensitive) match;</li>
 *   <li>wildcard: {@code *} any run of characters, {@code ?} one character (not for UIDs, dates, times, numbers);</li>
 *   <li>range, for dates and times: {@code 20200101-20201231}, {@code -20201231}, {@code 20200101-};</li>
 *   <li>list: values separated by backslashes, each matched as above, any of them may match (UID list
 *       matching, and, as QIDO-RS allows, lists of other values too).</li>
 * </ul>
 * Person names (PN) match case-insensitively when {@link #fuzzyNames(boolean) fuzzy} is set. Results are paged with
 * {@link #offset(int)} and {@link #limit(int)} (0: no limit), and limited to the studies a caller may see with
 * {@link #visibleTo(Visibility)} (default: all). Instances are immutable: each setter returns a copy.
 *
 * @param <Q> the concrete query type
 */
public abstract class DicomQuery<Q extends DicomQuery<Q>> {
    private final Set<String> supported;
    private final Map<String, String> keys;
    private final boolean fuzzy;
    private final int offset;
    private final int limit;
    private final Visibility visibility;

    DicomQuery(Set<String> supported, Map<String, String> keys, boolean fuzzy, int offset, int limit,
               Visibility visibility) {
        this.supported = supported;
        this.keys = Collections.unmodifiableMap(new TreeMap<>(keys));
        this.fuzzy = fuzzy;
        this.offset = offset;
        this.limit = limit;
        this.visibility = Objects.requireNonNull(visibility, "visibility");
    }

    abstract Q copy(Map<String, String> keys, boolean fuzzy, int offset, int limit, Visibility visibility);

    /** The keywords this level matches on. */
    public Set<String> supportedKeywords() {
        return Collections.unmodifiableSet(new TreeSet<>(supported));
    }

    /** Whether this level matches on {@code keyword}. */
    public boolean supports(String keyword) {
        return supported.contains(keyword);
    }

    /**
     * A copy with the matching key for {@code keyword} (a DICOM keyword such as {@code PatientName}); null or empty
     * removes it.
     *
     * @throws IllegalArgumentException when this level does not match on that keyword, or the key is not valid
     *                                  for it (a wildcard in a UID or date, a malformed date, time or number)
     */
    public Q with(String keyword, String matchingKey) {
        if (!supported.contains(keyword)) {
            throw new IllegalArgumentException("no matching key " + keyword + " at the " + getClass().getSimpleName()
                    .replace("Query", "").toLowerCase(java.util.Locale.ROOT) + " level; supported: "
                    + supportedKeywords());
        }
        Matching.validate(keyword, matchingKey);
        Map<String, String> copy = new TreeMap<>(keys);
        if (matchingKey == null || matchingKey.isEmpty()) {
            copy.remove(keyword);
        } else {
            copy.put(keyword, matchingKey);
        }
        return copy(copy, fuzzy, offset, limit, visibility);
    }

    /** A copy matching person names case-insensitively (true) or exactly (false, the default). */
    public Q fuzzyNames(boolean fuzzyNames) {
        return copy(keys, fuzzyNames, offset, limit, visibility);
    }

    /** A copy that skips the first {@code offset} results. */
    public Q offset(int offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be 0 or more, not " + offset);
        }
        return copy(keys, fuzzy, offset, limit, visibility);
    }

    /** A copy returning at most {@code limit} results (0: all). */
    public Q limit(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be 0 or more, not " + limit);
        }
        return copy(keys, fuzzy, offset, limit, visibility);
    }

    /** A copy that finds only the studies {@code visibility} lets its caller see (and what is in them). */
    public Q visibleTo(Visibility visibility) {
        return copy(keys, fuzzy, offset, limit, visibility);
    }

    public Visibility visibility() {
        return visibility;
    }

    /** The matching key for {@code keyword}, or null. */
    public String key(String keyword) {
        return keys.get(keyword);
    }

    /** The matching keys, by keyword. */
    public Map<String, String> keys() {
        return keys;
    }

    public boolean fuzzyNames() {
        return fuzzy;
    }

    public int offset() {
        return offset;
    }

    public int limit() {
        return limit;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && keys.equals(((DicomQuery<?>) o).keys)
                && fuzzy == ((DicomQuery<?>) o).fuzzy && offset == ((DicomQuery<?>) o).offset
                && limit == ((DicomQuery<?>) o).limit && visibility.equals(((DicomQuery<?>) o).visibility);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass(), keys, fuzzy, offset, limit, visibility);
    }

    /** Names the keys but shows no values: they may be patient names. */
    @Override
    public String toString() {
        return getClass().getSimpleName() + "[keys=" + keys.keySet() + ", fuzzy=" + fuzzy + ", offset=" + offset
                + ", limit=" + limit + ", " + visibility + "]";
    }
}
