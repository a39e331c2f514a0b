package org.medjava.store.core.index;

import java.util.regex.Pattern;

/** The rule for a label's text: what a project's name may be too. */
public final class Labels {
    /** The longest label. */
    public static final int MAX_LENGTH = 64;
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_-]{1," + MAX_LENGTH + "}");

    private Labels() {
    }

    /** Whether {@code text} may be a label: letters, digits, {@code _} and {@code -}, at most 64. */
    public static boolean valid(String text) {
        return text != null && LABEL.matcher(text).matches();
    }

    /** {@code text} when it may be a label. */
    public static String check(String text) {
        if (!valid(text)) {
            throw new IllegalArgumentException("a label is 1 to " + MAX_LENGTH + " letters, digits, _ or -; not \""
                    + (text == null ? "" : text.length() > 80 ? text.substring(0, 80) + "…" : text) + "\"");
        }
        return text;
    }
}
