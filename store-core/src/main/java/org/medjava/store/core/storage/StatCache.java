package org.medjava.store.core.storage;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@link LocalFileStorage#stat} found for the files read lately, so a file read many times a second is not
 * looked up in the file system (a system call and its ETag worked out again) each time. The storage's own writes
 * say what changed ({@link #changed}) before they answer, so a read after a write's success sees the new file. An
 * entry is believed for {@link #MAX_AGE_NANOS} at most: a file changed behind the store's back (by hand, by another
 * process) is seen within that time, never later.
 *
 * <p>A lookup races a write: it may have read the old file's attributes just before the rename and want to keep
 * them just after the write said what changed. Every write counts itself first, and a lookup keeps what it found
 * only if no write counted in between ({@link #generation}), decided under the entry's lock, so an old entry never
 * outlives the write that replaced its file.
 */
final class StatCache {
    static final long MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Beyond this many files the cache starts over (each entry is a few hundred bytes). */
    private static final int MAX_ENTRIES = 65_536;

    private record Cached(StorageEntry entry, long at) {
    }

    private final ConcurrentHashMap<String, Cached> entries = new ConcurrentHashMap<>();
    private final AtomicLong writes = new AtomicLong();

    /** To be read before the file system is asked, and given back to {@link #keep}. */
    long generation() {
        return writes.get();
    }

    /** A regular file's entry seen less than {@link #MAX_AGE_NANOS} ago, or null. */
    StorageEntry get(String key) {
        Cached cached = entries.get(key);
        if (cached == null) {
            return null;
        }
        if (System.nanoTime() - cached.at > MAX_AGE_NANOS) {
            entries.remove(key, cached);
            return null;
        }
        return cached.entry;
    }

    /** Keeps what a lookup begun at {@code generation} found, unless a write came in between. */
    void keep(String key, StorageEntry entry, long generation) {
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        long now = System.nanoTime();
        entries.compute(key, (k, old) -> writes.get() == generation ? new Cached(entry, now) : old);
    }

    /** A write replaced or removed the file (or directory) at {@code key}. */
    void changed(String key) {
        writes.incrementAndGet();
        entries.remove(key);
    }
}
