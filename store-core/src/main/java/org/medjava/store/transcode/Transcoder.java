package org.medjava.store.transcode;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomOutputStream;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.PixelFrames;

/**
 * Re-encodes a stored Part 10 file in another transfer syntax. Uncompressed to uncompressed: the same attributes in
 * the other encoding. Compressed to uncompressed: PixelMed decodes the pixel data (all frames), and the Image Pixel
 * module is made to describe what was decoded: Photometric Interpretation RGB where the decoder turned YBR into RGB
 * (JPEG), Planar Configuration of the decoded samples, native Pixel Data; a lossy source is marked Lossy Image
 * Compression "01" with its method and ratio, as PS3.3 C.7.6.1.1.5 requires of anything once lossy-compressed.
 * JPEG-LS, 12-bit JPEG and RLE are decoded by image-codec's {@link PixelFrames} (CharLS, its own 12-bit JPEG
 * decoder, RLE of every layout) rather than by PixelMed.
 * Objects are held in memory while they are converted, as the HTTP upload's validation does.
 */
public final class Transcoder {

    private Transcoder() {
    }

    /**
     * The object at {@code file}, stored in {@code from}, as attributes ready to be written in {@code to} (no file
     * meta information, no group lengths).
     *
     * @throws NotTranscodable when it cannot be delivered in {@code to} (see {@link TransferSyntaxes#whyNot}) or its
     *                         pixel data do not decode
     */
    public static AttributeList decode(Path file, String from, String to) throws IOException, NotTranscodable {
        String why = TransferSyntaxes.whyNot(from, to, needsBitsAllocated(from) ? bitsAllocated(file) : null);
        if (why != null) {
            throw new NotTranscodable(why);
        }
        if (!from.equals(to) && !TransferSyntaxes.isNative(from) && decodedByImageCodec(file, from)) {
            return decodeHere(file, from);
        }
        boolean decompress = !TransferSyntaxes.isNative(from);
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(decompress);
        try {
            list.read(file.toString());
            if (decompress) {
                if (list.getPixelData() instanceof OtherByteAttributeMultipleCompressedFrames) {
                    throw new NotTranscodable("the " + TransferSyntaxes.name(from) + " pixel data of " + file.getFileName()
                            + " could not be decoded");
                }
                list.correctDecompressedImagePixelModule();
                list.insertLossyImageCompressionHistoryIfDecompressed();
            }
        } catch (DicomException | RuntimeException e) {
            throw new NotTranscodable("the " + TransferSyntaxes.name(from) + " data set " + file.getFileName()
                    + " could not be decoded: " + e.getMessage(), e);
        }
        list.removeGroupLengthAttributes();
        list.removeMetaInformationHeaderAttributes();
        list.remove(TagFromName.DataSetTrailingPadding);
        return list;
    }

    /**
     * JPEG-LS, 12-bit JPEG, and the RLE layouts PixelMed does not decode (colour of more than 8 bits, 32 bits);
     * other RLE stays with PixelMed, whose output (planar configuration included) matches dcmdrle's.
     */
    private static boolean decodedByImageCodec(Path file, String from) throws IOException {
        if (from.equals(PixelFrames.JPEG_LS_LOSSLESS) || from.equals(PixelFrames.JPEG_LS_NEAR_LOSSLESS)) {
            return true;
        }
        if (!from.equals(PixelFrames.RLE) && !needsBitsAllocated(from)) {
            return false;
        }
        AttributeList header = header(file);
        int bits = Attribute.getSingleIntegerValueOrDefault(header, TagFromName.BitsAllocated, 0);
        int samples = Attribute.getSingleIntegerValueOrDefault(header, TagFromName.SamplesPerPixel, 1);
        return from.equals(PixelFrames.RLE) ? bits > 16 || bits > 8 && samples > 1 : bits > 8;
    }

    /** Decompressed by image-codec's PixelFrames (JPEG-LS, 12-bit JPEG, RLE). */
    private static AttributeList decodeHere(Path file, String from) throws IOException, NotTranscodable {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try {
            list.read(file.toString());
            PixelFrames.decompress(list, from);
        } catch (ImageDecodeException e) {
            throw new NotTranscodable("the " + TransferSyntaxes.name(from) + " pixel data of " + file.getFileName()
                    + " could not be decoded: " + e.getMessage(), e);
        } catch (DicomException | RuntimeException e) {
            throw new NotTranscodable("the " + TransferSyntaxes.name(from) + " data set " + file.getFileName()
                    + " could not be decoded: " + e.getMessage(), e);
        }
        list.removeGroupLengthAttributes();
        list.removeMetaInformationHeaderAttributes();
        list.remove(TagFromName.DataSetTrailingPadding);
        return list;
    }

    /** The object as a Part 10 file in {@code to}, with new file meta information naming {@code sourceAe}. */
    public static byte[] part10(Path file, String from, String to, String sourceAe) throws IOException,
            NotTranscodable {
        AttributeList list = decode(file, from, to);
        ByteArrayOutputStream out = new ByteArrayOutputStream(capacity(file));
        try {
            FileMetaInformation.addFileMetaInformation(list, to, sourceAe);
            list.write(out, to, true, true);
        } catch (DicomException e) {
            throw new NotTranscodable("cannot write " + file.getFileName() + " in " + to + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** The object's data set alone in {@code to}, as a C-STORE sends it. */
    public static byte[] dataSet(Path file, String from, String to) throws IOException, NotTranscodable {
        AttributeList list = decode(file, from, to);
        ByteArrayOutputStream out = new ByteArrayOutputStream(capacity(file));
        try (DicomOutputStream dicom = new DicomOutputStream(out, null, to)) {
            list.write(dicom);
        } catch (DicomException e) {
            throw new NotTranscodable("cannot write " + file.getFileName() + " in " + to + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** Whether a 12-bit object could hide in {@code ts}: PixelMed decodes JPEG baseline and extended at 8 bits. */
    private static boolean needsBitsAllocated(String ts) {
        return ts.equals("1.2.840.10008.1.2.4.50") || ts.equals("1.2.840.10008.1.2.4.51");
    }

    private static AttributeList header(Path file) throws IOException {
        AttributeList header = new AttributeList();
        header.setDecompressPixelData(false);
        try {
            header.read(file.toString(), TagFromName.PixelData);
        } catch (DicomException e) {
            throw new IOException("cannot read " + file.getFileName() + ": " + e.getMessage(), e);
        }
        return header;
    }

    private static Integer bitsAllocated(Path file) throws IOException {
        AttributeList header = header(file);
        int bits = Attribute.getSingleIntegerValueOrDefault(header, TagFromName.BitsAllocated, -1);
        return bits < 0 ? null : bits;
    }

    private static int capacity(Path file) throws IOException {
        return (int) Math.min(Integer.MAX_VALUE - 8, Files.size(file) * 2 + 1024);
    }
}
