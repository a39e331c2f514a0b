package org.medjava.store.net.dimse;

import java.util.ArrayList;
import java.util.List;

/** Splitting list settings: entries separated by commas (or newlines), blanks ignored. */
final class Settings {
    private Settings() {
    }

    static List<String> entries(String setting) {
        List<String> entries = new ArrayList<>();
        if (setting == null) {
            return entries;
        }
        for (String part : setting.split("[,\\n]")) {
            String p = part.trim();
            if (!p.isEmpty()) {
                entries.add(p);
            }
        }
        return entries;
    }
}
