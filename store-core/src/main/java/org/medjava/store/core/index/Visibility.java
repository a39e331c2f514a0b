package org.medjava.store.core.index;

import java.util.Set;
import java.util.TreeSet;

/**
 * Which studies a query may see: all of them, or those carrying at least one of some labels (a caller's projects).
 * A query that sees no study learns nothing of it: it is not in the results, not in the counts of a patient or a
 * study, and a lookup by its UID finds nothing.
 */
public final class Visibility {
    private static final Visibility EVERYTHING = new Visibility(null);

    private final Set<String> labels;

    private Visibility(Set<String> labels) {
        this.labels = labels;
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
        return new Visibility(Set.copyOf(checked));
    }

    public boolean all() {
        return labels == null;
    }

    /** The labels that make a study visible; empty when {@link #all()}. */
    public Set<String> labelSet() {
        return labels == null ? Set.of() : labels;
    }

    /** Whether a study with these labels is visible. */
    public boolean sees(Set<String> studyLabels) {
        return labels == null || studyLabels.stream().anyMatch(labels::contains);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Visibility v && java.util.Objects.equals(labels, v.labels);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(labels);
    }

    @Override
    public String toString() {
        return labels == null ? "all studies" : "studies labelled " + labels;
    }
}
