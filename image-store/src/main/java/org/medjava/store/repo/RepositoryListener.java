package org.medjava.store.repo;

import java.nio.file.Path;
import org.medjava.codec.ImageFormat;

/**
 * Told of every change while the path's lock is held, so whatever it keeps in step (the DICOM index) sees the
 * changes to one path in the order they happened.
 */
public interface RepositoryListener {

    void stored(StorePath path, Path file, ImageFormat format);

    void deleted(StorePath path);

    RepositoryListener NONE = new RepositoryListener() {
        @Override
        public void stored(StorePath path, Path file, ImageFormat format) {
        }

        @Override
        public void deleted(StorePath path) {
        }
    };
}
