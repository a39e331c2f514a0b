package org.medjava.store.server.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * A valid 8-bit grayscale PNG of any size, generated as it is read (nothing of it is held in memory): noise pixels,
 * one stored (uncompressed) deflate block and one IDAT chunk per row, so its size is known in advance and it is as
 * large on the wire as its pixels. The same width, height and seed always give the same bytes.
 */
public final class GeneratedPng extends InputStream {

    private static final byte[] SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private final int width;
    private final int height;
    private final long seed;
    private final Adler32 adler = new Adler32();
    private byte[] chunk;
    private int at;
    private int row = -1; // -1: signature and header next; height: IEND next
    private boolean ended;
    private long produced;
    private long triggerAt = Long.MAX_VALUE;
    private Runnable trigger;

    GeneratedPng(int width, int height, long seed) {
        if (width < 1 || width + 1 > 65_535 || height < 1) {
            throw new IllegalArgumentException(width + "x" + height);
        }
        this.width = width;
        this.height = height;
        this.seed = seed;
    }

    /** The whole file in memory (for small images). */
    public static byte[] bytes(int width, int height, long seed) {
        try (GeneratedPng png = new GeneratedPng(width, height, seed)) {
            return png.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The length of the file in bytes. */
    static long size(int width, int height) {
        long idatPerRow = 12 + 5 + width + 1;
        return SIGNATURE.length + 12 + 13 + height * idatPerRow + 2 + 4 + 12;
    }

    /** Runs {@code action} (on the reading thread) once {@code bytes} bytes have been read. */
    GeneratedPng onceRead(long bytes, Runnable action) {
        this.triggerAt = bytes;
        this.trigger = action;
        return this;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (chunk == null || at == chunk.length) {
            if (!next()) {
                return -1;
            }
        }
        int n = Math.min(len, chunk.length - at);
        System.arraycopy(chunk, at, b, off, n);
        at += n;
        produced += n;
        if (trigger != null && produced >= triggerAt) {
            Runnable action = trigger;
            trigger = null;
            action.run();
        }
        return n;
    }

    private boolean next() {
        if (ended) {
            return false;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(width + 64);
        if (row == -1) {
            out.writeBytes(SIGNATURE);
            byte[] ihdr = new byte[13];
            putInt(ihdr, 0, width);
            putInt(ihdr, 4, height);
            ihdr[8] = 8; // bit depth
            ihdr[9] = 0; // grayscale; compression, filter and interlace 0
            writeChunk(out, "IHDR", ihdr);
        } else if (row < height) {
            boolean first = row == 0;
            boolean last = row == height - 1;
            int rowLength = width + 1;
            byte[] data = new byte[(first ? 2 : 0) + 5 + rowLength + (last ? 4 : 0)];
            int p = 0;
            if (first) {
                data[p++] = 0x78; // zlib: deflate, 32K window
                data[p++] = 0x01; // no dictionary, fastest; (0x7801 % 31 == 0)
            }
            data[p++] = (byte) (last ? 1 : 0); // stored block, final or not
            data[p++] = (byte) rowLength;
            data[p++] = (byte) (rowLength >>> 8);
            data[p++] = (byte) ~rowLength;
            data[p++] = (byte) (~rowLength >>> 8);
            int rowStart = p;
            data[p++] = 0; // filter type None
            long x = seed * 0x9E3779B97F4A7C15L + row * 0xBF58476D1CE4E5B9L + 1;
            for (int i = 0; i < width; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
                data[p++] = (byte) x;
            }
            adler.update(data, rowStart, rowLength);
            if (last) {
                putInt(data, p, (int) adler.getValue());
            }
            writeChunk(out, "IDAT", data);
        } else {
            writeChunk(out, "IEND", new byte[0]);
            ended = true;
        }
        row++;
        chunk = out.toByteArray();
        at = 0;
        return true;
    }

    private static void writeChunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] length = new byte[4];
        putInt(length, 0, data.length);
        out.writeBytes(length);
        byte[] typeBytes = type.getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(typeBytes);
        out.writeBytes(data);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        byte[] crcBytes = new byte[4];
        putInt(crcBytes, 0, (int) crc.getValue());
        out.writeBytes(crcBytes);
    }

    private static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
