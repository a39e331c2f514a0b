package org.medjava.store.dicomweb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A media type with its parameters, as in Content-Type and in each range of an Accept header
 * ({@code multipart/related; type="application/dicom"; transfer-syntax=*}). Type and parameter names are lower
 * case; quoted values are unquoted.
 */
record MediaTypeParams(String type, Map<String, String> params) {

    static MediaTypeParams parse(String text) {
        List<String> pieces = split(text == null ? "" : text, ';');
        String type = pieces.isEmpty() ? "" : pieces.get(0).trim().toLowerCase(Locale.ROOT);
        Map<String, String> params = new LinkedHashMap<>();
        for (String p : pieces.subList(Math.min(1, pieces.size()), pieces.size())) {
            int eq = p.indexOf('=');
            if (eq > 0) {
                String value = p.substring(eq + 1).trim();
                if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                    value = value.substring(1, value.length() - 1);
                }
                params.put(p.substring(0, eq).trim().toLowerCase(Locale.ROOT), value);
            }
        }
        return new MediaTypeParams(type, params);
    }

    /** The ranges of an Accept header in the order given (no header: one wildcard range). */
    static List<MediaTypeParams> parseAccept(String header) {
        List<MediaTypeParams> ranges = new ArrayList<>();
        for (String range : split(header == null || header.isBlank() ? "*/*" : header, ',')) {
            if (!range.isBlank()) {
                ranges.add(parse(range));
            }
        }
        return ranges;
    }

    String param(String name) {
        return params.get(name);
    }

    boolean isWildcard() {
        return type.equals("*/*") || type.equals("*");
    }

    boolean matches(String concrete) {
        if (isWildcard() || type.equals(concrete)) {
            return true;
        }
        return type.endsWith("/*") && concrete.startsWith(type.substring(0, type.length() - 1));
    }

    /** Splits at {@code separator} outside double quotes. */
    private static List<String> split(String text, char separator) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (char c : text.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == separator && !quoted) {
                parts.add(current.toString());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        parts.add(current.toString());
        return parts;
    }
}
