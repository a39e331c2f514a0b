package org.medjava.store.core.storage;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Object storage over the network (S3) with a node-local copy of the objects read lately ({@link ObjectCache}): a
 * read of a cached object asks the network nothing, and the front can send it from the local file (sendfile).
 *
 * <p>Never stale after a write acknowledged anywhere: this node's writes invalidate the copy before they return,
 * and tell the other nodes through the {@link CacheCoherence}, which returns only once none of them can serve the
 * older version; a copy is served only while the coherence says the cache may be believed. A copy is made by a
 * plain read of a whole object (one GetObject: the object and its body together), and kept only if no
 * invalidation of it came while it was being made.
 */
public final class CachedStorage implements ObjectStorage {
    private final ObjectStorage storage;
    private final ObjectCache cache;
    private volatile CacheCoherence coherence = CacheCoherence.UNTRUSTED;

    public CachedStorage(ObjectStorage storage, ObjectCache cache) {
        this.storage = storage;
        this.cache = cache;
    }

    /** How this node hears of the other writers' changes (until set, nothing is served from the cache). */
    public void coherence(CacheCoherence coherence) {
        this.coherence = coherence;
    }

    /** The cache, for its statistics and for the coherence's invalidations. */
    public ObjectCache cache() {
        return cache;
    }

    /** The object storage below the cache. */
    public ObjectStorage storage() {
        return storage;
    }

    /** A copy this node may serve now, opened, with what the storage said of it; empty when there is none. */
    @Override
    public Optional<ObjectCache.Open> cached(String key) {
        return coherence.trusted() ? cache.open(key) : Optional.empty();
    }

    @Override
    public Optional<StorageEntry> stat(String key) throws IOException {
        if (coherence.trusted()) {
            Optional<StorageEntry> cached = cache.peek(key);
            if (cached.isPresent()) {
                return cached;
            }
        }
        return storage.stat(key);
    }

    @Override
    public List<StorageEntry> list(String key) throws IOException {
        return storage.list(key);
    }

    @Override
    public InputStream open(String key, long offset, long length) throws IOException {
        Optional<ObjectCache.Open> cached = cached(key);
        if (cached.isPresent()) {
            FileChannel channel = cached.get().channel();
            if (offset + length <= channel.size()) {
                return new LimitedInputStream(Channels.newInputStream(channel.position(offset)), length);
            }
            channel.close();
        }
        return storage.open(key, offset, length);
    }

    /** A cached copy, else one GetObject whose body is copied here while the caller reads it from the copy. */
    @Override
    public Optional<ObjectRead> read(String key) throws IOException {
        Optional<ObjectCache.Open> cached = cached(key);
        if (cached.isPresent()) {
            ObjectCache.Open open = cached.get();
            return Optional.of(new ObjectRead(open.object(), Channels.newInputStream(open.channel())));
        }
        cache.missed();
        long generation = cache.generation(key);
        Optional<ObjectRead> read = storage.read(key);
        if (read.isEmpty() || !cache.holds(read.get().entry().size())) {
            return read;
        }
        ObjectCache.Copy copy;
        try (ObjectRead r = read.get()) {
            copy = cache.copy(key, r.entry(), r.body(), generation);
        }
        InputStream body = Files.newInputStream(copy.file());
        if (!copy.kept()) {
            Path file = copy.file();
            body = new FilterInputStream(body) {
                @Override
                public void close() throws IOException {
                    super.close();
                    ObjectCache.release(file);
                }
            };
        }
        return Optional.of(new ObjectRead(read.get().entry(), body));
    }

    @Override
    public LocalCopy localCopy(String key) throws IOException {
        return storage.localCopy(key);
    }

    @Override
    public Path newStagingFile(String prefix) throws IOException {
        return storage.newStagingFile(prefix);
    }

    @Override
    public StagedBody stage(Path stagingFile) throws IOException {
        return storage.stage(stagingFile);
    }

    /** Installs below, then invalidates the copy here and on the other nodes before returning. */
    @Override
    public StorageEntry install(String key, StagedBody body, Consumer<StorageEntry> onVisible) throws IOException {
        try {
            return storage.install(key, body, onVisible);
        } finally {
            changed(key); // also after a failure: it may have replaced the object before failing
        }
    }

    @Override
    public boolean delete(String key) throws IOException {
        try {
            return storage.delete(key);
        } finally {
            changed(key);
        }
    }

    private void changed(String key) throws IOException {
        cache.invalidate(key);
        coherence.changed(key);
    }

    @Override
    public void walk(String key, Consumer<StorageEntry> visitor) throws IOException {
        storage.walk(key, visitor);
    }

    @Override
    public void checkAvailable() throws IOException {
        storage.checkAvailable();
    }

    @Override
    public String describe() {
        return storage.describe() + ", a local cache of up to " + cache.stats().maxBytes() + " bytes";
    }

    @Override
    public void close() {
        cache.invalidateAll();
        storage.close();
    }
}
