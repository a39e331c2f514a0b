package org.medjava.store.core.index;

/**
 * A failure of the DICOM index: the database cannot be reached or written, or a file cannot be indexed. The message
 * says what was being done and why it failed (with the store path where there is one); it never contains patient
 * names or other header values.
 */
public class IndexException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IndexException(String message) {
        super(message);
    }

    public IndexException(String message, Throwable cause) {
        super(message, cause);
    }
}
