package org.medjava.store.core.testsupport;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.IntegerStringAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.UUID;

/**
 * A valid multi-frame grey DICOM object (Multi-frame Grayscale Word Secondary Capture, Explicit VR Little Endian,
 * 512 x 512 x 16 bits per frame) of any number of frames, generated as it is read: the header is made with PixelMed,
 * the pixel data (all 0) are never held in memory. For uploads of objects near 1 GiB, and (its {@link #header} and
 * {@link #size} written as a sparse file) for staged objects of that size that take no room on disk. Or
 * ({@link #pdf}) an Encapsulated PDF of any size, which the store keeps and never renders.
 */
public final class GeneratedDicom extends InputStream {

    public static final int SIDE = 512;
    public static final long FRAME_BYTES = 2L * SIDE * SIDE;

    /** The start of the encapsulated document; the rest of it is zeros. */
    private static final byte[] PDF_START = "%PDF-1.4\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final byte[] header;
    private final long pixelBytes;
    /** What follows the zeros (the elements after a large value); empty for an image. */
    private final byte[] trailer;
    private long at;

    public GeneratedDicom(int frames) {
        this.pixelBytes = frames * FRAME_BYTES;
        this.header = header(frames, pixelBytes);
        this.trailer = new byte[0];
    }

    private GeneratedDicom(byte[] header, long zeros, byte[] trailer) {
        this.header = header;
        this.pixelBytes = zeros;
        this.trailer = trailer;
    }

    /**
     * An Encapsulated PDF Storage object (no pixel data) whose Encapsulated Document (0042,0011) holds
     * {@code documentBytes} (rounded up to even): "%PDF-1.4", then zeros. A large object the store keeps as it is.
     */
    public static GeneratedDicom pdf(long documentBytes) {
        long length = documentBytes + (documentBytes & 1);
        byte[] header = pdfHeader(length);
        byte[] withStart = java.util.Arrays.copyOf(header, header.length + PDF_START.length);
        System.arraycopy(PDF_START, 0, withStart, header.length, PDF_START.length);
        // MIME Type of Encapsulated Document (0042,0012) LO, after the document in tag order
        byte[] mime = "application/pdf ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] trailer = java.nio.ByteBuffer.allocate(8 + mime.length).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putShort((short) 0x0042).putShort((short) 0x0012).put((byte) 'L').put((byte) 'O')
                .putShort((short) mime.length).put(mime).array();
        return new GeneratedDicom(withStart, length - PDF_START.length, trailer);
    }

    /** The length of the object in bytes. */
    public long size() {
        return header.length + pixelBytes + trailer.length;
    }

    /** Everything before the pixel data's values: the meta information, the data set and Pixel Data's own header. */
    public byte[] header() {
        return header.clone();
    }

    /** The object as a sparse file: its header, then zeros that take no room on disk. */
    public java.nio.file.Path writeSparse(java.nio.file.Path file) throws IOException {
        try (java.io.RandomAccessFile out = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            out.write(header);
            out.seek(header.length + pixelBytes);
            out.write(trailer);
            out.setLength(size());
        }
        return file;
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        long left = size() - at;
        if (left <= 0) {
            return -1;
        }
        int n = (int) Math.min(len, left);
        for (int i = 0; i < n; i++) {
            long p = at + i;
            long t = p - header.length - pixelBytes;
            b[off + i] = p < header.length ? header[(int) p] : t >= 0 ? trailer[(int) t] : 0;
        }
        at += n;
        return n;
    }

    private static byte[] header(int frames, long pixelBytes) {
        try {
            AttributeList list = identity("1.2.840.10008.5.1.4.1.1.7.3", "OT");
            text(list, TagFromName.PhotometricInterpretation, "MONOCHROME2");
            for (AttributeTag tag : new AttributeTag[] {TagFromName.Rows, TagFromName.Columns}) {
                unsigned(list, tag, SIDE);
            }
            unsigned(list, TagFromName.SamplesPerPixel, 1);
            unsigned(list, TagFromName.BitsAllocated, 16);
            unsigned(list, TagFromName.BitsStored, 16);
            unsigned(list, TagFromName.HighBit, 15);
            unsigned(list, TagFromName.PixelRepresentation, 0);
            IntegerStringAttribute count = new IntegerStringAttribute(TagFromName.NumberOfFrames);
            count.addValue(frames);
            list.put(count);
            FileMetaInformation.addFileMetaInformation(list, TransferSyntax.ExplicitVRLittleEndian, "MEMORYIT");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            list.write(out, TransferSyntax.ExplicitVRLittleEndian, true, true);
            // Pixel Data (7FE0,0010) OW, reserved 0000, 32-bit length; the values follow
            out.write(new byte[] {(byte) 0xE0, 0x7F, 0x10, 0x00, 'O', 'W', 0, 0});
            for (int i = 0; i < 4; i++) {
                out.write((int) (pixelBytes >>> (8 * i)));
            }
            return out.toByteArray();
        } catch (DicomException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A new object of {@code sopClass}: patient, study, series and instance of its own (fresh UIDs). */
    private static AttributeList identity(String sopClass, String modality) throws DicomException {
        AttributeList list = new AttributeList();
        String uid = "2.25." + new BigInteger(1, uuidBytes());
        text(list, TagFromName.SOPClassUID, sopClass);
        text(list, TagFromName.SOPInstanceUID, uid + ".3");
        text(list, TagFromName.StudyInstanceUID, uid + ".1");
        text(list, TagFromName.SeriesInstanceUID, uid + ".2");
        text(list, TagFromName.PatientID, "MEMORY-IT");
        text(list, TagFromName.PatientName, "Memory^Test");
        text(list, TagFromName.Modality, modality);
        return list;
    }

    private static byte[] pdfHeader(long documentBytes) {
        try {
            AttributeList list = identity("1.2.840.10008.5.1.4.1.1.104.1", "DOC");
            text(list, TagFromName.ConversionType, "WSD");
            FileMetaInformation.addFileMetaInformation(list, TransferSyntax.ExplicitVRLittleEndian, "MEMORYIT");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            list.write(out, TransferSyntax.ExplicitVRLittleEndian, true, true);
            // Encapsulated Document (0042,0011) OB, reserved 0000, 32-bit length; the values follow
            out.write(new byte[] {0x42, 0x00, 0x11, 0x00, 'O', 'B', 0, 0});
            for (int i = 0; i < 4; i++) {
                out.write((int) (documentBytes >>> (8 * i)));
            }
            return out.toByteArray();
        } catch (DicomException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] uuidBytes() {
        UUID u = UUID.randomUUID();
        return java.nio.ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
                .putLong(u.getLeastSignificantBits()).array();
    }

    private static void text(AttributeList list, AttributeTag tag, String value) throws DicomException {
        com.pixelmed.dicom.Attribute a = com.pixelmed.dicom.AttributeFactory.newAttribute(tag,
                list.getDictionary().getValueRepresentationFromTag(tag));
        a.addValue(value);
        list.put(a);
    }

    private static void unsigned(AttributeList list, AttributeTag tag, int value) throws DicomException {
        com.pixelmed.dicom.UnsignedShortAttribute a = new com.pixelmed.dicom.UnsignedShortAttribute(tag);
        a.addValue(value);
        list.put(a);
    }
}
