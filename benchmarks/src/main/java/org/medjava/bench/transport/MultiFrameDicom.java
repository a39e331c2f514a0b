package org.medjava.bench.transport;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes the image store's upload payload for the HTTP benchmark: a DICOM Part 10 file (explicit VR little endian),
 * Multi-frame Grayscale Byte Secondary Capture, {@code frames} frames of 1024×1024 8-bit pixels, so a file of N MiB
 * is N frames plus a small header. The store parses the whole dataset and decodes frame 0, as for any upload. The
 * serve step's WADO-RS object is the Word (16-bit) variant: {@link #write(Path, int, int, int, long)}.
 */
public final class MultiFrameDicom {
    public static final int SIDE = 1024;
    private static final String BYTE_SOP_CLASS = "1.2.840.10008.5.1.4.1.1.7.2";
    private static final String WORD_SOP_CLASS = "1.2.840.10008.5.1.4.1.1.7.3";
    private static final String EXPLICIT_LE = "1.2.840.10008.1.2.1";
    private static final String ROOT = "2.25.";

    private MultiFrameDicom() {
    }

    public static void write(Path file, int frames, long seed) throws IOException {
        write(file, frames, SIDE, 8, seed);
    }

    /**
     * {@code frames} frames of {@code side}×{@code side} MONOCHROME2 pixels of {@code bits} (8 or 16) bits, all
     * stored; 16 bits make it Multi-frame Grayscale Word Secondary Capture.
     */
    public static void write(Path file, int frames, int side, int bits, long seed) throws IOException {
        if (bits != 8 && bits != 16) {
            throw new IllegalArgumentException("8 or 16 bits, not " + bits);
        }
        String sopClass = bits == 8 ? BYTE_SOP_CLASS : WORD_SOP_CLASS;
        String instance = instanceUid(seed);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(new byte[128]);
            out.write("DICM".getBytes(StandardCharsets.US_ASCII));
            ByteBuffer meta = ByteBuffer.allocate(512).order(ByteOrder.LITTLE_ENDIAN);
            element(meta, 0x0002, 0x0001, "OB", new byte[] {0, 1});
            text(meta, 0x0002, 0x0002, "UI", sopClass);
            text(meta, 0x0002, 0x0003, "UI", instance);
            text(meta, 0x0002, 0x0010, "UI", EXPLICIT_LE);
            text(meta, 0x0002, 0x0012, "UI", ROOT + "4242");
            ByteBuffer group = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            group.putShort((short) 2).putShort((short) 0).put("UL".getBytes(StandardCharsets.US_ASCII))
                    .putShort((short) 4).putInt(meta.position());
            out.write(group.array());
            out.write(meta.array(), 0, meta.position());

            ByteBuffer ds = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
            text(ds, 0x0008, 0x0016, "UI", sopClass);
            text(ds, 0x0008, 0x0018, "UI", instance);
            text(ds, 0x0008, 0x0060, "CS", "OT");
            text(ds, 0x0010, 0x0010, "PN", "BENCHMARK^PAYLOAD");
            text(ds, 0x0010, 0x0020, "LO", "BENCH");
            text(ds, 0x0020, 0x000D, "UI", studyUid(seed));
            text(ds, 0x0020, 0x000E, "UI", seriesUid(seed));
            text(ds, 0x0020, 0x0013, "IS", "1");
            uint16(ds, 0x0028, 0x0002, 1);
            text(ds, 0x0028, 0x0004, "CS", "MONOCHROME2");
            text(ds, 0x0028, 0x0008, "IS", Integer.toString(frames));
            uint16(ds, 0x0028, 0x0010, side);
            uint16(ds, 0x0028, 0x0011, side);
            uint16(ds, 0x0028, 0x0100, bits);
            uint16(ds, 0x0028, 0x0101, bits);
            uint16(ds, 0x0028, 0x0102, bits - 1);
            uint16(ds, 0x0028, 0x0103, 0);
            byte[] frame = new byte[side * side * (bits / 8)];
            long pixels = (long) frames * frame.length;
            ds.putShort((short) 0x7FE0).putShort((short) 0x0010)
                    .put((bits == 8 ? "OB" : "OW").getBytes(StandardCharsets.US_ASCII))
                    .putShort((short) 0).putInt((int) pixels);
            out.write(ds.array(), 0, ds.position());

            SplittableRandom random = new SplittableRandom(seed);
            for (int f = 0; f < frames; f++) {
                for (int i = 0; i < frame.length; i += 8) {
                    long r = random.nextLong();
                    for (int k = 0; k < 8; k++) {
                        frame[i + k] = (byte) (r >>> (8 * k));
                    }
                }
                out.write(frame);
            }
        }
    }

    /** The UIDs of the file written with {@code seed} (for its WADO-RS URLs). */
    public static String studyUid(long seed) {
        return ROOT + "1" + (Math.abs(seed) + 1);
    }

    public static String seriesUid(long seed) {
        return ROOT + "2" + (Math.abs(seed) + 1);
    }

    public static String instanceUid(long seed) {
        return ROOT + (Math.abs(seed) + 1) + "1";
    }

    private static void text(ByteBuffer b, int group, int elem, String vr, String value) {
        byte[] v = value.getBytes(StandardCharsets.US_ASCII);
        int len = v.length + (v.length & 1);
        byte pad = vr.equals("UI") ? 0 : (byte) ' ';
        byte[] padded = java.util.Arrays.copyOf(v, len);
        if (len != v.length) {
            padded[len - 1] = pad;
        }
        element(b, group, elem, vr, padded);
    }

    private static void uint16(ByteBuffer b, int group, int elem, int value) {
        element(b, group, elem, "US", new byte[] {(byte) value, (byte) (value >>> 8)});
    }

    /** A short-form explicit VR element (2-byte length): every VR used here except OB, written with its own header. */
    private static void element(ByteBuffer b, int group, int elem, String vr, byte[] value) {
        b.putShort((short) group).putShort((short) elem).put(vr.getBytes(StandardCharsets.US_ASCII));
        if (vr.equals("OB")) {
            b.putShort((short) 0).putInt(value.length);
        } else {
            b.putShort((short) value.length);
        }
        b.put(value);
    }
}
