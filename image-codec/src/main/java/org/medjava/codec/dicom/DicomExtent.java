package org.medjava.codec.dicom;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.medjava.codec.ImageDecodeException;

/**
 * Whether a Part 10 file is whole: every element's declared length fits in the file and every sequence or item of
 * undefined length is closed. PixelMed's reader stops quietly when the file ends inside the last element's header
 * or inside Data Set Trailing Padding (FFFC,FFFC), so a file cut short there would otherwise be stored.
 *
 * <p>One linear pass over the element headers, without recursion (nesting is a counter), so no depth of sequences
 * can exhaust the stack. Where the encoding is not one this pass can follow (no {@code DICM} preamble, deflated data
 * set, an unknown VR, a UN of undefined length) it says nothing and leaves the decision to the parser.
 */
public final class DicomExtent {

    private static final int PREAMBLE = 128;
    private static final long UNDEFINED = 0xFFFFFFFFL;
    private static final String IMPLICIT_LE = "1.2.840.10008.1.2";
    private static final String EXPLICIT_BE = "1.2.840.10008.1.2.2";
    private static final String DEFLATED_LE = "1.2.840.10008.1.2.1.99";

    private DicomExtent() {
    }

    /**
     * @throws ImageDecodeException naming where the file ends too early
     */
    public static void requireWhole(byte[] file) throws ImageDecodeException {
        requireWhole(ByteBuffer.wrap(file));
    }

    /**
     * As {@link #requireWhole(byte[])} for a file, mapped rather than read, so a large object costs no heap.
     *
     * @throws ImageDecodeException naming where the file ends too early
     */
    public static void requireWhole(Path file) throws ImageDecodeException, IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            if (channel.size() > Integer.MAX_VALUE) {
                return; // beyond one mapping; the parser decides
            }
            requireWhole(channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()));
        }
    }

    private static void requireWhole(ByteBuffer file) throws ImageDecodeException {
        if (file.limit() < PREAMBLE + 4 || !"DICM".equals(ascii(file, PREAMBLE, 4))) {
            return;
        }
        Walk meta = new Walk(file, PREAMBLE + 4, true, false);
        String transferSyntax = meta.meta();
        if (transferSyntax == null || transferSyntax.equals(DEFLATED_LE)) {
            return;
        }
        new Walk(file, meta.pos, !transferSyntax.equals(IMPLICIT_LE), transferSyntax.equals(EXPLICIT_BE)).dataSet();
    }

    /** A cursor over element headers in one encoding. */
    private static final class Walk {
        private final ByteBuffer b;
        private final boolean explicit;
        private final boolean bigEndian;
        private int pos;

        Walk(ByteBuffer b, int pos, boolean explicit, boolean bigEndian) {
            this.b = b;
            this.pos = pos;
            this.explicit = explicit;
            this.bigEndian = bigEndian;
        }

        /** Walks group 0002 (always explicit little endian) and returns its Transfer Syntax UID, or null. */
        String meta() throws ImageDecodeException {
            String ts = null;
            while (pos + 8 <= b.limit() && u16(pos) == 0x0002) {
                int element = u16(pos + 2);
                Header h = header();
                if (h == null) {
                    return null;
                }
                requireFits(h.length, "file meta element (0002," + hex(element) + ")");
                if (element == 0x0010) {
                    ts = ascii(b, pos, (int) h.length).replace("\0", "").trim();
                }
                pos += (int) h.length;
            }
            return ts;
        }

        /** Walks the data set to the end of the file. */
        void dataSet() throws ImageDecodeException {
            long open = 0; // sequences and items of undefined length not yet closed
            while (pos < b.limit()) {
                if (pos + 8 > b.limit()) {
                    throw truncated("inside the header of the element at byte " + pos);
                }
                int group = u16(pos);
                int element = u16(pos + 2);
                Header h = header();
                if (h == null) {
                    return; // an encoding this pass does not follow
                }
                if (group == 0xFFFE && (element == 0xE00D || element == 0xE0DD)) {
                    open = Math.max(0, open - 1);
                } else if (h.length == UNDEFINED) {
                    if (h.vr != null && h.vr.equals("UN")) {
                        return; // implicit VR inside: not followed here
                    }
                    open++;
                } else {
                    requireFits(h.length, "element (" + hex(group) + "," + hex(element) + ")");
                    pos += (int) h.length;
                }
            }
            if (open > 0) {
                throw truncated("before " + open + " sequence(s) or item(s) of undefined length were closed");
            }
        }

        private record Header(String vr, long length) {
        }

        /** Reads the header at {@code pos} (which has 8 bytes), advancing past it; null for an unknown VR. */
        private Header header() throws ImageDecodeException {
            int group = u16(pos);
            if (!explicit || group == 0xFFFE) {
                long length = u32(pos + 4);
                pos += 8;
                return new Header(null, length);
            }
            String vr = ascii(b, pos + 4, 2);
            if (!vr.matches("[A-Z]{2}")) {
                return null;
            }
            if (vr.matches("OB|OD|OF|OL|OV|OW|SQ|SV|UC|UN|UR|UT|UV")) {
                if (pos + 12 > b.limit()) {
                    throw truncated("inside the header of the element at byte " + pos);
                }
                long length = u32(pos + 8);
                pos += 12;
                return new Header(vr, length);
            }
            int length = u16(pos + 6);
            pos += 8;
            return new Header(vr, length);
        }

        private void requireFits(long length, String what) throws ImageDecodeException {
            if (length > b.limit() - pos) {
                throw truncated("inside " + what + ": it declares " + length + " bytes, " + (b.limit() - pos)
                        + " remain");
            }
        }

        private int u16(int at) {
            int lo = b.get(at) & 0xFF;
            int hi = b.get(at + 1) & 0xFF;
            return bigEndian ? (lo << 8) | hi : (hi << 8) | lo;
        }

        private long u32(int at) {
            long v0 = b.get(at) & 0xFF;
            long v1 = b.get(at + 1) & 0xFF;
            long v2 = b.get(at + 2) & 0xFF;
            long v3 = b.get(at + 3) & 0xFF;
            return bigEndian ? (v0 << 24) | (v1 << 16) | (v2 << 8) | v3 : (v3 << 24) | (v2 << 16) | (v1 << 8) | v0;
        }

        private static ImageDecodeException truncated(String where) {
            return new ImageDecodeException("DICOM file is truncated: it ends " + where);
        }

        private static String hex(int v) {
            return String.format("%04X", v);
        }
    }

    private static String ascii(ByteBuffer b, int at, int length) {
        byte[] bytes = new byte[length];
        b.get(at, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
