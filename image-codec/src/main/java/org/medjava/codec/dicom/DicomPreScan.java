package org.medjava.codec.dicom;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.ValueRepresentation;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import java.util.zip.ZipException;

/**
 * A fast walk over an encoded DICOM data set that refuses it before PixelMed, whose reader recurses
 * once per sequence level, could overflow the stack or fill the heap with it: sequence nesting deeper than
 * {@link #MAX_DEPTH}, more than {@link #MAX_ITEMS} items in one sequence, more than {@link #MAX_ELEMENTS} data
 * elements and items in all, a length that runs past its item, sequence or the data, a deflated data set inflating to
 * more than {@link #MAX_INFLATED_BYTES}. Explicit and implicit VR, little and big endian, undefined lengths
 * (sequences, items, encapsulated pixel data, UN holding implicit VR little endian) and the deflated transfer syntax
 * are walked; values are skipped, never read. The walk's own recursion is bounded by {@link #MAX_DEPTH}.
 *
 * <p>It is not a validator: what it lets through may still fail PixelMed's parse (which then fails normally).
 */
public final class DicomPreScan {
    /** Sequence nesting depth: real objects stay below 10 (structured reports included). */
    public static final int MAX_DEPTH = 64;
    /** Items in one sequence: far above one per frame of the largest multi-frame objects. */
    public static final int MAX_ITEMS = 1_000_000;
    /** Data elements and items in the whole data set (each becomes a Java object in PixelMed's list). */
    public static final long MAX_ELEMENTS = 2_000_000;
    /** Inflated size of a deflated data set: the store's default upload limit, as if it had been sent inflated. */
    public static final long MAX_INFLATED_BYTES = 1L << 30;

    static final String IMPLICIT_LE = "1.2.840.10008.1.2";
    static final String DEFLATED_LE = "1.2.840.10008.1.2.1.99";
    static final String EXPLICIT_BE = "1.2.840.10008.1.2.2";

    private static final long UNDEFINED = 0xFFFFFFFFL;
    private static final int PIXEL_DATA = 0x7FE00010;
    private static final Set<String> LONG_LENGTH_VRS = Set.of("OB", "OD", "OF", "OL", "OV", "OW", "SQ", "SV", "UC",
            "UN", "UR", "UT", "UV");

    /** How a stretch of the data set is encoded (a UN of undefined length switches to implicit VR little endian). */
    private record Encoding(boolean explicit, boolean bigEndian) {
        static final Encoding IMPLICIT_LITTLE = new Encoding(false, false);
        static final Encoding EXPLICIT_LITTLE = new Encoding(true, false);
    }

    /** A malformation (not a limit): a tentative walk of a UN value as a sequence gives up on these. */
    private static final class Malformed extends DicomStructureException {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    private final Reader in;
    private final boolean stopAtPixelData;
    private long elements;
    private boolean pixelData;

    private DicomPreScan(Reader in, boolean stopAtPixelData) {
        this.in = in;
        this.stopAtPixelData = stopAtPixelData;
    }

    /** Checks a whole Part 10 file (preamble, "DICM", file meta information, data set) held in memory. */
    public static void checkPart10(byte[] file) throws DicomStructureException {
        try {
            checkPart10(new ByteArrayInputStream(file), file.length, false);
        } catch (DicomStructureException e) {
            throw e;
        } catch (IOException e) {
            throw new Malformed("DICOM data set cannot be read: " + e.getMessage()); // not thrown by a byte array
        }
    }

    /**
     * Checks a Part 10 file from a stream, which it reads (and does not close).
     *
     * @param size            the stream's length in bytes, or -1 when unknown
     * @param stopAtPixelData stop at the top-level Pixel Data, for a reader that stops there too
     * @return whether the data set has a top-level Pixel Data (7FE0,0010): a reader that stops there reads only a
     *         header; without one, it reads every value of the data set
     * @throws DicomStructureException when the data set is refused; other IOExceptions come from the stream
     */
    public static boolean checkPart10(InputStream stream, long size, boolean stopAtPixelData) throws IOException {
        return checkPart10(stream, size, stopAtPixelData, MAX_INFLATED_BYTES);
    }

    static boolean checkPart10(InputStream stream, long size, boolean stopAtPixelData, long maxInflatedBytes)
            throws IOException {
        Reader reader = new Reader(stream, size, maxInflatedBytes);
        reader.skip(128, -1);
        byte[] magic = reader.bytes(4);
        if (!new String(magic, StandardCharsets.US_ASCII).equals("DICM")) {
            throw new Malformed("not a DICOM Part 10 file: no \"DICM\" at offset 128");
        }
        String ts = metaTransferSyntax(reader);
        DicomPreScan scan = new DicomPreScan(reader, stopAtPixelData);
        if (ts.equals(DEFLATED_LE)) {
            scan.in.inflateRest();
        }
        scan.elements(encodingOf(ts), -1, -1, false, 0, true);
        return scan.pixelData;
    }

    /**
     * Checks a Part 10 stream up to its top-level Pixel Data, for a reader that stops there, and returns a stream that
     * gives that reader the same bytes from the start: what the check read (kept in memory: the header, not the
     * pixel data), then the rest of {@code stream}.
     *
     * @throws DicomStructureException when the data set is refused
     */
    public static InputStream checkedHeader(InputStream stream) throws IOException {
        Recording recording = new Recording(stream);
        checkPart10(recording, -1, true);
        return new java.io.SequenceInputStream(new ByteArrayInputStream(recording.recorded.toByteArray()), stream);
    }

    /** The bytes read from a stream, kept (skips are reads, so that they are kept too). */
    private static final class Recording extends FilterInputStream {
        final java.io.ByteArrayOutputStream recorded = new java.io.ByteArrayOutputStream();

        Recording(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                recorded.write(b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                recorded.write(b, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buffer = new byte[(int) Math.min(Math.max(n, 0), 1 << 16)];
            int read = read(buffer, 0, buffer.length);
            return Math.max(read, 0);
        }

        @Override
        public boolean markSupported() {
            return false;
        }
    }

    /** Checks a data set without file meta information (a DIMSE identifier) in the given transfer syntax. */
    public static void checkDataSet(byte[] dataSet, String transferSyntaxUid) throws IOException {
        DicomPreScan scan = new DicomPreScan(new Reader(new ByteArrayInputStream(dataSet), dataSet.length,
                MAX_INFLATED_BYTES), false);
        if (DEFLATED_LE.equals(transferSyntaxUid)) {
            scan.in.inflateRest();
        }
        scan.elements(encodingOf(transferSyntaxUid), -1, -1, false, 0, true);
    }

    private static Encoding encodingOf(String ts) {
        if (IMPLICIT_LE.equals(ts)) {
            return Encoding.IMPLICIT_LITTLE;
        }
        return EXPLICIT_BE.equals(ts) ? new Encoding(true, true) : Encoding.EXPLICIT_LITTLE;
    }

    /** Walks group 0002 (explicit VR little endian) and returns its Transfer Syntax UID. */
    private static String metaTransferSyntax(Reader in) throws IOException {
        String ts = null;
        while (!in.atEnd() && in.peekGroup(false) == 0x0002) {
            in.u16(false);
            int element = in.u16(false);
            String vr = new String(in.bytes(2), StandardCharsets.US_ASCII);
            long length = LONG_LENGTH_VRS.contains(vr) ? skipReservedThenU32(in) : in.u16(false);
            if (length == UNDEFINED || length > 1 << 16) {
                throw new Malformed("DICOM file meta information element (0002," + hex4(element) + ") has length "
                        + length);
            }
            in.need(length, -1);
            if (element == 0x0010) {
                ts = new String(in.bytes((int) length), StandardCharsets.US_ASCII).replace("\0", "").trim();
            } else {
                in.skip(length, -1);
            }
        }
        if (ts == null || ts.isEmpty()) {
            // PixelMed then tells the encoding from the first element, as done here: a VR after the tag or not
            byte[] head = in.peek(6);
            boolean explicit = head.length == 6 && isUpper(head[4]) && isUpper(head[5]);
            return explicit ? "1.2.840.10008.1.2.1" : IMPLICIT_LE;
        }
        return ts;
    }

    private static long skipReservedThenU32(Reader in) throws IOException {
        in.skip(2, -1);
        return in.u32(false);
    }

    /**
     * The data elements of a data set or an item, up to {@code end} (defined length), its Item Delimitation
     * (undefined length) or the end of the data (top level).
     *
     * @param bound the end of the innermost container of defined length (-1: the data's end)
     */
    private void elements(Encoding enc, long end, long bound, boolean delimited, int depth, boolean top)
            throws IOException {
        while (true) {
            if (end >= 0 && in.pos >= end) {
                return;
            }
            if (top && in.atEnd()) {
                return;
            }
            in.need(8, bound);
            int group = in.u16(enc.bigEndian);
            int element = in.u16(enc.bigEndian);
            if (group == 0xFFFE) {
                long length = in.u32(enc.bigEndian);
                if (element == 0xE00D && delimited) {
                    return;
                }
                if (length == 0) {
                    continue; // a stray delimiter, which readers tolerate
                }
                throw new Malformed("DICOM data set has an item tag (FFFE," + hex4(element) + ") where a data element"
                        + " is expected, at byte " + (in.pos - 8));
            }
            count();
            int tag = group << 16 | element;
            String vr;
            long length;
            if (enc.explicit) {
                byte[] vrBytes = in.bytes(2);
                if (isUpper(vrBytes[0]) && isUpper(vrBytes[1])) {
                    vr = new String(vrBytes, StandardCharsets.US_ASCII);
                    if (LONG_LENGTH_VRS.contains(vr)) {
                        in.need(6, bound);
                        in.skip(2, bound);
                        length = in.u32(enc.bigEndian);
                    } else {
                        length = in.u16(enc.bigEndian);
                    }
                } else { // no VR here: an implicit-VR element inside explicit VR, as some writers produce
                    length = enc.bigEndian
                            ? ((vrBytes[0] & 0xFFL) << 24 | (vrBytes[1] & 0xFFL) << 16 | in.u16(true))
                            : ((vrBytes[0] & 0xFFL) | (vrBytes[1] & 0xFFL) << 8 | (long) in.u16(false) << 16);
                    vr = dictionaryVr(group, element);
                }
            } else {
                length = in.u32(enc.bigEndian);
                vr = dictionaryVr(group, element);
            }
            if (top && tag == PIXEL_DATA) {
                pixelData = true;
                if (stopAtPixelData) {
                    return;
                }
            }
            value(enc, tag, vr, length, bound, depth);
        }
    }

    private void value(Encoding enc, int tag, String vr, long length, long bound, int depth) throws IOException {
        boolean undefined = length == UNDEFINED;
        if (vr.equals("SQ")) {
            sequence(enc, length, bound, depth + 1);
        } else if (undefined && tag == PIXEL_DATA) {
            fragments(enc, bound);
        } else if (undefined && vr.equals("UN") && enc.explicit) {
            sequence(Encoding.IMPLICIT_LITTLE, length, bound, depth + 1);
        } else if (undefined && enc.explicit && (vr.equals("OB") || vr.equals("OW"))) {
            fragments(enc, bound);
        } else if (undefined) { // implicit VR: undefined length means a sequence, whatever the dictionary says
            sequence(enc, length, bound, depth + 1);
        } else if (vr.equals("UN") && (isSequenceInDictionary(tag) || startsWithItem(length, bound))) {
            tentativeSequence(length, bound, depth + 1); // a reader may know it as a (private) sequence
        } else {
            in.need(length, bound);
            in.skip(length, bound);
        }
    }

    private void sequence(Encoding enc, long length, long bound, int depth) throws IOException {
        if (depth > MAX_DEPTH) {
            throw new DicomStructureException("DICOM sequence nesting deeper than " + MAX_DEPTH + " levels");
        }
        long end = -1;
        if (length != UNDEFINED) {
            in.need(length, bound);
            end = in.pos + length;
            bound = end;
        }
        int items = 0;
        while (end < 0 || in.pos < end) {
            in.need(8, bound);
            int group = in.u16(enc.bigEndian);
            int element = in.u16(enc.bigEndian);
            long itemLength = in.u32(enc.bigEndian);
            if (group == 0xFFFE && element == 0xE0DD) {
                if (end < 0) {
                    return;
                }
                continue;
            }
            if (group != 0xFFFE || element != 0xE000) {
                throw new Malformed("DICOM sequence holds (" + hex4(group) + "," + hex4(element) + ") where an item is"
                        + " expected, at byte " + (in.pos - 8));
            }
            if (++items > MAX_ITEMS) {
                throw new DicomStructureException("DICOM sequence with more than " + MAX_ITEMS + " items");
            }
            count();
            if (itemLength == UNDEFINED) {
                elements(enc, -1, bound, true, depth, false);
            } else {
                in.need(itemLength, bound);
                elements(enc, in.pos + itemLength, in.pos + itemLength, false, depth, false);
            }
        }
    }

    /** Encapsulated pixel data: items of defined length up to the Sequence Delimitation. */
    private void fragments(Encoding enc, long bound) throws IOException {
        while (true) {
            in.need(8, bound);
            int group = in.u16(enc.bigEndian);
            int element = in.u16(enc.bigEndian);
            long length = in.u32(enc.bigEndian);
            if (group == 0xFFFE && element == 0xE0DD) {
                return;
            }
            if (group != 0xFFFE || element != 0xE000 || length == UNDEFINED) {
                throw new Malformed("DICOM encapsulated pixel data holds (" + hex4(group) + "," + hex4(element)
                        + ") where a fragment is expected, at byte " + (in.pos - 8));
            }
            count();
            in.need(length, bound);
            in.skip(length, bound);
        }
    }

    /**
     * A UN value whose tag the dictionary knows as a sequence, which a reader may parse as one (implicit VR little
     * endian): walked as a sequence within its length, the limits enforced; when it does not parse as one it is
     * skipped as the opaque value it then is.
     */
    private void tentativeSequence(long length, long bound, int depth) throws IOException {
        in.need(length, bound);
        long end = in.pos + length;
        try {
            sequence(Encoding.IMPLICIT_LITTLE, length, bound, depth);
        } catch (Malformed e) {
            in.skip(end - in.pos, bound);
        }
    }

    /** Whether a value of {@code length} bytes from here begins with an Item tag, as a sequence's value does. */
    private boolean startsWithItem(long length, long bound) throws IOException {
        if (length < 8) {
            return false;
        }
        in.need(length, bound);
        byte[] head = in.peek(4);
        return head.length == 4 && (head[0] & 0xFF) == 0xFE && (head[1] & 0xFF) == 0xFF && (head[2] & 0xFF) == 0x00
                && (head[3] & 0xFF) == 0xE0;
    }

    private void count() throws DicomStructureException {
        if (++elements > MAX_ELEMENTS) {
            throw new DicomStructureException("DICOM data set with more than " + MAX_ELEMENTS
                    + " data elements and items");
        }
    }

    private static String dictionaryVr(int group, int element) {
        byte[] vr = AttributeList.getDictionary().getValueRepresentationFromTag(new AttributeTag(group, element));
        return vr == null ? "UN" : new String(vr, StandardCharsets.US_ASCII);
    }

    private static boolean isSequenceInDictionary(int tag) {
        byte[] vr = AttributeList.getDictionary().getValueRepresentationFromTag(new AttributeTag(tag >>> 16,
                tag & 0xFFFF));
        return vr != null && ValueRepresentation.isSequenceVR(vr);
    }

    private static boolean isUpper(byte b) {
        return b >= 'A' && b <= 'Z';
    }

    static String hex4(int v) {
        return String.format("%04X", v);
    }

    /** The bytes of the data, with the position, the known length and the checks of lengths against both. */
    private static final class Reader {
        /** The most bytes looked at ahead: the first element's VR (6), an Item tag (4). */
        private static final int PEEK = 8;
        private PushbackInputStream in;
        private long size;
        private final long maxInflatedBytes;
        long pos;

        Reader(InputStream in, long size, long maxInflatedBytes) {
            this.in = new PushbackInputStream(in, PEEK);
            this.size = size;
            this.maxInflatedBytes = maxInflatedBytes;
        }

        /** From here on the data are deflated (PS3.5 A.5): inflated with a bound; their length is not known. */
        void inflateRest() {
            InputStream inflated = new InflaterInputStream(in, new Inflater(true), 8192);
            in = new PushbackInputStream(new BoundedStream(inflated, maxInflatedBytes), PEEK);
            size = -1;
            pos = 0;
        }

        /** Refuses a value of {@code length} bytes from here that runs past {@code bound} or the data's end. */
        void need(long length, long bound) throws Malformed {
            long remaining = Long.MAX_VALUE;
            if (bound >= 0) {
                remaining = bound - pos;
            }
            if (size >= 0) {
                remaining = Math.min(remaining, size - pos);
            }
            if (length > remaining) {
                throw new Malformed("DICOM data set damaged or truncated: " + length + " bytes declared at byte " + pos
                        + " but only " + Math.max(0, remaining) + " remain");
            }
        }

        boolean atEnd() throws IOException {
            int b = in.read();
            if (b < 0) {
                return true;
            }
            in.unread(b);
            return false;
        }

        byte[] peek(int n) throws IOException {
            byte[] b = in.readNBytes(Math.min(n, PEEK));
            in.unread(b);
            return b;
        }

        int peekGroup(boolean bigEndian) throws IOException {
            int a = in.read();
            int b = in.read();
            if (b < 0) {
                if (a >= 0) {
                    in.unread(a);
                }
                return -1;
            }
            in.unread(b);
            in.unread(a);
            return bigEndian ? a << 8 | b : b << 8 | a;
        }

        int u8() throws IOException {
            int b = in.read();
            if (b < 0) {
                throw new Malformed("DICOM data set truncated at byte " + pos);
            }
            pos++;
            return b;
        }

        int u16(boolean bigEndian) throws IOException {
            int a = u8();
            int b = u8();
            return bigEndian ? a << 8 | b : b << 8 | a;
        }

        long u32(boolean bigEndian) throws IOException {
            long a = u16(bigEndian);
            long b = u16(bigEndian);
            return bigEndian ? a << 16 | b : b << 16 | a;
        }

        byte[] bytes(int n) throws IOException {
            byte[] b = in.readNBytes(n);
            if (b.length < n) {
                throw new Malformed("DICOM data set truncated at byte " + (pos + b.length));
            }
            pos += n;
            return b;
        }

        void skip(long n, long bound) throws IOException {
            need(n, bound);
            try {
                in.skipNBytes(n);
            } catch (EOFException e) {
                throw new Malformed("DICOM data set truncated: a value of " + n + " bytes at byte " + pos
                        + " runs past the end");
            }
            pos += n;
        }
    }

    /** The inflated data, refused past a bound; damaged deflate data are a malformation. */
    private static final class BoundedStream extends FilterInputStream {
        private final long max;
        private long count;

        BoundedStream(InputStream in, long max) {
            super(in);
            this.max = max;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                int n = super.read(b, off, len);
                if (n > 0) {
                    add(n);
                }
                return n;
            } catch (ZipException e) {
                throw new Malformed("DICOM deflated data set is damaged: " + e.getMessage());
            }
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] buffer = new byte[(int) Math.min(n, 1 << 16)];
            int read = read(buffer, 0, buffer.length);
            return Math.max(read, 0);
        }

        private void add(long n) throws DicomStructureException {
            count += n;
            if (count > max) {
                throw new DicomStructureException("DICOM deflated data set inflates to more than " + max + " bytes");
            }
        }
    }
}
