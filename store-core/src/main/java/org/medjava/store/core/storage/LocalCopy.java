package org.medjava.store.core.storage;

import java.nio.file.Path;

/** An object's bytes as a local file; closing it removes a temporary copy. */
public interface LocalCopy extends AutoCloseable {

    Path path();

    @Override
    void close();
}
