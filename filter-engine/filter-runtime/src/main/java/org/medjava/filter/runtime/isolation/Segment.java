package org.medjava.filter.runtime.isolation;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.ShortBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Memory shared by a host and its filter worker: a file in {@code /dev/shm} (tmpfs, so it never reaches a disk)
 * mapped by both. The host writes the source raster, the worker filters and writes the result in place, so the
 * pixels never pass through the control socket. Grey words are in the machine's byte order (both sides are the
 * same machine). {@code MappedByteBuffer} keeps this on Java 17; one mapping holds up to 2 GiB.
 */
public final class Segment implements AutoCloseable {
    private static final long GRAIN = 1 << 20;

    private final Path file;
    private final FileChannel channel;
    private MappedByteBuffer bytes;
    private ShortBuffer words;

    private Segment(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /** The host's side: creates (or truncates) the file. */
    public static Segment create(Path file) throws IOException {
        return new Segment(file, FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING));
    }

    /** The worker's side: maps the file the host made. */
    public static Segment open(Path file) throws IOException {
        return new Segment(file, FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE));
    }

    public Path file() {
        return file;
    }

    /** The mapped size now. */
    public long size() {
        return bytes == null ? 0 : bytes.capacity();
    }

    /**
     * Makes at least {@code needed} bytes mapped: the host grows the file (in steps of 1 MiB), the worker maps what
     * the host says is there.
     *
     * @throws IOException also for more than 2 GiB, which one raster never needs from the filter API's limits
     */
    public void ensure(long needed) throws IOException {
        if (needed <= size()) {
            return;
        }
        long size = (needed + GRAIN - 1) / GRAIN * GRAIN;
        if (size > Integer.MAX_VALUE) {
            size = needed;
        }
        if (size > Integer.MAX_VALUE) {
            throw new IOException("a raster of " + needed + " bytes does not fit one shared segment (2 GiB)");
        }
        if (channel.size() < size) {
            // written, not just extended: tmpfs gives pages lazily, and a mapped write into a page a full /dev/shm
            // cannot give is a SIGBUS; written here, a full /dev/shm is an IOException naming it
            java.nio.ByteBuffer zeros = java.nio.ByteBuffer.allocate((int) Math.min(GRAIN, size));
            for (long at = channel.size(); at < size; at += zeros.capacity()) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), size - at));
                while (zeros.hasRemaining()) {
                    channel.write(zeros, at + zeros.position());
                }
            }
        }
        bytes = channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        bytes.order(ByteOrder.nativeOrder());
        words = bytes.duplicate().order(ByteOrder.nativeOrder()).asShortBuffer();
    }

    public void put(byte[] from, int offset, int length) {
        bytes.put(offset, from, offset, length);
    }

    public void get(byte[] into, int offset, int length) {
        bytes.get(offset, into, offset, length);
    }

    /** Words at word index {@code offset}. */
    public void put(short[] from, int offset, int length) {
        words.put(offset, from, offset, length);
    }

    public void get(short[] into, int offset, int length) {
        words.get(offset, into, offset, length);
    }

    @Override
    public void close() throws IOException {
        channel.close(); // the mapping itself goes with the buffer
    }
}
