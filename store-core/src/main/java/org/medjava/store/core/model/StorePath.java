package org.medjava.store.core.model;

import org.medjava.store.core.StoreException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A validated path inside the image repository, as it appears after {@code /images/} in a URL (already
 * percent-decoded). Everything that could leave the repository or name something odd is refused here, once, so no
 * other code has to think about {@code ..}, absolute paths, NUL or control characters.
 *
 * @param segments  the names from the root down; empty for the root itself
 * @param directory whether the path ended in {@code /} (a directory is addressed with a trailing slash)
 */
public record StorePath(List<String> segments, boolean directory) {

    public static final StorePath ROOT = new StorePath(List.of(), true);
    static final int MAX_SEGMENT = 255;
    /** The longest path, in characters (also the width of the index's path column). */
    public static final int MAX_LENGTH = 1024;

    public StorePath {
        segments = List.copyOf(segments);
    }

    /**
     * @throws BadPathException naming the rule the path breaks
     */
    public static StorePath parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            return ROOT;
        }
        if (raw.length() > MAX_LENGTH) {
            throw new BadPathException("path is longer than " + MAX_LENGTH + " characters");
        }
        if (raw.startsWith("/")) {
            throw new BadPathException("absolute paths are not allowed: \"" + printable(raw) + "\"");
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new BadPathException("path contains a control character (U+" + String.format("%04X", (int) c)
                        + ") at position " + i);
            }
            if (c == '\\') {
                throw new BadPathException("path contains a backslash; use / between names");
            }
        }
        boolean directory = raw.endsWith("/");
        String body = directory ? raw.substring(0, raw.length() - 1) : raw;
        List<String> segments = new ArrayList<>();
        for (String segment : body.split("/", -1)) {
            checkSegment(segment, raw);
            segments.add(segment);
        }
        return new StorePath(segments, directory);
    }

    private static void checkSegment(String segment, String raw) {
        if (segment.isEmpty()) {
            throw new BadPathException("empty name (//) in \"" + printable(raw) + "\"");
        }
        if (segment.equals(".") || segment.equals("..")) {
            throw new BadPathException("\"" + segment + "\" is not allowed in a path");
        }
        if (segment.startsWith(".")) {
            // The repository keeps its temp files under dot-names; they are never addressable.
            throw new BadPathException("names starting with \".\" are reserved: \"" + printable(segment) + "\"");
        }
        if (segment.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_SEGMENT) {
            throw new BadPathException("a name is longer than " + MAX_SEGMENT + " bytes");
        }
    }

    private static String printable(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    public boolean isRoot() {
        return segments.isEmpty();
    }

    /** The last name, or "" for the root. */
    public String name() {
        return segments.isEmpty() ? "" : segments.get(segments.size() - 1);
    }

    public StorePath parent() {
        return segments.isEmpty() ? ROOT : new StorePath(segments.subList(0, segments.size() - 1), true);
    }

    public StorePath child(String name, boolean childIsDirectory) {
        List<String> names = new ArrayList<>(segments);
        names.add(name);
        return new StorePath(names, childIsDirectory);
    }

    public StorePath asDirectory() {
        return directory ? this : new StorePath(segments, true);
    }

    /** "a/b/c.dcm", or "a/b/" for a directory, "" for the root: the form used in URLs and in the index. */
    public String relative() {
        String joined = String.join("/", segments);
        return directory && !segments.isEmpty() ? joined + "/" : joined;
    }

    public Path resolveIn(Path root) {
        Path p = root;
        for (String s : segments) {
            p = p.resolve(s);
        }
        return p;
    }

    @Override
    public String toString() {
        return relative();
    }

    /** A path the repository refuses; the message names the rule it breaks. */
    public static final class BadPathException extends StoreException {
        private static final long serialVersionUID = 1L;

        public BadPathException(String message) {
            super(Kind.BAD_REQUEST, message);
        }
    }
}
