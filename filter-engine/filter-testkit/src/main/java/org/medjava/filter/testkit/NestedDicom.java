package org.medjava.filter.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;

/**
 * DICOM Part 10 files written byte by byte (no DICOM library), holding a Content Sequence (0040,A730) nested
 * {@code depth} levels deep and otherwise a valid 2x2 8-bit MONOCHROME2 Secondary Capture image: the hostile input of
 * the reader's depth limit, in every encoding the reader walks.
 */
public final class NestedDicom {

    /** The transfer syntaxes the data set can be written in. */
    public enum Syntax {
        EXPLICIT_LE("1.2.840.10008.1.2.1"), IMPLICIT_LE("1.2.840.10008.1.2"), EXPLICIT_BE("1.2.840.10008.1.2.2"),
        DEFLATED_LE("1.2.840.10008.1.2.1.99");

        public final String uid;

        Syntax(String uid) {
            this.uid = uid;
        }
    }

    public static final String SECONDARY_CAPTURE = "1.2.840.10008.5.1.4.1.1.7";

    private NestedDicom() {
    }

    /**
     * A Part 10 file whose Content Sequence nests {@code depth} levels (0: no sequence at all).
     *
     * @param undefinedLengths sequences and items of undefined length (with delimiters) rather than defined lengths
     * @param uidRoot          the study, series and SOP instance UIDs are this root with .1, .2 and .3 appended
     */
    public static byte[] part10(int depth, Syntax syntax, boolean undefinedLengths, String uidRoot) {
        String sopInstance = uidRoot + ".3";
        Writer ds = new Writer(syntax != Syntax.IMPLICIT_LE, syntax == Syntax.EXPLICIT_BE);
        ds.element(0x0008, 0x0016, "UI", uid(SECONDARY_CAPTURE));
        ds.element(0x0008, 0x0018, "UI", uid(sopInstance));
        ds.element(0x0008, 0x0060, "CS", ascii("OT"));
        ds.element(0x0010, 0x0020, "LO", ascii("NESTED"));
        ds.element(0x0020, 0x000D, "UI", uid(uidRoot + ".1"));
        ds.element(0x0020, 0x000E, "UI", uid(uidRoot + ".2"));
        ds.element(0x0028, 0x0002, "US", ds.u16(1));
        ds.element(0x0028, 0x0004, "CS", ascii("MONOCHROME2 "));
        ds.element(0x0028, 0x0010, "US", ds.u16(2));
        ds.element(0x0028, 0x0011, "US", ds.u16(2));
        ds.element(0x0028, 0x0100, "US", ds.u16(8));
        ds.element(0x0028, 0x0101, "US", ds.u16(8));
        ds.element(0x0028, 0x0102, "US", ds.u16(7));
        ds.element(0x0028, 0x0103, "US", ds.u16(0));
        if (depth > 0) {
            ds.raw(nested(depth, syntax, undefinedLengths)); // (0040,A730), in tag order
        }
        ds.element(0x7FE0, 0x0010, "OB", new byte[] {0, 64, (byte) 128, (byte) 255});
        byte[] dataSet = ds.bytes();
        if (syntax == Syntax.DEFLATED_LE) {
            dataSet = deflate(dataSet, Deflater.DEFAULT_COMPRESSION);
        }
        return withMeta(SECONDARY_CAPTURE, sopInstance, syntax.uid, dataSet);
    }

    /** A Part 10 file: preamble, "DICM", file meta information (explicit VR little endian) and the data set. */
    public static byte[] withMeta(String sopClass, String sopInstance, String transferSyntax, byte[] dataSet) {
        Writer meta = new Writer(true, false);
        meta.element(0x0002, 0x0001, "OB", new byte[] {0, 1});
        meta.element(0x0002, 0x0002, "UI", uid(sopClass));
        meta.element(0x0002, 0x0003, "UI", uid(sopInstance));
        meta.element(0x0002, 0x0010, "UI", uid(transferSyntax));
        meta.element(0x0002, 0x0012, "UI", uid("1.2.826.0.1.3680043.10.1"));
        byte[] group = meta.bytes();
        Writer head = new Writer(true, false);
        head.element(0x0002, 0x0000, "UL", new byte[] {(byte) group.length, (byte) (group.length >>> 8),
                (byte) (group.length >>> 16), (byte) (group.length >>> 24)});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[128]);
        out.writeBytes(ascii("DICM"));
        out.writeBytes(head.bytes());
        out.writeBytes(group);
        out.writeBytes(dataSet);
        return out.toByteArray();
    }

    /** {@code depth} Content Sequences, each in the one item of the one above, built from the inside out. */
    private static byte[] nested(int depth, Syntax syntax, boolean undefined) {
        boolean big = syntax == Syntax.EXPLICIT_BE;
        byte[] inner = new byte[0];
        for (int level = 0; level < depth; level++) {
            Writer item = new Writer(syntax != Syntax.IMPLICIT_LE, big);
            item.tag(0xFFFE, 0xE000);
            item.u32(undefined ? 0xFFFFFFFFL : inner.length);
            item.raw(inner);
            if (undefined) {
                item.tag(0xFFFE, 0xE00D);
                item.u32(0);
            }
            byte[] items = item.bytes();
            Writer seq = new Writer(syntax != Syntax.IMPLICIT_LE, big);
            seq.tag(0x0040, 0xA730);
            if (seq.explicit) {
                seq.raw(ascii("SQ"));
                seq.raw(new byte[2]);
            }
            seq.u32(undefined ? 0xFFFFFFFFL : items.length);
            seq.raw(items);
            if (undefined) {
                seq.tag(0xFFFE, 0xE0DD);
                seq.u32(0);
            }
            inner = seq.bytes();
        }
        return inner;
    }

    /** Raw deflate (no zlib header), as the Deflated Explicit VR Little Endian transfer syntax encodes a data set. */
    public static byte[] deflate(byte[] data, int level) {
        Deflater deflater = new Deflater(level, true);
        deflater.setInput(data);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** A UID value padded with a NUL to even length. */
    private static byte[] uid(String uid) {
        return ascii(uid.length() % 2 == 0 ? uid : uid + "\0");
    }

    /** Data elements in one encoding. */
    private static final class Writer {
        final boolean explicit;
        final boolean big;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Writer(boolean explicit, boolean big) {
            this.explicit = explicit;
            this.big = big;
        }

        void element(int group, int element, String vr, byte[] value) {
            if (value.length % 2 != 0) {
                throw new IllegalArgumentException("odd value length");
            }
            tag(group, element);
            if (!explicit) {
                u32(value.length);
            } else if (vr.equals("OB") || vr.equals("OW") || vr.equals("SQ") || vr.equals("UN") || vr.equals("UT")) {
                raw(ascii(vr));
                raw(new byte[2]);
                u32(value.length);
            } else {
                raw(ascii(vr));
                raw(u16(value.length));
            }
            raw(value);
        }

        void tag(int group, int element) {
            raw(u16(group));
            raw(u16(element));
        }

        byte[] u16(int v) {
            return big ? new byte[] {(byte) (v >>> 8), (byte) v} : new byte[] {(byte) v, (byte) (v >>> 8)};
        }

        void u32(long v) {
            byte[] b = {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
            if (big) {
                b = new byte[] {b[3], b[2], b[1], b[0]};
            }
            raw(b);
        }

        void raw(byte[] bytes) {
            out.writeBytes(bytes);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
