package org.medjava.store.server.front;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.IllegalReferenceCountException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of small stored files the front has read lately, in direct memory, so that reading one again costs the
 * stat that says it is unchanged and no open, read or close: a viewer asks for the same few hundred objects of a
 * study again and again. An entry is used only while its ETag is the file's current one (every write gives a
 * new one), so a file replaced by any path — this store, another node, a hand on the disk — is read afresh. At
 * most {@code maxBytes} are held; beyond, entries are dropped in no particular order.
 */
final class SmallFileCache {
    private final long maxBytes;
    private final int maxFileBytes;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong held = new AtomicLong();

    private record Entry(String etag, ByteBuf bytes) {
    }

    /**
     * @param maxBytes     what all entries may hold together (0: no cache)
     * @param maxFileBytes the largest file kept
     */
    SmallFileCache(long maxBytes, int maxFileBytes) {
        this.maxBytes = maxBytes;
        this.maxFileBytes = maxFileBytes;
    }

    /** Opens the file when its bytes are not here. */
    @FunctionalInterface
    interface Opener {
        FileChannel open() throws IOException;
    }

    /**
     * The whole file's bytes (a buffer of the caller's to release), from the cache when {@code etag} is the one
     * cached, else read from the file (of {@code size} bytes) and kept for the next reader.
     */
    ByteBuf bytes(String key, String etag, long size, Opener file, ByteBufAllocator alloc) throws IOException {
        Entry entry = entries.get(key);
        if (entry != null && entry.etag().equals(etag)) {
            try {
                return entry.bytes().retainedDuplicate();
            } catch (IllegalReferenceCountException dropped) {
                // dropped by another thread just now: read it again
            }
        }
        // kept buffers live long: not from the pool, whose chunks they would pin
        ByteBuf read = read(file.open(), 0, size, UnpooledByteBufAllocator.DEFAULT);
        keep(key, etag, read);
        return read;
    }

    /** Whether a file of this size may be served from here. */
    boolean holds(long size) {
        return maxBytes > 0 && size <= maxFileBytes;
    }

    private void keep(String key, String etag, ByteBuf read) {
        Entry fresh = new Entry(etag, read.retainedDuplicate()); // readers only read: no read-only view to copy
        Entry old = entries.put(key, fresh);
        held.addAndGet(read.readableBytes());
        if (old != null) {
            drop(old);
        }
        for (Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
             held.get() > maxBytes && it.hasNext(); ) {
            Map.Entry<String, Entry> victim = it.next();
            if (entries.remove(victim.getKey(), victim.getValue())) {
                drop(victim.getValue());
            }
        }
    }

    private void drop(Entry entry) {
        held.addAndGet(-entry.bytes().readableBytes());
        entry.bytes().release();
    }

    /** Drops every entry (the application stops). */
    void clear() {
        for (String key : entries.keySet()) {
            Entry entry = entries.remove(key);
            if (entry != null) {
                drop(entry);
            }
        }
    }

    /** {@code length} bytes of a file from {@code offset}, in a buffer of the caller's. */
    static ByteBuf read(FileChannel channel, long offset, long length, ByteBufAllocator alloc) throws IOException {
        ByteBuf content = alloc.directBuffer((int) length);
        try {
            readInto(channel, offset, (int) length, content);
            return content;
        } catch (IOException | RuntimeException e) {
            content.release();
            throw e;
        }
    }

    /** {@code length} bytes of a file from {@code offset}, written into {@code into}. */
    static void readInto(FileChannel channel, long offset, int length, ByteBuf into) throws IOException {
        for (long at = offset, end = offset + length; at < end; ) {
            int n = into.writeBytes(channel, at, (int) (end - at));
            if (n < 0) {
                throw new IOException("the file ended early (it was replaced while it was read)");
            }
            at += n;
        }
    }
}
