package org.medjava.viewer.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The measurements drawn on the open image, with their results under the current {@link Measurer}: results are
 * computed when a measurement is added or the values change (another state after a filter, undo or redo) and kept,
 * so painting never recomputes statistics. Event thread only.
 */
public final class Measurements {
    private final List<Measurement> items = new ArrayList<>();
    private final List<Measurer.Result> results = new ArrayList<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private Measurer measurer = new Measurer(null, null);

    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    public Measurer measurer() {
        return measurer;
    }

    /** New values or spacing: every result is recomputed (unless the values are the same as before). */
    public void setMeasurer(Measurer next) {
        boolean same = next.spacing() == null ? measurer.spacing() == null : next.spacing().equals(measurer.spacing());
        if (same && (next.values() == null ? measurer.values() == null : next.values().sameAs(measurer.values()))) {
            return;
        }
        measurer = next;
        results.clear();
        items.forEach(m -> results.add(measurer.measure(m)));
        changed();
    }

    public Measurer.Result add(Measurement m) {
        Measurer.Result r = measurer.measure(m);
        items.add(m);
        results.add(r);
        changed();
        return r;
    }

    public void remove(int index) {
        items.remove(index);
        results.remove(index);
        changed();
    }

    public void clear() {
        if (!items.isEmpty()) {
            items.clear();
            results.clear();
            changed();
        }
    }

    public int size() {
        return items.size();
    }

    public Measurement get(int index) {
        return items.get(index);
    }

    public Measurer.Result result(int index) {
        return results.get(index);
    }

    /** Every result's line, one a line, numbered as in the list: what "copy all" puts on the clipboard. */
    public String text() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < results.size(); i++) {
            b.append(i + 1).append(". ").append(results.get(i).line()).append('\n');
        }
        return b.toString();
    }

    private void changed() {
        listeners.forEach(Runnable::run);
    }
}
