package org.medjava.store.server.http;

/**
 * A single byte range of a {@code Range: bytes=...} header (RFC 9110 §14), resolved against the file length.
 * Multiple ranges are answered with the whole file, which the RFC allows.
 */
public record ByteRange(long start, long end) {

    public long length() {
        return end - start + 1;
    }

    /** Thrown for a syntactically valid range that lies outside the file: 416. */
    public static final class Unsatisfiable extends Exception {
        private static final long serialVersionUID = 1L;
    }

    /** @return null when the header is absent, malformed or asks for several ranges (serve the whole file) */
    public static ByteRange parse(String header, long length) throws Unsatisfiable {
        if (header == null || !header.startsWith("bytes=") || header.contains(",")) {
            return null;
        }
        String spec = header.substring(6).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        try {
            String first = spec.substring(0, dash).trim();
            String last = spec.substring(dash + 1).trim();
            if (first.isEmpty()) {
                long suffix = Long.parseLong(last);
                if (suffix <= 0 || length == 0) {
                    throw new Unsatisfiable();
                }
                return new ByteRange(Math.max(0, length - suffix), length - 1);
            }
            long start = Long.parseLong(first);
            long end = last.isEmpty() ? length - 1 : Math.min(Long.parseLong(last), length - 1);
            if (start < 0 || end < start && !last.isEmpty() && Long.parseLong(last) < start) {
                return null; // syntactically invalid: ignore the header
            }
            if (start >= length) {
                throw new Unsatisfiable();
            }
            return new ByteRange(start, end);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
