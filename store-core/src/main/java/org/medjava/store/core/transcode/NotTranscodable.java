package org.medjava.store.core.transcode;

/** A stored object cannot be delivered in the transfer syntax asked for; the message says why. */
public final class NotTranscodable extends Exception {
    private static final long serialVersionUID = 1L;

    public NotTranscodable(String message) {
        super(message);
    }

    public NotTranscodable(String message, Throwable cause) {
        super(message, cause);
    }
}
