package org.medjava.store.server.http;

import java.util.Locale;

/** The content codings an {@code Accept-Encoding} header accepts (RFC 9110 12.5.3). */
public final class AcceptEncoding {

    private AcceptEncoding() {
    }

    /** Whether {@code header} accepts gzip: named, or {@code *}, with a weight above 0 (and not refused by name). */
    public static boolean gzip(String header) {
        if (header == null) {
            return false;
        }
        Boolean star = null;
        for (String item : header.split(",")) {
            String[] parts = item.split(";");
            String coding = parts[0].trim().toLowerCase(Locale.ROOT);
            boolean accepted = weight(parts) > 0;
            if (coding.equals("gzip") || coding.equals("x-gzip")) {
                return accepted;
            }
            if (coding.equals("*")) {
                star = accepted;
            }
        }
        return Boolean.TRUE.equals(star);
    }

    private static double weight(String[] parts) {
        for (int p = 1; p < parts.length; p++) {
            String param = parts[p].trim();
            if (param.regionMatches(true, 0, "q=", 0, 2)) {
                try {
                    return Double.parseDouble(param.substring(2).trim());
                } catch (NumberFormatException e) {
                    return 0; // a weight that says nothing accepts nothing
                }
            }
        }
        return 1;
    }
}
