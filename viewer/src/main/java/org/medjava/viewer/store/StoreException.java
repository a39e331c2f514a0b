package org.medjava.viewer.store;

import java.io.IOException;

/**
 * The store refused a request ({@code status} from its HTTP response, with the store's own message) or could not be
 * reached ({@code status} 0). The message says what happened and what to do.
 */
public class StoreException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String serverMessage;

    public StoreException(int status, String message, String serverMessage) {
        super(message);
        this.status = status;
        this.serverMessage = serverMessage == null ? "" : serverMessage;
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
        this.serverMessage = "";
    }

    /** The HTTP status, or 0 when the store was not reached. */
    public int status() {
        return status;
    }

    public boolean unreachable() {
        return status == 0;
    }

    /** The store's explanation ({@code message} of its JSON error), or "". */
    public String serverMessage() {
        return serverMessage;
    }
}
