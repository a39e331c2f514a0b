package org.medjava.store.core.storage;

import java.io.IOException;
import java.nio.file.Path;

/** A complete body in a local staging file, on its way to {@link ObjectStorage#install}. */
public interface StagedBody {

    Path file();

    /**
     * Waits until {@link ObjectStorage#install} would not have to wait for the body itself (the file system: until
     * it is forced to disk), so that a caller can wait before it takes a lock rather than while holding it.
     */
    default void awaitDurable() throws IOException {
    }
}
