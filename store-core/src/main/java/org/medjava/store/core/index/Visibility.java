package org.medjava.store.core.index;

import java.util.Set;
import java.util.TreeSet;

/**
 * Which studies a query may see: all of them, those carrying at least one of some labels (a caller's projects), or
 * one study (a share link's). A query that sees no study learns nothing of it: it is not in the results, not in the
 * counts of a patient or a study, and a lookup by its UID finds nothing.
 */
public final class Visibility {
    private static final Visibility EVERYTHING = new Visibility(null, null);
    /** What a Study Instance UID may be made of here: it is put into queries as a literal. */
    private static final java.util.regex.Pattern UID = java.util.regex.Pattern.compile("[0-9.]{1,64}");

    private final Set<String> labels;
    private final String study;

    private Visibility(Set<String> labels, String study) {
        this.labels = labels;
        this.study = study;
    }

    /** Every study (an administrator; a store without access by project). */
    public static Visibility everything() {
        return EVERYTHING;
    }

    /** The studies carrying any of {@code labels}; none when the set is empty. */
    public static Visibility labels(Set<String> labels) {
        Set<String> checked = new TreeSet<>();
        for (String label : labels) {
            checked.add(Labels.check(label));
        }
        return new Visibility(Set.copyOf(checked), null);
    }

    /** That one study alone, whatever its labels. */
    public static Visibility study(String studyInstanceUid) {
        if (studyInstanceUid == null || !UID.matcher(studyInstanceUid).matches()) {
            throw new IllegalArgumentException("not a Study Instance UID: " + studyInstanceUid);
        }
        return new Visibility(null, studyInstanceUid);
    }

    public boolean all() {
        return labels == null && study == null;
    }

    /** Whether no study at all may be seen (a caller without a project): a query is answered without the database. */
    public boolean nothing() {
        return labels != null && labels.isEmpty();
    }

    /** The labels that make a study visible; empty when {@link #all()} or for {@link #study one study}. */
    public Set<String> labelSet() {
        return labels == null ? Set.of() : labels;
    }

    /** The one study that may be seen, or null. */
    public String studyUid() {
        return study;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Visibility v && java.util.Objects.equals(labels, v.labels)
                && java.util.Objects.equals(study, v.study);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(labels, study);
    }

    @Override
    public String toString() {
        return all() ? "all studies" : study != null ? "study " + study : "studies labelled " + labels;
    }
}
