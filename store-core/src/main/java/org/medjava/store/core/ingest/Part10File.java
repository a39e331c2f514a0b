package org.medjava.store.core.ingest;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A stored DICOM Part 10 file as the storage SCU sends it: the SOP class and instance and the transfer syntax from
 * its file meta information, and where its data set starts, so that the data set can be sent byte for byte as it is
 * stored. The meta information (group 0002, explicit VR little endian, PS3.10 7.1) is walked element by element.
 */
public record Part10File(Path file, String sopClassUid, String sopInstanceUid, String transferSyntaxUid,
                         long dataSetOffset) {

    private static final int PREAMBLE = 128;
    /** No real file meta information is this large. */
    private static final int MAX_META = 1 << 16;

    /** @throws IOException when the file cannot be read or is not Part 10 with the three UIDs in its meta information */
    public static Part10File read(Path file) throws IOException {
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file))) {
            return read(file, raw);
        }
    }

    static Part10File read(Path file, InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        in.skipNBytes(PREAMBLE);
        byte[] magic = in.readNBytes(4);
        if (!new String(magic, StandardCharsets.US_ASCII).equals("DICM")) {
            throw new IOException(file + " is not a DICOM Part 10 file");
        }
        long offset = PREAMBLE + 4;
        String sopClass = null;
        String sopInstance = null;
        String ts = null;
        while (offset < PREAMBLE + 4 + MAX_META) {
            int group = readShort(in);
            if (group != 0x0002) {
                break;
            }
            MetaHeader meta = MetaHeader.read(in);
            int element = meta.element();
            long length = meta.length();
            int header = meta.size();
            if (length < 0 || length > MAX_META) {
                throw new IOException(file + ": file meta element (0002," + String.format("%04X", element)
                        + ") has length " + length);
            }
            byte[] value = in.readNBytes((int) length);
            switch (element) {
                case 0x0002 -> sopClass = uid(value);
                case 0x0003 -> sopInstance = uid(value);
                case 0x0010 -> ts = uid(value);
                default -> {
                    // other meta elements are sent as they are: not at all (the receiver writes its own)
                }
            }
            offset += header + length;
        }
        if (sopClass == null || sopInstance == null || ts == null) {
            throw new IOException(file + ": the file meta information lacks the SOP class, instance or transfer syntax");
        }
        return new Part10File(file, sopClass, sopInstance, ts, offset);
    }

    /**
     * What is wrong with the File Meta Information Group Length (0002,0000) of a Part 10 file, or null when it
     * agrees with the elements of group 0002 that follow it (or is absent). Readers that trust it (PixelMed, when it
     * reads a header up to the pixel data) and readers that walk the elements disagree on where the data set starts
     * when it lies, so the same file parses one way and renders another.
     *
     * @param raw the file from its first byte (preamble); the file is known to be Part 10
     */
    static String metaGroupLengthProblem(InputStream raw) throws IOException {
        DataInputStream in = new DataInputStream(raw);
        in.skipNBytes(PREAMBLE + 4);
        long offset = 0;
        long declared = -1;
        long counted = 0;
        while (offset < MAX_META) {
            int group;
            try {
                group = readShort(in);
            } catch (java.io.EOFException e) {
                break; // nothing after the meta information: its length is what was walked
            }
            if (group != 0x0002) {
                break;
            }
            MetaHeader meta = MetaHeader.read(in);
            int element = meta.element();
            long length = meta.length();
            int header = meta.size();
            if (length < 0 || length > MAX_META) {
                return null; // not walkable: the pre-scan and the parser name what is wrong
            }
            byte[] value = in.readNBytes((int) length);
            if (element == 0x0000 && length == 4 && value.length == 4) {
                declared = (value[0] & 0xffL) | (value[1] & 0xffL) << 8 | (value[2] & 0xffL) << 16
                        | (value[3] & 0xffL) << 24;
            } else if (declared >= 0) {
                counted += header + length;
            }
            offset += header + length;
        }
        if (declared < 0 || declared == counted) {
            return null;
        }
        return "File Meta Information Group Length (0002,0000) says " + declared + " bytes, but the elements of the"
                + " file meta information after it take " + counted + " bytes; write the file again with the right"
                + " length (e.g. dcmconv)";
    }

    /** The data set, as stored. */
    public InputStream openDataSet() throws IOException {
        InputStream in = Files.newInputStream(file);
        in.skipNBytes(dataSetOffset);
        return in;
    }

    private static String uid(byte[] value) {
        String s = new String(value, StandardCharsets.US_ASCII);
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == 0 || s.charAt(end - 1) == ' ')) {
            end--;
        }
        return s.substring(0, end).trim();
    }

    /** The rest of a group 0002 element's header (explicit VR little endian) after its group number. */
    private record MetaHeader(int element, int size, long length) {
        static MetaHeader read(DataInputStream in) throws IOException {
            int element = readShort(in);
            String vr = new String(in.readNBytes(2), StandardCharsets.US_ASCII);
            if (vr.equals("OB") || vr.equals("OW") || vr.equals("UN") || vr.equals("SQ") || vr.equals("UT")
                    || vr.equals("UC") || vr.equals("UR")) {
                in.skipNBytes(2);
                return new MetaHeader(element, 12, readInt(in));
            }
            return new MetaHeader(element, 8, readShort(in));
        }
    }

    private static int readShort(DataInputStream in) throws IOException {
        int lo = in.readUnsignedByte();
        int hi = in.readUnsignedByte();
        return lo | (hi << 8);
    }

    private static long readInt(DataInputStream in) throws IOException {
        long b0 = in.readUnsignedByte();
        long b1 = in.readUnsignedByte();
        long b2 = in.readUnsignedByte();
        long b3 = in.readUnsignedByte();
        return b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
    }
}
