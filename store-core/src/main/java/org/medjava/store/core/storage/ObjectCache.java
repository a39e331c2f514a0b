package org.medjava.store.core.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Copies of objects on the local disk, least recently used dropped first beyond {@code maxBytes}: one file per
 * version, written once and never changed, so a reader that opened one goes on reading the version it was told of
 * even if the entry is dropped meanwhile (the file is unlinked, its bytes stay until closed).
 *
 * <p>An object changed is {@linkplain #invalidate invalidated}: its entry goes, and a copy being made of it now is
 * not kept. Every invalidation counts itself first, in one of {@link #STRIPES} counters by key (all of them for
 * {@link #invalidateAll}); a copy begun at one count is kept only if no invalidation of its stripe came before it
 * is entered, decided under the cache's lock, so a copy of the old version never outlives the change that
 * replaced it. Nothing here decides whether the copies may be believed: see {@link CacheCoherence}.
 */
public final class ObjectCache {
    static final int STRIPES = 256;

    /** One cached version: what the storage said of it, and where its copy is. */
    public record Entry(StorageEntry object, Path file) {
    }

    /** A cached version opened for reading: the channel is the caller's to close. */
    public record Open(StorageEntry object, FileChannel channel) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    private final Path dir;
    private final long maxBytes;
    private final long maxObjectBytes;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(256, 0.75f, true);
    private final AtomicLongArray invalidations = new AtomicLongArray(STRIPES);
    private final AtomicLong names = new AtomicLong();
    private long held;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong evictions = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /**
     * Starts empty in {@code dir}, removing what an earlier run left there (the changes made meanwhile were not
     * heard of).
     *
     * @param maxBytes       what the copies may take together
     * @param maxObjectBytes the largest object copied
     */
    public ObjectCache(Path dir, long maxBytes, long maxObjectBytes) throws IOException {
        this.dir = Files.createDirectories(dir);
        this.maxBytes = maxBytes;
        this.maxObjectBytes = Math.min(maxObjectBytes, maxBytes);
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir)) {
            for (Path p : old) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Whether an object of this size is copied here. */
    public boolean holds(long size) {
        return maxObjectBytes > 0 && size <= maxObjectBytes;
    }

    /** The cached version of {@code key}, opened (counted as a hit), or empty. */
    public Optional<Open> open(String key) {
        Entry entry;
        synchronized (this) {
            entry = entries.get(key);
        }
        if (entry != null) {
            try {
                Open open = new Open(entry.object(), FileChannel.open(entry.file(), StandardOpenOption.READ));
                hits.incrementAndGet();
                return Optional.of(open);
            } catch (NoSuchFileException dropped) {
                // dropped just now: none
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Optional.empty();
    }

    /** A read had to ask the storage (counted once per read, wherever it first looked here). */
    public void missed() {
        misses.incrementAndGet();
    }

    /** The cached object's metadata alone, or empty (not counted). */
    public synchronized Optional<StorageEntry> peek(String key) {
        Entry entry = entries.get(key);
        return entry == null ? Optional.empty() : Optional.of(entry.object());
    }

    /** To be read before the storage is asked for the object a copy is made of, and given to {@link #keep}. */
    public long generation(String key) {
        return invalidations.get(stripe(key));
    }

    /**
     * Copies {@code body} (the whole of {@code object}) into a new file and enters it, unless {@code key} was
     * invalidated since {@code generation}; the file either way (read it, then {@link #release} it if not kept).
     */
    public Copy copy(String key, StorageEntry object, InputStream body, long generation) throws IOException {
        Path file = dir.resolve(names.incrementAndGet() + ".obj");
        try {
            long n = Files.copy(body, file);
            if (n != object.size()) {
                throw new IOException("the object " + key + " ended after " + n + " of its " + object.size()
                        + " bytes");
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        return new Copy(file, keep(key, new Entry(object, file), generation));
    }

    /** A copy made: its file, and whether the cache keeps it (else the caller removes it after reading it). */
    public record Copy(Path file, boolean kept) {
    }

    private boolean keep(String key, Entry entry, long generation) {
        List<Path> gone = new ArrayList<>();
        synchronized (this) {
            if (invalidations.get(stripe(key)) != generation) {
                return false;
            }
            Entry old = entries.put(key, entry);
            held += entry.object().size();
            if (old != null) {
                held -= old.object().size();
                gone.add(old.file());
            }
            for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator(); held > maxBytes
                    && it.hasNext(); ) {
                Entry eldest = it.next().getValue();
                if (eldest == entry) {
                    continue;
                }
                it.remove();
                held -= eldest.object().size();
                gone.add(eldest.file());
                evictions.incrementAndGet();
            }
        }
        gone.forEach(ObjectCache::release);
        return true;
    }

    /** The object at {@code key} changed: its copy goes, and none begun before now is kept. */
    public void invalidate(String key) {
        Entry old;
        synchronized (this) {
            invalidations.incrementAndGet(stripe(key));
            old = entries.remove(key);
            if (old != null) {
                held -= old.object().size();
            }
        }
        if (old != null) {
            dropped.incrementAndGet();
            release(old.file());
        }
    }

    /** Any object may have changed (this node missed what it should have heard): every copy goes. */
    public void invalidateAll() {
        List<Entry> old;
        synchronized (this) {
            for (int i = 0; i < STRIPES; i++) {
                invalidations.incrementAndGet(i);
            }
            old = new ArrayList<>(entries.values());
            entries.clear();
            held = 0;
        }
        dropped.addAndGet(old.size());
        old.forEach(e -> release(e.file()));
    }

    /** Removes a copy's file (a reader that has it open reads on). */
    public static void release(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a file left in the cache directory: removed at the next start
        }
    }

    /** What the cache holds and did since the start. */
    public record Stats(long bytes, long entries, long maxBytes, long hits, long misses, long evictions,
                        long invalidated) {
    }

    public synchronized Stats stats() {
        return new Stats(held, entries.size(), maxBytes, hits.get(), misses.get(), evictions.get(), dropped.get());
    }

    private static int stripe(String key) {
        return (key.hashCode() & 0x7fffffff) % STRIPES;
    }
}
