package org.medjava.store.dicomweb;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The frames of a stored image, as WADO-RS {@code /frames} serves them: uncompressed pixel data as little-endian
 * bytes ({@code application/octet-stream}), compressed frames as their bit streams with the media type of their
 * transfer syntax (PS3.18 8.7.3). Read with PixelMed without decompressing.
 */
final class PixelFrames {

    /** Media types of compressed frames by transfer syntax. */
    private static final Map<String, String> COMPRESSED = Map.ofEntries(
            Map.entry("1.2.840.10008.1.2.4.50", "image/jpeg"), Map.entry("1.2.840.10008.1.2.4.51", "image/jpeg"),
            Map.entry("1.2.840.10008.1.2.4.57", "image/jpeg"), Map.entry("1.2.840.10008.1.2.4.70", "image/jpeg"),
            Map.entry("1.2.840.10008.1.2.4.80", "image/jls"), Map.entry("1.2.840.10008.1.2.4.81", "image/jls"),
            Map.entry("1.2.840.10008.1.2.4.90", "image/jp2"), Map.entry("1.2.840.10008.1.2.4.91", "image/jp2"),
            Map.entry("1.2.840.10008.1.2.5", "image/dicom-rle"));

    private final byte[][] frames;
    private final String mediaType;

    private PixelFrames(byte[][] frames, String mediaType) {
        this.frames = frames;
        this.mediaType = mediaType;
    }

    /** The media type of the parts: application/octet-stream, or that of the compressed frames. */
    String mediaType() {
        return mediaType;
    }

    int count() {
        return frames.length;
    }

    /** Frame {@code n}, counted from 1. */
    byte[] frame(int n) {
        return frames[n - 1];
    }

    static PixelFrames read(Path file, String transferSyntaxUid) throws IOException, DicomException {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        list.read(file.toString());
        Attribute pixels = list.get(TagFromName.PixelData);
        if (pixels == null) {
            throw new DicomException("the instance has no Pixel Data");
        }
        if (pixels instanceof OtherByteAttributeMultipleCompressedFrames compressed) {
            String type = COMPRESSED.getOrDefault(transferSyntaxUid, "application/octet-stream");
            return new PixelFrames(compressed.getFrames(), type + "; transfer-syntax=" + transferSyntaxUid);
        }
        byte[] all = littleEndian(pixels);
        int count = Math.max(1, Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfFrames, 1));
        int frameBytes = all.length / count;
        byte[][] frames = new byte[count][];
        for (int i = 0; i < count; i++) {
            frames[i] = java.util.Arrays.copyOfRange(all, i * frameBytes, (i + 1) * frameBytes);
        }
        return new PixelFrames(frames, "application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1");
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
