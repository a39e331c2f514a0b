package org.medjava.viewer.model;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** The viewer's per-user settings files (recent servers, user presets): properties, optional, never fatal. */
final class SettingsFiles {
    private SettingsFiles() {
    }

    /** The file's properties; none when it is missing or unreadable (the viewer starts without those settings). */
    static Properties load(Path file) {
        Properties p = new Properties();
        if (Files.isRegularFile(file)) {
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            } catch (IOException | IllegalArgumentException e) {
                return new Properties(); // unreadable or malformed: as if absent
            }
        }
        return p;
    }
}
