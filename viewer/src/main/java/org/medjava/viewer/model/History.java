package org.medjava.viewer.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Undo/redo over immutable states, within a memory budget. The first state (the image as opened) is always kept;
 * when the states' sizes exceed the budget, the oldest states after it are dropped, so undo still reaches the
 * original but not every step in between. Pushing after an undo discards the redo branch.
 *
 * @param <S> a state; its size in bytes is given when it is pushed
 */
public final class History<S> {
    private final long budgetBytes;
    private final List<S> states = new ArrayList<>();
    private final List<Long> sizes = new ArrayList<>();
    private int current = -1;
    private int dropped;

    public History(S initial, long initialBytes, long budgetBytes) {
        this.budgetBytes = budgetBytes;
        states.add(initial);
        sizes.add(initialBytes);
        current = 0;
    }

    public S current() {
        return states.get(current);
    }

    public void push(S state, long bytes) {
        while (states.size() > current + 1) {
            states.remove(states.size() - 1);
            sizes.remove(sizes.size() - 1);
        }
        states.add(state);
        sizes.add(bytes);
        current = states.size() - 1;
        while (total() > budgetBytes && current > 1) {
            states.remove(1);
            sizes.remove(1);
            current--;
            dropped++;
        }
    }

    public boolean canUndo() {
        return current > 0;
    }

    public boolean canRedo() {
        return current < states.size() - 1;
    }

    public S undo() {
        if (!canUndo()) {
            throw new IllegalStateException("nothing to undo");
        }
        return states.get(--current);
    }

    public S redo() {
        if (!canRedo()) {
            throw new IllegalStateException("nothing to redo");
        }
        return states.get(++current);
    }

    /** States kept, the original included. */
    public int size() {
        return states.size();
    }

    /** Intermediate states dropped to stay within the budget. */
    public int dropped() {
        return dropped;
    }

    public long totalBytes() {
        return total();
    }

    private long total() {
        long sum = 0;
        for (long s : sizes) {
            sum += s;
        }
        return sum;
    }
}
