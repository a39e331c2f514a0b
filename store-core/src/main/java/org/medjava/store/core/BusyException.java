package org.medjava.store.core;

/**
 * The store is only busy (a bounded resource is in use by other requests): 503 with {@code Retry-After}; the same
 * request may succeed later.
 */
public class BusyException extends StoreException {
    private static final long serialVersionUID = 1L;

    private final long retryAfterSeconds;

    public BusyException(String message, long retryAfterSeconds) {
        super(Kind.UNAVAILABLE, message);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The seconds after which trying again makes sense (the value of the {@code Retry-After} header). */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
