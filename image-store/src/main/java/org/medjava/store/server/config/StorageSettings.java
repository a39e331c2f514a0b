package org.medjava.store.server.config;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;
import org.medjava.store.core.storage.S3Settings;

/**
 * Where the objects live (files under the data directory, or S3), the free space writes leave on the disk, and the
 * node-local cache of objects read from S3.
 */
public record StorageSettings(Optional<S3Settings> s3, long minFreeBytes, long cacheBytes,
                              Optional<java.nio.file.Path> cacheDir) {

    /**
     * Where the objects live: {@code files} ({@code <data-dir>/images}: staged, forced to disk, renamed into place) or
     * {@code s3} (S3-compatible object storage, {@code medjava.storage.s3.*}; a cluster needs it).
     */
    static final Key STORAGE = Key.of("medjava.storage", "files");

    /**
     * The free space, in bytes, the store keeps on the disk of its data directory (with S3, of {@code work/staging},
     * where bodies are staged): below it every write is refused before it starts (HTTP 507, C-STORE A700), and so is a
     * PUT whose {@code Content-Length} would take the disk below it; reads, renderings, queries and deletes go on. 0
     * turns it off.
     */
    static final Key MIN_FREE_BYTES = Key.of("medjava.storage.min-free-bytes", "1073741824");

    /**
     * The S3 endpoint, an {@code http://} or {@code https://} URL (e.g. {@code http://objects.example.org:9000});
     * required with {@code medjava.storage=s3}. Path-style addressing.
     */
    static final Key S3_ENDPOINT = Key.of("medjava.storage.s3.endpoint");

    /** The signing region; unset: {@code us-east-1}. */
    static final Key S3_REGION = Key.of("medjava.storage.s3.region");

    /** The bucket; required with {@code medjava.storage=s3}, and it must exist. */
    static final Key S3_BUCKET = Key.of("medjava.storage.s3.bucket");

    /**
     * The key prefix: objects are keyed {@code <prefix>/<store path>}, so the bucket mirrors the HTTP paths and the
     * index can be rebuilt from it alone. May be empty.
     */
    static final Key S3_PREFIX = Key.of("medjava.storage.s3.prefix", "images");

    /** The S3 access key; required with {@code medjava.storage=s3}. */
    static final Key S3_ACCESS_KEY = Key.of("medjava.storage.s3.access-key");

    /** The S3 secret key; required with {@code medjava.storage=s3}; never printed. */
    static final Key S3_SECRET_KEY = Key.of("medjava.storage.s3.secret-key");

    /**
     * With S3 storage: the bytes of the objects read lately that a node keeps copies of on its disk (least recently
     * used dropped first), so a read of one asks the object store nothing and is sent from the local file; objects
     * larger than a quarter of it are not copied. A write on any node of a cluster drops every node's copy before
     * it is acknowledged. 0 turns the cache off.
     */
    static final Key CACHE_MAX_BYTES = Key.of("medjava.storage.cache.max-bytes", "1073741824");

    /**
     * The directory of the object cache's copies (emptied at every start); unset: {@code <data-dir>/work/object-cache}.
     */
    static final Key CACHE_DIR = Key.of("medjava.storage.cache.dir");

    public static StorageSettings from(SettingsSource source) {
        String kind = source.string(STORAGE);
        String word = kind.trim().toLowerCase(Locale.ROOT);
        if (!word.equals("files") && !word.equals("s3")) {
            throw new SettingException(STORAGE, kind, "use files or s3");
        }
        // S3Settings checks the object storage keys itself, naming the one missing or malformed
        Optional<S3Settings> s3 = word.equals("s3") ? Optional.of(new S3Settings(endpoint(source),
                source.text(S3_REGION).orElse(null), source.text(S3_BUCKET).orElse(null),
                source.text(S3_PREFIX).orElse(""), source.text(S3_ACCESS_KEY).orElse(null),
                source.text(S3_SECRET_KEY).orElse(null))) : Optional.empty();
        return new StorageSettings(s3, source.whole(MIN_FREE_BYTES), source.whole(CACHE_MAX_BYTES),
                DataSettings.path(source, CACHE_DIR).map(p -> p.toAbsolutePath().normalize()));
    }

    private static URI endpoint(SettingsSource source) {
        return source.parsed(S3_ENDPOINT, s -> s.isBlank() ? null : URI.create(s.trim()),
                "write an http:// or https:// URL, e.g. http://objects.example.org:9000");
    }

    /** Whether the objects live in S3-compatible object storage rather than under the data directory. */
    public boolean s3Storage() {
        return s3.isPresent();
    }

    @Override
    public String toString() { // never the secret key
        return "StorageSettings[" + s3.map(s -> "s3 " + s.endpoint() + " bucket " + s.bucket()).orElse("files")
                + ", minFreeBytes=" + minFreeBytes + ", cacheBytes=" + cacheBytes + "]";
    }
}
