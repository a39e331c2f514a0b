package org.medjava.viewer.series;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * A least-recently-used cache bounded by the bytes its values hold (as {@code weigher} estimates them), not by
 * their count: a stack of 4096² radiographs and one of 512² CT slices get the same memory. The value just put is
 * never evicted, so one value larger than the budget is still kept (alone) for the image on screen. Thread-safe.
 */
public final class ByteBoundedCache<K, V> {
    private final long maxBytes;
    private final ToLongFunction<V> weigher;
    private final LinkedHashMap<K, Entry<V>> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private long evictions;

    private record Entry<V>(V value, long bytes) {
    }

    public ByteBoundedCache(long maxBytes, ToLongFunction<V> weigher) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("a cache needs a positive budget, not " + maxBytes + " bytes");
        }
        this.maxBytes = maxBytes;
        this.weigher = weigher;
    }

    /** The value, marking it recently used; null when absent. */
    public synchronized V get(K key) {
        Entry<V> e = entries.get(key);
        return e == null ? null : e.value();
    }

    public synchronized boolean contains(K key) {
        return entries.containsKey(key);
    }

    /** Stores {@code value}, then evicts the least recently used others until the total fits the budget. */
    public synchronized void put(K key, V value) {
        long size = Math.max(0, weigher.applyAsLong(value));
        Entry<V> old = entries.remove(key);
        if (old != null) {
            bytes -= old.bytes();
        }
        entries.put(key, new Entry<>(value, size));
        bytes += size;
        Iterator<Map.Entry<K, Entry<V>>> it = entries.entrySet().iterator();
        while (bytes > maxBytes && it.hasNext()) {
            Map.Entry<K, Entry<V>> eldest = it.next();
            if (eldest.getKey().equals(key)) {
                break; // only the newest is left
            }
            bytes -= eldest.getValue().bytes();
            it.remove();
            evictions++;
        }
    }

    public synchronized void clear() {
        entries.clear();
        bytes = 0;
    }

    /** The bytes held now (never above the budget unless a single value is larger). */
    public synchronized long bytes() {
        return bytes;
    }

    public synchronized int size() {
        return entries.size();
    }

    public synchronized long evictions() {
        return evictions;
    }

    public long maxBytes() {
        return maxBytes;
    }
}
