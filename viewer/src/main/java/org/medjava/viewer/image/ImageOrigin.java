package org.medjava.viewer.image;

import java.nio.file.Path;

/** Where an open image came from: a local file, or a store path with the ETag it had when it was downloaded. */
public sealed interface ImageOrigin {

    /** A short name for titles and default upload names. */
    String name();

    record LocalFile(Path file) implements ImageOrigin {
        @Override
        public String name() {
            return file.getFileName().toString();
        }
    }

    /** @param path store path under /images/, e.g. "samples/dicom/CT_small.dcm" */
    record StoreFile(String server, String path, String etag) implements ImageOrigin {
        @Override
        public String name() {
            int slash = path.lastIndexOf('/');
            return slash < 0 ? path : path.substring(slash + 1);
        }

        /** The directory part, ending with '/', or "" at the top. */
        public String directory() {
            int slash = path.lastIndexOf('/');
            return slash < 0 ? "" : path.substring(0, slash + 1);
        }
    }
}
