package org.medjava.store.net.dimse;

import java.util.ArrayList;
import java.util.List;

/**
 * Splitting list settings: entries separated by commas (or newlines), blanks ignored; a comma inside parentheses
 * belongs to its entry ({@code AE=host:port deidentify(a, b)}).
 */
final class Settings {
    private Settings() {
    }

    static List<String> entries(String setting) {
        List<String> entries = new ArrayList<>();
        if (setting == null) {
            return entries;
        }
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= setting.length(); i++) {
            char c = i == setting.length() ? '\n' : setting.charAt(i);
            depth += c == '(' ? 1 : c == ')' && depth > 0 ? -1 : 0;
            if (c == '\n' || c == ',' && depth == 0) {
                String p = setting.substring(start, i).trim();
                if (!p.isEmpty()) {
                    entries.add(p);
                }
                start = i + 1;
                depth = 0;
            }
        }
        return entries;
    }
}
