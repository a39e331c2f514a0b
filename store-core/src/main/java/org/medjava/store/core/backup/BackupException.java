package org.medjava.store.core.backup;

import org.medjava.store.core.StoreException;

/** Why a backup or a restore was refused or failed; nothing was changed in the store or the data directory. */
public class BackupException extends StoreException {
    private static final long serialVersionUID = 1L;

    /** A refusal of what was asked (a bad or damaged backup, a bad target): 400 on the web. */
    public BackupException(String message) {
        super(Kind.BAD_REQUEST, message);
    }

    public BackupException(Kind kind, String message) {
        super(kind, message);
    }

    public BackupException(Kind kind, String message, Throwable cause) {
        super(kind, message, cause);
    }
}
