package org.medjava.store.core.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DeflaterOutputStream;

/**
 * Bodies an attacker would send: images whose headers lie, images that are small on the wire and huge decoded,
 * DICOM cut short or nested deeper than any real object. Each is made from scratch or from a committed sample,
 * the same bytes every run.
 */
public final class HostileBodies {

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private HostileBodies() {
    }

    /** The first {@code length} bytes. */
    public static byte[] cut(byte[] bytes, int length) {
        return Arrays.copyOf(bytes, Math.max(0, Math.min(length, bytes.length)));
    }

    /** A valid 8-bit grey PNG of zero pixels, its rows compressed as they are made (small even when huge). */
    public static byte[] png(int width, int height) {
        ByteArrayOutputStream idat = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(idat, new java.util.zip.Deflater(9), 1 << 16)) {
            byte[] row = new byte[width + 1]; // filter type 0, then zeros
            for (int y = 0; y < height; y++) {
                z.write(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(PNG_SIGNATURE);
        chunk(out, "IHDR", ByteBuffer.allocate(13).putInt(width).putInt(height).put((byte) 8).put((byte) 0)
                .put((byte) 0).put((byte) 0).put((byte) 0).array());
        chunk(out, "IDAT", idat.toByteArray());
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    /** A PNG whose IHDR now declares {@code width x height}; with {@code fixCrc} its CRC is made to agree. */
    public static byte[] pngClaiming(byte[] png, int width, int height, boolean fixCrc) {
        byte[] b = png.clone();
        ByteBuffer.wrap(b, 16, 8).putInt(width).putInt(height);
        if (fixCrc) {
            CRC32 crc = new CRC32();
            crc.update(b, 12, 17);
            ByteBuffer.wrap(b, 29, 4).putInt((int) crc.getValue());
        }
        return b;
    }

    /** A GIF whose logical screen and first image descriptor declare {@code width x height}. */
    public static byte[] gifClaiming(byte[] gif, int width, int height) {
        byte[] b = gif.clone();
        le16(b, 6, width);
        le16(b, 8, height);
        int at = 13;
        if ((b[10] & 0x80) != 0) {
            at += 3 * (1 << ((b[10] & 7) + 1)); // global colour table
        }
        while (at < b.length && b[at] == 0x21) { // extensions: skip their sub-blocks
            at += 2;
            while (at < b.length && b[at] != 0) {
                at += (b[at] & 0xFF) + 1;
            }
            at++;
        }
        if (at + 9 < b.length && b[at] == 0x2C) {
            le16(b, at + 5, width);
            le16(b, at + 7, height);
        }
        return b;
    }

    /** A small real JPEG (grey gradient). */
    public static byte[] jpeg(int width, int height) {
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(width, height,
                java.awt.image.BufferedImage.TYPE_BYTE_GRAY);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                image.getRaster().setSample(x, y, 0, (x + y) & 0xFF);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            javax.imageio.ImageIO.write(image, "jpeg", out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A JPEG whose start-of-frame declares {@code width x height}. */
    public static byte[] jpegClaiming(byte[] jpeg, int width, int height) {
        byte[] b = jpeg.clone();
        for (int i = 2; i + 9 < b.length; i++) {
            if ((b[i] & 0xFF) == 0xFF && ((b[i + 1] & 0xFF) == 0xC0 || (b[i + 1] & 0xFF) == 0xC2)) {
                b[i + 5] = (byte) (height >> 8);
                b[i + 6] = (byte) height;
                b[i + 7] = (byte) (width >> 8);
                b[i + 8] = (byte) width;
                return b;
            }
        }
        throw new IllegalArgumentException("no start-of-frame marker");
    }

    /**
     * A Part 10 object (explicit VR little endian) with the identifying attributes of a secondary capture and
     * {@code depth} sequences nested one in another (each in an item of undefined length), properly closed.
     */
    public static byte[] nestedDicom(int depth, String uidRoot) {
        ByteArrayOutputStream ds = new ByteArrayOutputStream();
        String sopClass = "1.2.840.10008.5.1.4.1.1.7";
        element(ds, 0x0008, 0x0016, "UI", uid(sopClass));
        element(ds, 0x0008, 0x0018, "UI", uid(uidRoot + ".3"));
        element(ds, 0x0010, 0x0020, "LO", text("HOSTILE"));
        byte[] open = {0x08, 0x00, 0x15, 0x11, 'S', 'Q', 0, 0, -1, -1, -1, -1,
                (byte) 0xFE, (byte) 0xFF, 0x00, (byte) 0xE0, -1, -1, -1, -1};
        byte[] close = {(byte) 0xFE, (byte) 0xFF, 0x0D, (byte) 0xE0, 0, 0, 0, 0,
                (byte) 0xFE, (byte) 0xFF, (byte) 0xDD, (byte) 0xE0, 0, 0, 0, 0};
        for (int i = 0; i < depth; i++) {
            ds.writeBytes(open);
        }
        for (int i = 0; i < depth; i++) {
            ds.writeBytes(close);
        }
        element(ds, 0x0020, 0x000D, "UI", uid(uidRoot + ".1"));
        element(ds, 0x0020, 0x000E, "UI", uid(uidRoot + ".2"));
        ByteArrayOutputStream meta = new ByteArrayOutputStream();
        element(meta, 0x0002, 0x0001, "OB", new byte[] {0, 1});
        element(meta, 0x0002, 0x0002, "UI", uid(sopClass));
        element(meta, 0x0002, 0x0003, "UI", uid(uidRoot + ".3"));
        element(meta, 0x0002, 0x0010, "UI", uid("1.2.840.10008.1.2.1"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[128]);
        out.writeBytes("DICM".getBytes(StandardCharsets.US_ASCII));
        element(out, 0x0002, 0x0000, "UL", ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putInt(meta.size()).array());
        out.writeBytes(meta.toByteArray());
        out.writeBytes(ds.toByteArray());
        return out.toByteArray();
    }

    /** A multipart/related body whose parts are given whole (headers and content), for malformed STOW requests. */
    public static byte[] multipart(String boundary, String... rawParts) {
        StringBuilder s = new StringBuilder();
        for (String part : rawParts) {
            s.append("--").append(boundary).append("\r\n").append(part).append("\r\n");
        }
        s.append("--").append(boundary).append("--\r\n");
        return s.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    /** JSON nested {@code depth} arrays deep. */
    public static byte[] deepJson(int depth) {
        return ("[".repeat(depth) + "]".repeat(depth)).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] uid(String uid) {
        return text(uid.length() % 2 == 0 ? uid : uid + "\0");
    }

    private static byte[] text(String s) {
        return (s.length() % 2 == 0 ? s : s + " ").getBytes(StandardCharsets.US_ASCII);
    }

    private static void element(ByteArrayOutputStream out, int group, int element, String vr, byte[] value) {
        ByteBuffer h = ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        h.putShort((short) group).putShort((short) element).put(vr.getBytes(StandardCharsets.US_ASCII));
        if (vr.equals("OB") || vr.equals("SQ")) {
            h.putShort((short) 0).putInt(value.length);
            out.write(h.array(), 0, 12);
        } else {
            h.putShort((short) value.length);
            out.write(h.array(), 0, 8);
        }
        out.writeBytes(value);
    }

    private static void chunk(OutputStream out, String type, byte[] data) {
        try {
            ByteBuffer head = ByteBuffer.allocate(8).putInt(data.length).put(type.getBytes(StandardCharsets.US_ASCII));
            out.write(head.array());
            out.write(data);
            CRC32 crc = new CRC32();
            crc.update(head.array(), 4, 4);
            crc.update(data);
            out.write(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void le16(byte[] b, int at, int v) {
        b[at] = (byte) v;
        b[at + 1] = (byte) (v >> 8);
    }
}
