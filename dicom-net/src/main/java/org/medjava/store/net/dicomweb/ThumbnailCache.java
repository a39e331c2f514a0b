package org.medjava.store.net.dicomweb;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Thumbnails already made, by what was asked and the stored object's entity tag, up to a number of bytes (the least
 * recently used go first). A study list or a series strip asks for the same thumbnails again and again; a stored
 * object that changes has another entity tag, so an entry is never stale, only unused. Thumbnails run no filter
 * plugin (which could be replaced under the same name), only the store's own scaling.
 */
public final class ThumbnailCache {
    private final long capacity;
    private long size;
    private final LinkedHashMap<String, byte[]> entries = new LinkedHashMap<>(64, 0.75f, true);

    /** A cache of up to {@code capacity} bytes; 0 keeps nothing. */
    public ThumbnailCache(long capacity) {
        this.capacity = capacity;
    }

    synchronized byte[] get(String key) {
        return entries.get(key);
    }

    synchronized void put(String key, byte[] image) {
        if (image.length > capacity / 8) { // one image may not push out much of the rest
            return;
        }
        byte[] old = entries.put(key, image);
        size += image.length - (old == null ? 0 : old.length);
        var it = entries.entrySet().iterator();
        while (size > capacity && it.hasNext()) {
            Map.Entry<String, byte[]> eldest = it.next();
            size -= eldest.getValue().length;
            it.remove();
        }
    }

    /** The bytes held. */
    public synchronized long size() {
        return size;
    }
}
