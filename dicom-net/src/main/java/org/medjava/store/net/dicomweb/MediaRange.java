package org.medjava.store.net.dicomweb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A media type or media range with its parameters, as in a Content-Type header or one element of an Accept header
 * (PS3.18 8.7.7, RFC 9110 12.5.1): {@code multipart/related; type="application/dicom"; transfer-syntax=*;q=0.9}.
 * Read the way real clients write it: parameter values quoted or not, unquoted values with a {@code /} in them
 * ({@code type=application/octet-stream}, as OHIF sends), spaces around {@code ;} and {@code =}, empty parameters.
 * The type, parameter names and the {@code type} parameter's value are lower case; quoted values are unquoted;
 * {@code q} is taken out of the parameters into {@link #quality()}.
 */
public record MediaRange(String type, Map<String, String> params, double quality) {

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    public MediaRange {
        params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    }

    /**
     * Parses one media type or range. A lone {@code *} (sent by Java's URL connection) is {@code *}{@code /*};
     * a {@code q} that is not a number from 0 to 1 counts as 1.
     *
     * @throws IllegalArgumentException when there is no {@code type/subtype} to read
     */
    public static MediaRange parse(String text) {
        List<String> pieces = split(text == null ? "" : text, ';');
        String type = pieces.get(0).trim().toLowerCase(Locale.ROOT);
        if (type.equals("*")) {
            type = "*/*";
        }
        int slash = type.indexOf('/');
        if (slash <= 0 || slash == type.length() - 1 || !TOKEN.matcher(type.substring(0, slash)).matches()
                || !TOKEN.matcher(type.substring(slash + 1)).matches()) {
            throw new IllegalArgumentException("\"" + text.trim() + "\" is not a media type (type/subtype)");
        }
        Map<String, String> params = new LinkedHashMap<>();
        double q = 1;
        for (String p : pieces.subList(1, pieces.size())) {
            int eq = p.indexOf('=');
            if (eq <= 0) {
                continue; // an empty or nameless parameter: ignored, as PS3.18 8.7.7 wants of invalid ones
            }
            String name = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = unquote(p.substring(eq + 1).trim());
            if (name.equals("q")) {
                q = quality(value);
            } else if (!name.isEmpty()) {
                params.put(name, name.equals("type") ? value.toLowerCase(Locale.ROOT) : value);
            }
        }
        return new MediaRange(type, params, q);
    }

    public String param(String name) {
        return params.get(name);
    }

    public boolean isWildcard() {
        return type.equals("*/*");
    }

    public boolean isMultipart() {
        return type.startsWith("multipart/");
    }

    /** Whether this range covers the media type {@code concrete} (type and subtype only). */
    public boolean matches(String concrete) {
        return covers(type, concrete);
    }

    /** Whether {@code range} ({@code *}{@code /*}, {@code image/*} or a type) covers the type {@code concrete}. */
    static boolean covers(String range, String concrete) {
        if (range.equals("*/*") || range.equals(concrete)) {
            return true;
        }
        return range.endsWith("/*") && concrete.startsWith(range.substring(0, range.length() - 1));
    }

    /**
     * This range written so that any HTTP library reads it: parameter values quoted unless they are tokens,
     * {@code q} last (only when below 1).
     */
    public String toHeader() {
        StringBuilder b = new StringBuilder(type);
        params.forEach((name, value) -> b.append("; ").append(name).append('=').append(quoteIfNeeded(value)));
        if (quality < 1) {
            b.append(";q=").append(new java.math.BigDecimal(Double.toString(quality)).stripTrailingZeros()
                    .toPlainString());
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return toHeader();
    }

    static String quoteIfNeeded(String value) {
        if (!value.isEmpty() && TOKEN.matcher(value).matches()) {
            return value;
        }
        return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static double quality(String value) {
        try {
            double q = Double.parseDouble(value);
            return q >= 0 && q <= 1 ? q : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static String unquote(String value) {
        if (value.length() < 2 || value.charAt(0) != '"' || value.charAt(value.length() - 1) != '"') {
            return value;
        }
        StringBuilder b = new StringBuilder(value.length());
        for (int i = 1; i < value.length() - 1; i++) {
            char c = value.charAt(i);
            if (c == '\\' && i + 1 < value.length() - 1) {
                c = value.charAt(++i);
            }
            b.append(c);
        }
        return b.toString();
    }

    /** Splits at {@code separator} outside double quotes (a backslash escapes the next character inside them). */
    static List<String> split(String text, char separator) {
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted && c == '\\' && i + 1 < text.length()) {
                current.append(c).append(text.charAt(++i));
                continue;
            }
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
