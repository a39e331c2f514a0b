package org.medjava.store.core.ingest;

/**
 * Why an object received over the network was not stored. The reason carries the DICOM status (PS3.4 C-STORE
 * status, the same codes STOW-RS reports as FailureReason); the message says what was wrong. Nothing of the object
 * is visible in the store.
 */
public final class IngestFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** 0110H: processing failure (something on our side). */
        PROCESSING_FAILURE(0x0110),
        /** 0111H: an object with this SOP Instance UID is stored already, and the policy is to reject. */
        DUPLICATE_SOP_INSTANCE(0x0111),
        /** 0122H: the store does not keep this SOP class. */
        SOP_CLASS_NOT_SUPPORTED(0x0122),
        /** A700H: out of resources (disk, size limit). */
        OUT_OF_RESOURCES(0xA700),
        /** A900H: the data set does not match the SOP class or instance announced, or the study it was sent to. */
        DATA_SET_DOES_NOT_MATCH(0xA900),
        /** C000H: cannot understand (malformed data set, undecodable pixel data). */
        CANNOT_UNDERSTAND(0xC000);

        public final int status;

        Reason(int status) {
            this.status = status;
        }

        /** A DICOM store status as a metrics label: success, a reason's name ({@code out_of_resources}), or failure. */
        public static String label(int status) {
            if (status == 0) {
                return "success";
            }
            for (Reason reason : values()) {
                if (reason.status == status) {
                    return reason.name().toLowerCase(java.util.Locale.ROOT);
                }
            }
            return "failure";
        }
    }

    private final Reason reason;

    public IngestFailure(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public IngestFailure(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    public int status() {
        return reason.status;
    }
}
