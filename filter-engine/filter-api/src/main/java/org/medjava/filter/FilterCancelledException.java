package org.medjava.filter;

/**
 * Thrown by {@link Cancellation#check()} when the host cancelled the call that is running (its deadline passed, its
 * client went away, its plugin was removed or replaced). Unchecked, so it passes through any kernel unchanged; a
 * filter must let it propagate and not catch it.
 */
public final class FilterCancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FilterCancelledException(String reason) {
        super(reason, null, false, false); // thrown once per cancelled call, as control flow: no stack trace
    }
}
