package org.medjava.store.net.dicomweb;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.medjava.codec.dicom.PixelMedInput;
import org.medjava.store.core.transcode.NotTranscodable;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.core.transcode.Transcoder;

/**
 * The frames of a stored image, as WADO-RS {@code /frames} and the Pixel Data bulk data serve them: uncompressed
 * pixel data as little-endian bytes (Explicit VR Little Endian's encoding), compressed frames as their bit streams
 * (read with PixelMed without decompressing), or compressed frames decoded to little-endian bytes on request.
 */
final class PixelFrames {

    /** Media types of compressed frames by transfer syntax (PS3.18 Table 8.7.3-5). */
    private static final Map<String, String> COMPRESSED = Map.ofEntries(
            Map.entry("1.2.840.10008.1.2.4.50", "image/jpeg"), Map.entry("1.2.840.10008.1.2.4.51", "image/jpeg"),
            Map.entry("1.2.840.10008.1.2.4.57", "image/jpeg"), Map.entry("1.2.840.10008.1.2.4.70", "image/jpeg"),
            Map.entry("1.2.840.10008.1.2.4.80", "image/jls"), Map.entry("1.2.840.10008.1.2.4.81", "image/jls"),
            Map.entry("1.2.840.10008.1.2.4.90", "image/jp2"), Map.entry("1.2.840.10008.1.2.4.91", "image/jp2"),
            Map.entry("1.2.840.10008.1.2.4.92", "image/jpx"), Map.entry("1.2.840.10008.1.2.4.93", "image/jpx"),
            Map.entry("1.2.840.10008.1.2.4.201", "image/jphc"), Map.entry("1.2.840.10008.1.2.4.202", "image/jphc"),
            Map.entry("1.2.840.10008.1.2.4.203", "image/jphc"), Map.entry("1.2.840.10008.1.2.5", "image/dicom-rle"));

    private final byte[][] frames;
    private final String transferSyntax;

    private PixelFrames(byte[][] frames, String transferSyntax) {
        this.frames = frames;
        this.transferSyntax = transferSyntax;
    }

    /** The image media type of frames compressed in {@code ts}; application/octet-stream when it has none. */
    static String mediaTypeOf(String ts) {
        return COMPRESSED.getOrDefault(ts, Negotiation.OCTET_STREAM);
    }

    /** Explicit VR Little Endian for uncompressed (or decoded) frames, else the compressed syntax. */
    String transferSyntax() {
        return transferSyntax;
    }

    int count() {
        return frames.length;
    }

    /** Frame {@code n}, counted from 1. */
    byte[] frame(int n) {
        return frames[n - 1];
    }

    /** All the frames' bytes one after the other (the value of an uncompressed Pixel Data). */
    byte[] all() {
        int length = 0;
        for (byte[] f : frames) {
            length += f.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] f : frames) {
            System.arraycopy(f, 0, all, at, f.length);
            at += f.length;
        }
        return all;
    }

    /** The frames as stored: compressed bit streams, or uncompressed pixels as little-endian bytes. */
    static PixelFrames read(Path file, String transferSyntaxUid) throws IOException, DicomException {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        // PixelMedInput: PixelMed alone reads an HTJ2K object's encapsulated Pixel Data as no frames at all
        try (DicomInputStream in = PixelMedInput.open(new BufferedInputStream(Files.newInputStream(file)))) {
            list.read(in);
        }
        Attribute pixels = list.get(TagFromName.PixelData);
        if (pixels == null) {
            throw new DicomException("the instance has no Pixel Data");
        }
        if (pixels instanceof OtherByteAttributeMultipleCompressedFrames compressed) {
            return new PixelFrames(compressed.getFrames(), transferSyntaxUid);
        }
        return uncompressed(list, pixels);
    }

    /** The frames of a compressed instance decoded to little-endian bytes. */
    static PixelFrames decoded(Path file, String transferSyntaxUid) throws IOException, NotTranscodable {
        AttributeList list = Transcoder.decode(file, transferSyntaxUid, TransferSyntaxes.EXPLICIT_LE);
        Attribute pixels = list.get(TagFromName.PixelData);
        if (pixels == null) {
            throw new NotTranscodable("the instance has no Pixel Data");
        }
        try {
            return uncompressed(list, pixels);
        } catch (DicomException e) {
            throw new NotTranscodable("the decoded pixel data of " + file.getFileName() + " cannot be read: "
                    + e.getMessage(), e);
        }
    }

    private static PixelFrames uncompressed(AttributeList list, Attribute pixels) throws DicomException {
        byte[] all = littleEndian(pixels);
        int count = Math.max(1, Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfFrames, 1));
        int frameBytes = all.length / count;
        byte[][] frames = new byte[count][];
        for (int i = 0; i < count; i++) {
            frames[i] = java.util.Arrays.copyOfRange(all, i * frameBytes, (i + 1) * frameBytes);
        }
        return new PixelFrames(frames, TransferSyntaxes.EXPLICIT_LE);
    }

    private static byte[] littleEndian(Attribute pixels) throws DicomException {
        if (pixels instanceof OtherWordAttribute words) {
            short[] s = words.getShortValues();
            byte[] b = new byte[s.length * 2];
            for (int i = 0; i < s.length; i++) {
                b[2 * i] = (byte) s[i];
                b[2 * i + 1] = (byte) (s[i] >> 8);
            }
            return b;
        }
        return pixels.getByteValues();
    }
}
