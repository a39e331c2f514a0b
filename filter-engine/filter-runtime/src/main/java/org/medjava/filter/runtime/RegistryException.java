package org.medjava.filter.runtime;

/** Base of the registry's errors; the message says what was wrong and what to do. */
public class RegistryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RegistryException(String message) {
        super(message);
    }

    public RegistryException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A plugin JAR that could not be loaded (the running version, if any, stays active). */
    public static final class PluginLoadException extends RegistryException {
        private static final long serialVersionUID = 1L;

        public PluginLoadException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** No filter or plugin with that id; the message lists the ones that exist. */
    public static final class UnknownIdException extends RegistryException {
        private static final long serialVersionUID = 1L;

        public UnknownIdException(String message) {
            super(message);
        }
    }

    /** The filter exists but cannot run now: suspended, or its plugin FAILED. */
    public static final class FilterUnavailableException extends RegistryException {
        private static final long serialVersionUID = 1L;

        public FilterUnavailableException(String message) {
            super(message);
        }
    }

    /** The filter threw while running; the cause is kept for logs, no raw Error reaches the caller. */
    public static final class FilterFailedException extends RegistryException {
        private static final long serialVersionUID = 1L;

        public FilterFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Every slot of the registry's pool is taken: try again after {@link #retryAfterSeconds()}. */
    public static final class BusyException extends RegistryException {
        private static final long serialVersionUID = 1L;
        private final int retryAfterSeconds;

        public BusyException(String message, int retryAfterSeconds) {
            super(message);
            this.retryAfterSeconds = retryAfterSeconds;
        }

        public int retryAfterSeconds() {
            return retryAfterSeconds;
        }
    }

    /** The call's deadline passed; the filter was stopped (or abandoned and its plugin quarantined). */
    public static final class DeadlineExceededException extends RegistryException {
        private static final long serialVersionUID = 1L;

        public DeadlineExceededException(String message) {
            super(message);
        }
    }

    /** The caller cancelled the call, or its plugin was removed, replaced or FAILED while it ran. */
    public static final class CallCancelledException extends RegistryException {
        private static final long serialVersionUID = 1L;

        public CallCancelledException(String message) {
            super(message);
        }
    }
}
