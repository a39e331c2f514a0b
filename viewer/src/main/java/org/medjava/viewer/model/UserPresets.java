package org.medjava.viewer.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.medjava.codec.dicom.Window;

/**
 * Window presets the user saved, per modality, in {@code presets.properties} of the viewer's settings directory
 * (beside the recent servers): {@code CT.1.name=My lung}, {@code CT.1.center=-500}, {@code CT.1.width=1600}.
 */
public final class UserPresets {
    public static final int MAX_PER_MODALITY = 20;
    private final Path file;

    public UserPresets(Path file) {
        this.file = file;
    }

    /** {@code presets.properties} in the settings directory of {@link RecentServers#standard()}. */
    public static UserPresets standard() {
        return new UserPresets(RecentServers.settingsDirectory().resolve("presets.properties"));
    }

    public Path file() {
        return file;
    }

    /** The presets saved for {@code modality}, in the order saved. */
    public List<WindowLevel.Preset> list(String modality) {
        Properties p = load();
        String key = key(modality);
        List<WindowLevel.Preset> out = new ArrayList<>();
        for (int i = 1; i <= MAX_PER_MODALITY; i++) {
            String name = p.getProperty(key + "." + i + ".name");
            if (name == null || name.isBlank()) {
                continue;
            }
            try {
                out.add(new WindowLevel.Preset(name, new Window(Double.parseDouble(p.getProperty(key + "." + i
                        + ".center")), Double.parseDouble(p.getProperty(key + "." + i + ".width")))));
            } catch (RuntimeException e) {
                // a hand-edited entry that does not parse is skipped, the others still load
            }
        }
        return out;
    }

    /** Saves {@code preset} for {@code modality}, replacing one of the same name. */
    public void save(String modality, WindowLevel.Preset preset) throws IOException {
        if (preset.name() == null || preset.name().isBlank()) {
            throw new IllegalArgumentException("a preset needs a name");
        }
        List<WindowLevel.Preset> presets = new ArrayList<>(list(modality));
        int same = indexOf(presets, preset.name());
        if (same >= 0) {
            presets.set(same, preset);
        } else if (presets.size() >= MAX_PER_MODALITY) {
            throw new IOException("at most " + MAX_PER_MODALITY + " presets per modality; delete one first");
        } else {
            presets.add(preset);
        }
        store(modality, presets);
    }

    /** Deletes the preset named {@code name} of {@code modality}; false when there was none. */
    public boolean delete(String modality, String name) throws IOException {
        List<WindowLevel.Preset> presets = new ArrayList<>(list(modality));
        int i = indexOf(presets, name);
        if (i < 0) {
            return false;
        }
        presets.remove(i);
        store(modality, presets);
        return true;
    }

    private static int indexOf(List<WindowLevel.Preset> presets, String name) {
        for (int i = 0; i < presets.size(); i++) {
            if (presets.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private void store(String modality, List<WindowLevel.Preset> presets) throws IOException {
        Properties p = load();
        String key = key(modality);
        p.stringPropertyNames().stream().filter(k -> k.startsWith(key + ".")).toList().forEach(p::remove);
        for (int i = 0; i < presets.size(); i++) {
            WindowLevel.Preset preset = presets.get(i);
            p.setProperty(key + "." + (i + 1) + ".name", preset.name());
            p.setProperty(key + "." + (i + 1) + ".center", Double.toString(preset.window().center()));
            p.setProperty(key + "." + (i + 1) + ".width", Double.toString(preset.window().width()));
        }
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "presets", ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
            p.store(out, "MedJava viewer: user window presets per modality");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The modality code as a key: upper case letters and digits, "OTHER" when blank. */
    private static String key(String modality) {
        String m = modality == null ? "" : modality.trim().toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "");
        return m.isEmpty() ? "OTHER" : m;
    }

    private Properties load() {
        return SettingsFiles.load(file);
    }
}
