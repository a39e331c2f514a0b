package org.medjava.store.core.storage;

import java.io.IOException;

/** The storage cannot be reached or refused the operation for a reason that is not the caller's (a 503). */
public class StorageUnavailableException extends IOException {
    private static final long serialVersionUID = 1L;

    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
