package org.medjava.store.core;

/**
 * Why a store operation was refused. The kind maps to one HTTP status in the web layer; the message says what was
 * wrong and, where it can, what to do.
 */
public class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public enum Kind {
        BAD_REQUEST(400), UNAUTHORIZED(401), FORBIDDEN(403), NOT_FOUND(404), NOT_ACCEPTABLE(406), CONFLICT(409),
        PRECONDITION_FAILED(412), TOO_LARGE(413), UNSUPPORTED_MEDIA_TYPE(415), RANGE_NOT_SATISFIABLE(416),
        UNPROCESSABLE(422), BAD_GATEWAY(502), UNAVAILABLE(503),
        /** The client stopped sending its request body (the container's read timed out). */
        REQUEST_TIMEOUT(408),
        /** The disk that writes land on is (nearly) full: writes are refused, reads go on. */
        INSUFFICIENT_STORAGE(507),
        /** A resumable upload that expired (tus 1.0). */
        GONE(410),
        /** A resumable upload that another request is appending to right now (tus 1.0). */
        LOCKED(423),
        /** A resumable upload's chunk or whole object does not match the checksum its client sent (tus 1.0: 460). */
        CHECKSUM_MISMATCH(460);

        public final int status;

        Kind(int status) {
            this.status = status;
        }
    }

    private final Kind kind;

    public StoreException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public StoreException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
