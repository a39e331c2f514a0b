package org.medjava.viewer.model;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.medjava.codec.dicom.Window;

/** The filters applied to an image so far, in order, immutable: each undoable state holds its own chain. */
public record FilterChain(List<FilterStep> steps) {
    public static final FilterChain EMPTY = new FilterChain(List.of());

    public FilterChain {
        steps = List.copyOf(steps);
    }

    public FilterChain then(FilterStep step) {
        List<FilterStep> next = new ArrayList<>(steps);
        next.add(step);
        return new FilterChain(next);
    }

    public boolean isEmpty() {
        return steps.isEmpty();
    }

    /** {@code "blur n=3 + sharpen p=50 @0,0,10,10"}; empty for no steps. */
    public String describe() {
        return steps.stream().map(FilterStep::describe).collect(Collectors.joining(" + "));
    }

    /**
     * The Derivation Description of a derived DICOM object of 8-bit pixels: the window the grey source was rendered
     * through (null for colour or non-DICOM sources) and the chain. When a chain mixes steps on the stored values
     * with steps on the 8-bit image, each step says which it ran on.
     */
    public String derivationDescription(Window window) {
        StringBuilder b = new StringBuilder("MedJava viewer");
        if (window != null) {
            b.append(": window ").append(WindowLevel.format(window));
        }
        b.append(window != null ? "; filters: " : ": filters: ").append(isEmpty() ? "none" : describeMarked());
        return b.toString();
    }

    /**
     * The Derivation Description of a derived DICOM object holding the filtered stored values: the chain, and the
     * window the object carries as its Window Center/Width (the filters did not see it).
     */
    public String storedValuesDerivationDescription(Window window) {
        return "MedJava viewer: filters on the stored values: " + (isEmpty() ? "none" : describe())
                + (window == null ? "" : "; window " + WindowLevel.format(window));
    }

    /** Whether every step ran on the grey stored values (true for no steps). */
    public boolean allOnStoredValues() {
        return steps.stream().allMatch(FilterStep::storedValues);
    }

    private String describeMarked() {
        boolean mixed = steps.stream().anyMatch(FilterStep::storedValues) && !allOnStoredValues();
        return !mixed ? describe() : steps.stream().map(s -> s.describe() + (s.storedValues()
                ? " (on the stored values)" : " (on the 8-bit image)")).collect(Collectors.joining(" + "));
    }
}
