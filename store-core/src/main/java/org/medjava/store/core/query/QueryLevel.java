package org.medjava.store.core.query;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.medjava.store.core.index.InstanceQuery;
import org.medjava.store.core.index.PatientQuery;
import org.medjava.store.core.index.SeriesQuery;
import org.medjava.store.core.index.StudyQuery;

/**
 * The levels of the DICOM query/retrieve information models (PS3.4 C.6), with the keywords the store matches on at
 * each. A query at one level may also carry keys of the levels above it.
 */
public enum QueryLevel {
    PATIENT, STUDY, SERIES, IMAGE;

    /** The keywords matched on at this level itself (not those above). */
    public Set<String> ownKeywords() {
        return switch (this) {
            case PATIENT -> PatientQuery.KEYWORDS;
            case STUDY -> without(StudyQuery.KEYWORDS, PatientQuery.KEYWORDS);
            case SERIES -> SeriesQuery.KEYWORDS;
            case IMAGE -> InstanceQuery.KEYWORDS;
        };
    }

    /** The keywords a query at this level matches on: its own and those of every level above. */
    public Set<String> matchableKeywords() {
        Set<String> all = new HashSet<>();
        for (QueryLevel l : values()) {
            if (l.ordinal() <= ordinal()) {
                all.addAll(l.ownKeywords());
            }
        }
        return all;
    }

    /** The keyword of this level's unique key. */
    public String uniqueKey() {
        return switch (this) {
            case PATIENT -> "PatientID";
            case STUDY -> "StudyInstanceUID";
            case SERIES -> "SeriesInstanceUID";
            case IMAGE -> "SOPInstanceUID";
        };
    }

    /** The level whose own keyword {@code keyword} is, or null when no level matches on it. */
    public static QueryLevel ownerOf(String keyword) {
        for (QueryLevel l : values()) {
            if (l.ownKeywords().contains(keyword)) {
                return l;
            }
        }
        return null;
    }

    /**
     * Checks a matching key as the index would.
     *
     * @throws IllegalArgumentException when no level matches on {@code keyword} or the key is not valid for it
     */
    public static void validateKey(String keyword, String value) {
        QueryLevel owner = ownerOf(keyword);
        if (owner == null) {
            throw new IllegalArgumentException(keyword + " is not a matching key of the store");
        }
        switch (owner) {
            case PATIENT -> PatientQuery.all().with(keyword, value);
            case STUDY -> StudyQuery.all().with(keyword, value);
            case SERIES -> SeriesQuery.all().with(keyword, value);
            case IMAGE -> InstanceQuery.all().with(keyword, value);
        }
    }

    /** @throws IllegalArgumentException naming the levels that exist */
    public static QueryLevel parse(String text) {
        String t = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        for (QueryLevel l : values()) {
            if (l.name().equals(t)) {
                return l;
            }
        }
        throw new IllegalArgumentException("QueryRetrieveLevel \"" + text + "\" is not PATIENT, STUDY, SERIES or IMAGE");
    }

    private static Set<String> without(Set<String> all, Set<String> minus) {
        Set<String> s = new HashSet<>(all);
        s.removeAll(minus);
        return Set.copyOf(s);
    }
}
