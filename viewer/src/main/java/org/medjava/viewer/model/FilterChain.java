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
     * The Derivation Description of a derived DICOM object: the window the grey source was rendered through (null
     * for colour or non-DICOM sources) and the chain.
     */
    public String derivationDescription(Window window) {
        StringBuilder b = new StringBuilder("MedJava viewer");
        if (window != null) {
            b.append(": window ").append(WindowLevel.format(window));
        }
        b.append(window != null ? "; filters: " : ": filters: ").append(isEmpty() ? "none" : describe());
        return b.toString();
    }
}
