package org.medjava.store.core.route;

import java.time.Duration;

/**
 * When a failed send is tried again: after {@code initial}, doubling with each further failure up to {@code max};
 * given up (the dead-letter list) after {@code maxTries} failed tries.
 */
public record Backoff(Duration initial, Duration max, int maxTries) {

    public Backoff {
        if (initial.isNegative() || initial.isZero() || max.compareTo(initial) < 0 || maxTries < 1) {
            throw new IllegalArgumentException("back-off: initial > 0, max >= initial, at least one try; not "
                    + initial + ", " + max + ", " + maxTries);
        }
    }

    /** The wait after the {@code tries}-th failed try (1: the first), or null when the task is given up. */
    public Duration after(int tries) {
        if (tries >= maxTries) {
            return null;
        }
        long ms = initial.toMillis();
        for (int i = 1; i < tries && ms < max.toMillis(); i++) {
            ms *= 2;
        }
        return Duration.ofMillis(Math.min(ms, max.toMillis()));
    }
}
