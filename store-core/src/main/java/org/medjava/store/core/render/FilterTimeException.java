package org.medjava.store.core.render;

import org.medjava.store.core.StoreException;

/**
 * A filter run refused or stopped for time: every filter slot busy (503 with {@link #retryAfterSeconds()}), or the
 * deadline passed (503, no Retry-After: the same request would take as long again).
 */
public final class FilterTimeException extends StoreException {
    private static final long serialVersionUID = 1L;
    private final Integer retryAfterSeconds;

    public FilterTimeException(String message, Integer retryAfterSeconds, Throwable cause) {
        super(Kind.UNAVAILABLE, message, cause);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Seconds for a {@code Retry-After} header, or null for none. */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
