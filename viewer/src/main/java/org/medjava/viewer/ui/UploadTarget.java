package org.medjava.viewer.ui;

import org.medjava.viewer.image.UploadFormat;

/** Where and how to upload: a store path and a format. */
record UploadTarget(String path, UploadFormat format) {

    /** {@code name} with its extension replaced by the format's. */
    static String withExtension(String name, UploadFormat format) {
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        return base + "." + format.extension();
    }

    /** A default name: the source's base name, "-filtered" when filters were applied, the format's extension. */
    static String defaultName(String sourceName, boolean filtered, UploadFormat format) {
        int dot = sourceName.lastIndexOf('.');
        String base = dot > 0 ? sourceName.substring(0, dot) : sourceName;
        return base + (filtered ? "-filtered" : "") + "." + format.extension();
    }

    /** Checks a directory and name typed by a person and joins them to a store path. */
    static String join(String directory, String name) {
        String dir = directory == null ? "" : directory.trim().replace('\\', '/');
        while (dir.startsWith("/")) {
            dir = dir.substring(1);
        }
        if (!dir.isEmpty() && !dir.endsWith("/")) {
            dir += "/";
        }
        String n = name == null ? "" : name.trim();
        if (n.isEmpty() || n.contains("/") || n.startsWith(".")) {
            throw new IllegalArgumentException("the file name must not be empty, contain '/' or start with '.'");
        }
        for (String segment : (dir + n).split("/")) {
            if (segment.isEmpty() || segment.equals("..") || segment.startsWith(".")) {
                throw new IllegalArgumentException("\"" + dir + n + "\" is not a valid store path (no empty, '.' or"
                        + " '..' parts)");
            }
        }
        return dir + n;
    }
}
