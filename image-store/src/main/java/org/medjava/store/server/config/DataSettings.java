package org.medjava.store.server.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The data directory and what goes into it at the first start; where the start banner goes; how long a backup may
 * pause writes.
 */
public record DataSettings(Path dataDir, Optional<Path> seedImages, Optional<Path> seedPlugins,
                           Optional<Path> bannerFile, Duration backupMaxPause) {

    /**
     * The data directory: the H2 index ({@code index/}), {@code images/}, {@code plugins/}, the accounts
     * ({@code users.properties}), {@code session.key}, {@code logs/} and {@code work/} (staging, journal); a relative
     * path is taken from the store's working directory. One store per directory: a second is refused at start.
     * {@code ./medjava start} sets it from {@code MEDJAVA_DATA}.
     */
    static final Key DATA_DIR = Key.of("medjava.data-dir", "data");

    /**
     * A directory whose files are stored under {@code samples/} on the first start (in a cluster: on its first start,
     * so set it on one node only); {@code ./medjava start} gives the sample images.
     */
    static final Key SEED_IMAGES = Key.of("medjava.seed.images");

    /**
     * A directory whose plugin JARs are installed on the first start (as {@code <Plugin-Id>.jar});
     * {@code ./medjava start} gives the eight built plugins. In a cluster, set it on one node only.
     */
    static final Key SEED_PLUGINS = Key.of("medjava.seed.plugins");

    /**
     * Where the start banner goes instead of standard output ({@code ./medjava start} sets it, prints the file once
     * the store is ready, and deletes it: the first start's admin password never reaches a log).
     */
    static final Key BANNER_FILE = Key.of("medjava.banner.file");

    /**
     * The longest a backup pauses writes for its snapshot, in seconds (at least 1): a snapshot that would take longer
     * is given up, writes continue and the backup fails saying so; a write never waits more than twice this (then 503,
     * nothing changed).
     */
    static final Key BACKUP_MAX_PAUSE = Key.of("medjava.backup.max-pause-seconds", "30");

    public static DataSettings from(SettingsSource source) {
        return new DataSettings(path(source, DATA_DIR).orElseThrow(), path(source, SEED_IMAGES),
                path(source, SEED_PLUGINS), path(source, BANNER_FILE).map(p -> p.toAbsolutePath().normalize()),
                Duration.ofSeconds(Math.max(1, source.integer(BACKUP_MAX_PAUSE))));
    }

    public DataSettings {
        dataDir = dataDir.toAbsolutePath().normalize();
    }

    /** A path setting; blank counts as unset. */
    static Optional<Path> path(SettingsSource source, Key key) {
        return source.text(key).filter(s -> !s.isBlank()).map(s -> {
            try {
                return Path.of(s);
            } catch (InvalidPathException e) {
                throw new SettingException(key, s, "write a file system path (" + e.getReason() + ")");
            }
        });
    }

    public Path imagesDir() {
        return dataDir.resolve("images");
    }

    public Path pluginsDir() {
        return dataDir.resolve("plugins");
    }

    /** {@code <data-dir>/logs}: medjava.log, access.log, audit.log. */
    public Path logsDir() {
        return dataDir.resolve("logs");
    }
}
