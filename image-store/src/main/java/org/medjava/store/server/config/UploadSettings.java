package org.medjava.store.server.config;

import java.time.Duration;

/** How large uploads and plugin JARs may be, which uploads count as large and how many of those run at once. */
public record UploadSettings(long maxBytes, long largeBytes, int maxConcurrentLarge, Duration resumableExpiry,
                             long maxPluginBytes) {

    /**
     * The largest upload, in bytes: a larger {@code PUT /images/...}, STOW-RS request or resumable upload is refused
     * with 413, from {@code Content-Length} before the body is read (a resumable upload at its creation), or as soon as
     * a chunked body passes it.
     */
    static final Key MAX_BYTES = Key.of("medjava.upload.max-bytes", "1073741824");

    /**
     * Uploads at least this large, in bytes, by {@code Content-Length} or once a chunked body grows so large, count as
     * large.
     */
    static final Key LARGE_BYTES = Key.of("medjava.upload.large-bytes", "67108864");

    /**
     * Large uploads (see {@code medjava.upload.large-bytes}) at once; a further one ({@code PUT /images/...}, STOW-RS
     * by its {@code Content-Length}) is 503 with {@code Retry-After} (5 s) before its body is read. Smaller uploads
     * never wait.
     */
    static final Key MAX_CONCURRENT_LARGE = Key.of("medjava.upload.max-concurrent-large", "2");

    /**
     * How long a resumable upload (tus, {@code /uploads}) lives after its last chunk (or its creation), in hours;
     * fractions allowed, above 0. {@code Upload-Expires} says when; an expired upload is 410 and is removed by a
     * cleaner that runs every tenth of this (at most hourly) and at start.
     */
    static final Key RESUMABLE_EXPIRY = Key.of("medjava.upload.resumable-expiry-hours", "24");

    /** The largest filter plugin JAR accepted, in bytes. */
    static final Key MAX_PLUGIN_BYTES = Key.of("medjava.plugin.max-bytes", "16777216");

    public static UploadSettings from(SettingsSource source) {
        double hours = source.decimal(RESUMABLE_EXPIRY);
        if (!(hours > 0)) { // fractions allowed: tests use seconds' worth
            throw new SettingException(RESUMABLE_EXPIRY, hours, "write a number of hours above 0, e.g. 24 or 0.5");
        }
        return new UploadSettings(SettingsSource.atLeast(MAX_BYTES, source.whole(MAX_BYTES), 1),
                Math.max(1, source.whole(LARGE_BYTES)), Math.max(1, source.integer(MAX_CONCURRENT_LARGE)),
                Duration.ofMillis(Math.round(hours * 3_600_000)),
                SettingsSource.atLeast(MAX_PLUGIN_BYTES, source.whole(MAX_PLUGIN_BYTES), 1));
    }
}
