package org.medjava.store.core.memory;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads files in pieces of at most {@value #PIECE} bytes. A file stream is a channel: a read into a large heap array
 * makes the JDK copy through a temporary direct buffer as large as the read, and it keeps that buffer cached for the
 * thread ({@code jdk.nio.maxCachedBufferSize} is unlimited by default): {@code Files.readAllBytes} of a 1 GiB object
 * on a request thread leaves 1 GiB of native memory behind it, outside the heap. Bounded reads keep those buffers
 * small.
 */
public final class SmallReads {

    /** The largest single read handed to the file's channel. */
    public static final int PIECE = 1 << 16;

    private SmallReads() {
    }

    /** A buffered stream of the file whose reads from the channel never exceed {@link #PIECE} bytes. */
    public static InputStream open(Path file) throws IOException {
        return new BufferedInputStream(bounded(Files.newInputStream(file)), PIECE);
    }

    /** The whole file, read piece by piece into one array of its size. */
    public static byte[] readAllBytes(Path file) throws IOException {
        long size = Files.size(file);
        if (size > Integer.MAX_VALUE - 8) {
            throw new IOException(file.getFileName() + " is too large to hold in memory (" + size + " bytes)");
        }
        try (InputStream in = bounded(Files.newInputStream(file))) {
            byte[] all = new byte[(int) size];
            int n = in.readNBytes(all, 0, all.length);
            return n < all.length ? java.util.Arrays.copyOf(all, n) : all; // shorter if cut while read
        }
    }

    /** {@code in} with every read cut to at most {@link #PIECE} bytes. */
    public static InputStream bounded(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, PIECE));
            }
        };
    }
}
