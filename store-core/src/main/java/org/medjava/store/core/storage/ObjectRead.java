package org.medjava.store.core.storage;

import java.io.IOException;
import java.io.InputStream;

/**
 * An object and its bytes, read together ({@link ObjectStorage#read}): what the storage said of the object when it
 * began sending these bytes, so the two always belong to the same version.
 *
 * @param entry the object (never a directory)
 * @param body  its whole body; the caller's to read and close
 */
public record ObjectRead(StorageEntry entry, InputStream body) implements AutoCloseable {

    @Override
    public void close() throws IOException {
        body.close();
    }
}
