package org.medjava.viewer.model;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The servers a user connected to, newest first, with the user name last used for each; never passwords. Kept in
 * {@code viewer.properties} of the viewer's settings directory.
 */
public final class RecentServers {
    public static final int MAX = 8;

    /** One remembered server. */
    public record Server(String url, String user) {
        @Override
        public String toString() {
            return url;
        }
    }

    private final Path file;

    public RecentServers(Path file) {
        this.file = file;
    }

    /** {@code ~/.medjava/viewer.properties}, or under {@code -Dmedjava.viewer.home}. */
    public static RecentServers standard() {
        return new RecentServers(settingsDirectory().resolve("viewer.properties"));
    }

    /** The viewer's per-user settings directory: {@code ~/.medjava}, or {@code -Dmedjava.viewer.home}. */
    public static Path settingsDirectory() {
        String home = System.getProperty("medjava.viewer.home");
        return home != null ? Path.of(home) : Path.of(System.getProperty("user.home"), ".medjava");
    }

    public List<Server> list() {
        Properties p = load();
        List<Server> servers = new ArrayList<>();
        for (int i = 0; i < MAX; i++) {
            String url = p.getProperty("server." + i + ".url");
            if (url != null && !url.isBlank()) {
                servers.add(new Server(url, p.getProperty("server." + i + ".user", "")));
            }
        }
        return servers;
    }

    /** Moves {@code server} to the front (dropping the oldest beyond {@link #MAX}). */
    public void remember(Server server) throws IOException {
        List<Server> servers = new ArrayList<>(list());
        servers.removeIf(s -> s.url().equals(server.url()));
        servers.add(0, server);
        Properties p = new Properties();
        for (int i = 0; i < Math.min(MAX, servers.size()); i++) {
            p.setProperty("server." + i + ".url", servers.get(i).url());
            p.setProperty("server." + i + ".user", servers.get(i).user());
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            p.store(out, "MedJava viewer: recent servers (no passwords)");
        }
    }

    private Properties load() {
        return SettingsFiles.load(file);
    }
}
