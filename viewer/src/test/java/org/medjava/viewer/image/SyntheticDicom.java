package org.medjava.viewer.image;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes a minimal synthetic CT as a DICOM Part 10 file (Explicit VR Little Endian, 16-bit, 12 bits stored) by hand,
 * independently of the codec under test: large images for the memory tests, with a gradient and a bright square;
 * optionally speckled (single bright pixels that despeckle removes). Stored value v is v - 1024 HU.
 */
public final class SyntheticDicom {
    private static final String CT_IMAGE = "1.2.840.10008.5.1.4.1.1.2";
    private static final String EXPLICIT_LE = "1.2.840.10008.1.2.1";

    private SyntheticDicom() {
    }

    public static byte[] ct(int size, String uidRoot) {
        return ct(size, uidRoot, false);
    }

    /** As {@link #ct(int, String)}, with a bright speckle (stored 4000, 2976 HU) every 7th pixel of every 5th row. */
    public static byte[] speckledCt(int size, String uidRoot) {
        return ct(size, uidRoot, true);
    }

    /**
     * Instance {@code instance} (from 1) of a series of such images: the study and series of {@code uidRoot}, each
     * instance its own SOP Instance UID and Instance Number.
     */
    public static byte[] seriesCt(int size, String uidRoot, int instance) {
        return ct(size, uidRoot, uidRoot + ".3." + instance, instance, false);
    }

    private static byte[] ct(int size, String uidRoot, boolean speckles) {
        return ct(size, uidRoot, uidRoot + ".3", 1, speckles);
    }

    /**
     * Slice {@code instance} of an axial stack: study {@code uidRoot}.1, series {@code seriesUid}, SOP Instance UID
     * {@code seriesUid}.{@code instance}, at z = {@code z} mm (ImagePositionPatient 0\0\z, axial orientation).
     * The bright square moves with z, so neighbouring slices differ.
     */
    public static byte[] stackCt(int size, String uidRoot, String seriesUid, int instance, double z) {
        return ct(size, uidRoot + ".1", seriesUid, seriesUid + "." + instance, instance, false, z);
    }

    private static byte[] ct(int size, String uidRoot, String sop, int instanceNumber, boolean speckles) {
        return ct(size, uidRoot + ".1", uidRoot + ".2", sop, instanceNumber, speckles, null);
    }

    private static byte[] ct(int size, String studyUid, String seriesUid, String sop, int instanceNumber,
                             boolean speckles, Double z) {
        ByteArrayOutputStream meta = new ByteArrayOutputStream();
        element(meta, 0x0002, 0x0001, "OB", new byte[] {0, 1});
        element(meta, 0x0002, 0x0002, "UI", uid(CT_IMAGE));
        element(meta, 0x0002, 0x0003, "UI", uid(sop));
        element(meta, 0x0002, 0x0010, "UI", uid(EXPLICIT_LE));
        ByteArrayOutputStream out = new ByteArrayOutputStream(2 * size * size + 4096);
        out.writeBytes(new byte[128]);
        out.writeBytes("DICM".getBytes(StandardCharsets.US_ASCII));
        element(out, 0x0002, 0x0000, "UL", le32(meta.size()));
        out.writeBytes(meta.toByteArray());
        element(out, 0x0008, 0x0016, "UI", uid(CT_IMAGE));
        element(out, 0x0008, 0x0018, "UI", uid(sop));
        element(out, 0x0008, 0x0020, "DA", text("20260101"));
        element(out, 0x0008, 0x0060, "CS", text("CT"));
        element(out, 0x0008, 0x103E, "LO", text("synthetic " + size));
        element(out, 0x0010, 0x0010, "PN", text("Synthetic^Large"));
        element(out, 0x0010, 0x0020, "LO", text("SYN-" + size));
        element(out, 0x0020, 0x000D, "UI", uid(studyUid));
        element(out, 0x0020, 0x000E, "UI", uid(seriesUid));
        element(out, 0x0020, 0x0013, "IS", text(Integer.toString(instanceNumber)));
        if (z != null) {
            element(out, 0x0020, 0x0032, "DS", text("0\\0\\" + z.intValue()));
            element(out, 0x0020, 0x0037, "DS", text("1\\0\\0\\0\\1\\0"));
        }
        element(out, 0x0028, 0x0002, "US", le16(1));
        element(out, 0x0028, 0x0004, "CS", text("MONOCHROME2"));
        element(out, 0x0028, 0x0010, "US", le16(size));
        element(out, 0x0028, 0x0011, "US", le16(size));
        element(out, 0x0028, 0x0100, "US", le16(16));
        element(out, 0x0028, 0x0101, "US", le16(12));
        element(out, 0x0028, 0x0102, "US", le16(11));
        element(out, 0x0028, 0x0103, "US", le16(0));
        element(out, 0x0028, 0x1050, "DS", text("40"));
        element(out, 0x0028, 0x1051, "DS", text("400"));
        element(out, 0x0028, 0x1052, "DS", text("-1024"));
        element(out, 0x0028, 0x1053, "DS", text("1"));
        ByteBuffer pixels = ByteBuffer.allocate(2 * size * size).order(ByteOrder.LITTLE_ENDIAN);
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                int shift = z == null ? 0 : Math.floorMod(z.intValue() * 2, size / 2);
                boolean square = x > size / 4 + shift / 2 && x < size / 2 + shift / 2 && y > size / 4 && y < size / 2;
                boolean speckle = speckles && y % 5 == 2 && x % 7 == 3;
                pixels.putShort((short) (speckle ? 4000 : square ? 3000 : (x * 2048 / size + y * 1024 / size)));
            }
        }
        element(out, 0x7FE0, 0x0010, "OW", pixels.array());
        return out.toByteArray();
    }

    private static void element(ByteArrayOutputStream out, int group, int element, String vr, byte[] value) {
        out.writeBytes(le16(group));
        out.writeBytes(le16(element));
        out.writeBytes(vr.getBytes(StandardCharsets.US_ASCII));
        if (vr.equals("OB") || vr.equals("OW")) {
            out.writeBytes(new byte[2]);
            out.writeBytes(le32(value.length));
        } else {
            out.writeBytes(le16(value.length));
        }
        out.writeBytes(value);
    }

    private static byte[] uid(String uid) {
        byte[] b = uid.getBytes(StandardCharsets.US_ASCII);
        return b.length % 2 == 0 ? b : java.util.Arrays.copyOf(b, b.length + 1); // padded with NUL
    }

    private static byte[] text(String s) {
        return (s.length() % 2 == 0 ? s : s + " ").getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] le16(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8)};
    }

    private static byte[] le32(int v) {
        return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
    }
}
