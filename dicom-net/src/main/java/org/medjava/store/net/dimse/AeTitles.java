package org.medjava.store.net.dimse;

/** The rules for Application Entity titles (PS3.5 AE: 1 to 16 characters, no backslash or control characters). */
public final class AeTitles {
    public static final int MAX_LENGTH = 16;

    private AeTitles() {
    }

    /**
     * @return the title without leading and trailing spaces (which are not significant)
     * @throws IllegalArgumentException when it is empty, too long or has a forbidden character
     */
    public static String check(String title) {
        String t = title == null ? "" : title.trim();
        if (t.isEmpty() || t.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("AE title \"" + t + "\" must have 1 to " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '\\') {
                throw new IllegalArgumentException("AE title \"" + t + "\" has a character not allowed in AE titles");
            }
        }
        return t;
    }
}
