package org.medjava.store.core.index;

import org.medjava.store.core.StoreException;
import org.medjava.store.core.model.StorePath;

/** Store paths: relative, '/'-separated, as in the HTTP paths under the data directory's {@code images/}. */
final class StorePaths {
    private StorePaths() {
    }

    /** A file's store path, normalized (no leading '/'); refuses what {@link StorePath#parse} refuses. */
    static String file(String storePath) {
        if (storePath == null) {
            throw new IllegalArgumentException("store path is null");
        }
        String path = stripLeadingSlashes(storePath);
        if (path.isEmpty() || path.endsWith("/")) {
            throw new IllegalArgumentException("not a file's store path: '" + storePath + "'");
        }
        check(storePath, path);
        return path;
    }

    /** A directory's store path, normalized (no leading or trailing '/'; "" is the top). */
    static String directory(String directoryPath) {
        if (directoryPath == null) {
            return "";
        }
        String path = stripLeadingSlashes(directoryPath);
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.isEmpty()) {
            check(directoryPath, path);
        }
        return path;
    }

    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    static String nameOf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static String stripLeadingSlashes(String path) {
        int i = 0;
        while (i < path.length() && path.charAt(i) == '/') {
            i++;
        }
        return path.substring(i);
    }

    private static void check(String original, String path) {
        if (path.length() > InstanceEntity.PATH_LENGTH) {
            throw new IllegalArgumentException("store path longer than " + InstanceEntity.PATH_LENGTH
                    + " characters: '" + original.substring(0, 80) + "...'");
        }
        try {
            StorePath.parse(path); // one set of path rules for the repository and the index
        } catch (StoreException e) {
            throw new IllegalArgumentException("invalid store path '" + original + "': " + e.getMessage(), e);
        }
    }
}
