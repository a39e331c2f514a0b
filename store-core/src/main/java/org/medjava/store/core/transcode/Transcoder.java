package org.medjava.store.core.transcode;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.CodeStringAttribute;
import com.pixelmed.dicom.DecimalStringAttribute;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.DicomOutputStream;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.UnsignedShortAttribute;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.CharLs;
import org.medjava.codec.dicom.CodedFrameSize;
import org.medjava.codec.dicom.Jpeg2000;
import org.medjava.codec.dicom.PixelFrames;
import org.medjava.codec.dicom.PixelMedInput;

/**
 * Re-encodes a stored Part 10 file in another transfer syntax. Uncompressed to uncompressed: the same attributes in
 * the other encoding. From a compressed syntax: PixelMed decodes the pixel data (all frames), and the Image Pixel
 * module is made to describe what was decoded: Photometric Interpretation RGB where the decoder turned YBR into RGB
 * (JPEG), Planar Configuration of the decoded samples, native Pixel Data. JPEG-LS, 12-bit JPEG and RLE are decoded
 * by image-codec's {@link PixelFrames} (CharLS, its own 12-bit JPEG decoder, RLE of every layout) rather than by
 * PixelMed. To a compressed syntax: the decoded frames are encoded here (RLE, JPEG Lossless SV1, JPEG 2000, JPEG
 * Baseline; JPEG-LS through image-codec's CharLS bridge) and encapsulated, one fragment a frame. Anything once
 * lossy-compressed is marked Lossy Image Compression "01" with its methods and ratios, as PS3.3 C.7.6.1.1.5
 * requires; lossy encoding happens only when the caller says it was asked for. The SOP Instance UID is kept: this
 * is the same instance delivered in another encoding, as a WADO-RS or C-GET answer.
 * Objects are held in memory while they are converted, as the HTTP upload's validation does.
 */
public final class Transcoder {

    /** JPEG-LS near-lossless: the largest error allowed in a sample (NEAR), when that lossy form is asked for. */
    static final int JPEG_LS_NEAR = 2;

    /** Photometric interpretations whose native samples are one value per sample per pixel, encodable as they are. */
    private static final Set<String> ENCODABLE_PHOTOMETRIC = Set.of("MONOCHROME1", "MONOCHROME2", "PALETTE COLOR",
            "RGB", "YBR_FULL");

    private Transcoder() {
    }

    /**
     * The object at {@code file}, stored in {@code from}, decoded to attributes ready to be written in the
     * uncompressed syntax {@code to} (no file meta information, no group lengths).
     *
     * @throws NotTranscodable when it cannot be delivered in {@code to} (see {@link TransferSyntaxes#whyNot}) or its
     *                         pixel data do not decode
     */
    public static AttributeList decode(Path file, String from, String to) throws IOException, NotTranscodable {
        return convert(file, from, to, false);
    }

    /**
     * The object as attributes to be written in {@code to}, compressed if {@code to} is a compressed syntax.
     *
     * @param lossyAsked whether whoever wants it asked for a lossy {@code to}; without that a lossy {@code to}
     *                   other than the stored syntax is refused
     */
    public static AttributeList convert(Path file, String from, String to, boolean lossyAsked) throws IOException,
            NotTranscodable {
        String why = TransferSyntaxes.whyNot(from, to, needsBitsAllocated(from, to) ? bitsAllocated(file) : null);
        if (why != null) {
            throw new NotTranscodable(why);
        }
        if (TransferSyntaxes.isLossy(to) && !to.equals(from) && !lossyAsked) {
            throw new NotTranscodable("the store compresses with loss (" + TransferSyntaxes.name(to)
                    + ") only when asked to, and the object is stored in " + TransferSyntaxes.name(from));
        }
        AttributeList list;
        if (!from.equals(to) && !TransferSyntaxes.isNative(from) && decodedByImageCodec(file, from)) {
            list = decodeHere(file, from);
        } else {
            list = decodedByPixelMed(file, from);
        }
        if (!TransferSyntaxes.isNative(to) && !to.equals(from)) {
            try {
                compress(list, to);
            } catch (DicomException e) {
                throw new NotTranscodable("cannot encode " + file.getFileName() + " in " + TransferSyntaxes.name(to)
                        + ": " + e.getMessage(), e);
            }
        }
        return list;
    }

    private static NotTranscodable undecodable(Path file, String from, Throwable e) {
        return new NotTranscodable("the " + TransferSyntaxes.name(from) + " data set " + file.getFileName()
                + " could not be decoded: " + e.getMessage(), e);
    }

    /** Read by PixelMed, decompressed if {@code from} is compressed. */
    private static AttributeList decodedByPixelMed(Path file, String from) throws IOException, NotTranscodable {
        boolean decompress = !TransferSyntaxes.isNative(from);
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(decompress);
        try {
            if (decompress) { // PixelMed's decoders allocate whatever size a frame's own header claims
                AttributeList coded = new AttributeList();
                coded.setDecompressPixelData(false);
                coded.read(file.toString());
                CodedFrameSize.requireEveryFrame(coded, from);
            }
            list.read(file.toString());
            if (decompress) {
                if (list.getPixelData() instanceof OtherByteAttributeMultipleCompressedFrames) {
                    throw new NotTranscodable("the " + TransferSyntaxes.name(from) + " pixel data of "
                            + file.getFileName() + " could not be decoded");
                }
                list.correctDecompressedImagePixelModule();
                list.insertLossyImageCompressionHistoryIfDecompressed();
            }
        } catch (ImageDecodeException | DicomException | RuntimeException e) {
            throw undecodable(file, from, e);
        } catch (Error e) {
            if (!ImageDecodeException.isDecoderRefusal(e)) {
                throw e;
            }
            throw undecodable(file, from, e);
        }
        return withoutFileMeta(list);
    }

    /**
     * JPEG-LS, 12-bit JPEG, and the RLE layouts PixelMed does not decode (colour of more than 8 bits, 32 bits);
     * other RLE stays with PixelMed, whose output (planar configuration included) matches dcmdrle's.
     */
    private static boolean decodedByImageCodec(Path file, String from) throws IOException {
        if (from.equals(PixelFrames.JPEG_LS_LOSSLESS) || from.equals(PixelFrames.JPEG_LS_NEAR_LOSSLESS)) {
            return true;
        }
        if (Jpeg2000.handles(from)) { // OpenJPEG and OpenJPH; JPEG 2000 by PixelMed only where OpenJPEG is missing
            return PixelFrames.decodesHere(from, 0, 0);
        }
        if (!from.equals(PixelFrames.RLE) && !needsBitsAllocated(from)) {
            return false;
        }
        AttributeList header = header(file);
        int bits = Attribute.getSingleIntegerValueOrDefault(header, TagFromName.BitsAllocated, 0);
        int samples = Attribute.getSingleIntegerValueOrDefault(header, TagFromName.SamplesPerPixel, 1);
        return from.equals(PixelFrames.RLE) ? bits > 16 || bits > 8 && samples > 1 : bits > 8;
    }

    /** The data set alone, ready to be written in another syntax: no file meta information, group lengths, padding. */
    private static AttributeList withoutFileMeta(AttributeList list) {
        list.removeGroupLengthAttributes();
        list.removeMetaInformationHeaderAttributes();
        list.remove(TagFromName.DataSetTrailingPadding);
        return list;
    }

    /** Decompressed by image-codec's PixelFrames (JPEG-LS, 12-bit JPEG, RLE, JPEG 2000, HTJ2K). */
    private static AttributeList decodeHere(Path file, String from) throws IOException, NotTranscodable {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = PixelMedInput.open(new BufferedInputStream(Files.newInputStream(file)))) {
            list.read(in);
            CodedFrameSize.requireEveryFrame(list, from); // JPEG 2000's size from SIZ, said the same way as for PixelMed
            PixelFrames.decompress(list, from);
        } catch (ImageDecodeException e) {
            throw new NotTranscodable("the " + TransferSyntaxes.name(from) + " pixel data of " + file.getFileName()
                    + " could not be decoded: " + e.getMessage(), e);
        } catch (DicomException | RuntimeException e) {
            throw new NotTranscodable("the " + TransferSyntaxes.name(from) + " data set " + file.getFileName()
                    + " could not be decoded: " + e.getMessage(), e);
        }
        return withoutFileMeta(list);
    }

    /** The object as a Part 10 file in {@code to}, with new file meta information naming {@code sourceAe}. */
    public static byte[] part10(Path file, String from, String to, String sourceAe) throws IOException,
            NotTranscodable {
        return part10(file, from, to, sourceAe, false);
    }

    /** As {@link #part10(Path, String, String, String)}, lossy {@code to} allowed when {@code lossyAsked}. */
    public static byte[] part10(Path file, String from, String to, String sourceAe, boolean lossyAsked)
            throws IOException, NotTranscodable {
        AttributeList list = convert(file, from, to, lossyAsked);
        ByteArrayOutputStream out = new ByteArrayOutputStream(capacity(file));
        try {
            FileMetaInformation.addFileMetaInformation(list, to, sourceAe);
            list.write(out, to, true, true);
        } catch (DicomException e) {
            throw new NotTranscodable("cannot write " + file.getFileName() + " in " + to + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** The object's data set alone in {@code to} (never lossy unless stored so), as a C-STORE sends it. */
    public static byte[] dataSet(Path file, String from, String to) throws IOException, NotTranscodable {
        AttributeList list = convert(file, from, to, false);
        ByteArrayOutputStream out = new ByteArrayOutputStream(capacity(file));
        try (DicomOutputStream dicom = new DicomOutputStream(out, null, to)) {
            list.write(dicom);
        } catch (DicomException e) {
            throw new NotTranscodable("cannot write " + file.getFileName() + " in " + to + ": " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /** Replaces the native Pixel Data of {@code list} by its frames encoded in {@code to}. */
    private static void compress(AttributeList list, String to) throws NotTranscodable, DicomException {
        String photometric = Attribute.getSingleStringValueOrEmptyString(list, TagFromName.PhotometricInterpretation)
                .trim().toUpperCase(Locale.ROOT);
        if (!ENCODABLE_PHOTOMETRIC.contains(photometric)) {
            throw new NotTranscodable("pixel data in " + photometric + " are not compressed here");
        }
        if (TransferSyntaxes.isLossy(to) && photometric.equals("PALETTE COLOR")) {
            throw new NotTranscodable("palette colour indices are not compressed with loss: a near value is another "
                    + "colour");
        }
        NativeFrames image = NativeFrames.of(list);
        if (to.equals(TransferSyntaxes.JPEG_BASELINE) && !(photometric.startsWith("MONOCHROME")
                || photometric.equals("RGB"))) {
            throw new NotTranscodable("JPEG Baseline is written here from grey or RGB images only, not " + photometric);
        }
        byte[][] frames = new byte[image.frames()][];
        long compressed = 0;
        for (int f = 0; f < frames.length; f++) {
            byte[] encoded = switch (to) {
                case TransferSyntaxes.RLE -> RleEncoder.encode(image, f);
                case TransferSyntaxes.JPEG_LOSSLESS_SV1 -> JpegLosslessEncoder.encode(image, f);
                case TransferSyntaxes.JPEG_LS_LOSSLESS -> jpegLs(image, f, 0);
                case TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS -> jpegLs(image, f, JPEG_LS_NEAR);
                case TransferSyntaxes.J2K_LOSSLESS -> jpeg2000(image, f, true);
                case TransferSyntaxes.J2K -> jpeg2000(image, f, false);
                case TransferSyntaxes.HTJ2K_RPCL_LOSSLESS, TransferSyntaxes.HTJ2K_LOSSLESS -> htj2k(image, f);
                case TransferSyntaxes.JPEG_BASELINE -> ImageIoEncoders.jpegBaseline(image, f);
                default -> throw new NotTranscodable("the store does not encode " + TransferSyntaxes.name(to));
            };
            frames[f] = evenLength(encoded);
            compressed += frames[f].length;
        }
        list.remove(TagFromName.PixelData);
        list.put(new OtherByteAttributeMultipleCompressedFrames(TagFromName.PixelData, frames));
        if (image.samplesPerPixel() > 1) {
            set(list, new UnsignedShortAttribute(TagFromName.PlanarConfiguration), "0");
        }
        if (to.equals(TransferSyntaxes.JPEG_BASELINE) && image.samplesPerPixel() == 3) {
            // the JDK writes colour as JFIF YCbCr with 2:1 chroma subsampling
            set(list, new CodeStringAttribute(TagFromName.PhotometricInterpretation), "YBR_FULL_422");
        }
        if (TransferSyntaxes.isLossy(to)) {
            double ratio = (double) image.bytesPerFrame() * image.frames() / compressed;
            markLossy(list, String.format(Locale.ROOT, "%.2f", ratio), switch (to) {
                case TransferSyntaxes.JPEG_BASELINE -> "ISO_10918_1";
                case TransferSyntaxes.JPEG_LS_NEAR_LOSSLESS -> "ISO_14495_1";
                default -> "ISO_15444_1";
            });
        }
    }

    /**
     * One frame as JPEG-LS by CharLS (image-codec's bridge): samples pixel-interleaved, one byte each up to 8 bits,
     * else two little-endian. Lossless: precision Bits Allocated, so every stored bit pattern comes back.
     * Near-lossless: the precision that holds the samples (Bits Stored where it can), so that CharLS keeps the
     * reconstructed values within the stored range rather than spilling a 10-bit 1023 into the 11th bit.
     */
    private static byte[] jpegLs(NativeFrames image, int frame, int near) throws NotTranscodable {
        int precision = near == 0 ? image.bitsAllocated() : image.precision();
        if (near > 0 && precision != image.bitsAllocated() && image.signed()) {
            throw new NotTranscodable("JPEG-LS near-lossless is written here for unsigned or full-width signed "
                    + "samples only");
        }
        byte[] samples = frameBytes(image, frame);
        try {
            return CharLs.encodeFrame(samples, image.columns(), image.rows(), precision, image.samplesPerPixel(),
                    near);
        } catch (ImageDecodeException e) {
            throw new NotTranscodable("JPEG-LS encoding failed: " + e.getMessage(), e);
        }
    }

    /**
     * One frame as JPEG 2000 by OpenJPEG (image-codec's bridge), at the precision of Bits Allocated and unsigned as for
     * HTJ2K, no colour transform (RGB stays RGB); lossy at 10:1 and for 8-bit samples only, as before (signed samples
     * held as unsigned bit patterns would be torn apart at zero by a lossy wavelet). JJ2000 only where OpenJPEG is not
     * loaded: it is about ten times slower (docs/pacs.md).
     */
    private static byte[] jpeg2000(NativeFrames image, int frame, boolean lossless) throws NotTranscodable {
        if (Jpeg2000.unavailable(TransferSyntaxes.J2K_LOSSLESS) != null) {
            return ImageIoEncoders.jpeg2000(image, frame, lossless);
        }
        if (!lossless && image.bitsAllocated() != 8) {
            throw new NotTranscodable(ImageIoEncoders.LOSSY_J2K_8_BIT);
        }
        try {
            return Jpeg2000.encode(frameBytes(image, frame), image.columns(), image.rows(), image.bitsAllocated(),
                    image.samplesPerPixel(), false, lossless, ImageIoEncoders.J2K_LOSSY_RATIO);
        } catch (ImageDecodeException e) {
            throw new NotTranscodable("JPEG 2000 encoding failed: " + e.getMessage(), e);
        }
    }

    /**
     * One frame as lossless HTJ2K by OpenJPH (image-codec's bridge), at the precision of Bits Allocated and unsigned,
     * so every stored bit pattern comes back, whatever Bits Stored and Pixel Representation say.
     */
    private static byte[] htj2k(NativeFrames image, int frame) throws NotTranscodable {
        byte[] samples = frameBytes(image, frame);
        try {
            return Jpeg2000.encodeHtj2k(samples, image.columns(), image.rows(), image.bitsAllocated(),
                    image.samplesPerPixel(), false);
        } catch (ImageDecodeException e) {
            throw new NotTranscodable("HTJ2K encoding failed: " + e.getMessage(), e);
        }
    }

    /**
     * A frame's samples as the native codecs take them: pixel-interleaved, one byte each for Bits Allocated 8, else
     * two, little endian.
     */
    private static byte[] frameBytes(NativeFrames image, int frame) {
        int[] s = image.samples()[frame];
        int bytes = image.bitsAllocated() / 8;
        byte[] samples = new byte[s.length * bytes];
        for (int i = 0; i < s.length; i++) {
            samples[i * bytes] = (byte) s[i];
            if (bytes == 2) {
                samples[i * bytes + 1] = (byte) (s[i] >>> 8);
            }
        }
        return samples;
    }

    /** Lossy Image Compression "01", this compression's ratio and method added to those of earlier ones. */
    private static void markLossy(AttributeList list, String ratio, String method) throws DicomException {
        set(list, new CodeStringAttribute(TagFromName.LossyImageCompression), "01");
        Attribute ratios = list.get(TagFromName.LossyImageCompressionRatio);
        Attribute methods = list.get(TagFromName.LossyImageCompressionMethod);
        if (ratios == null) {
            ratios = new DecimalStringAttribute(TagFromName.LossyImageCompressionRatio);
            list.put(ratios);
        }
        if (methods == null) {
            methods = new CodeStringAttribute(TagFromName.LossyImageCompressionMethod);
            list.put(methods);
        }
        ratios.addValue(ratio);
        methods.addValue(method);
    }

    private static void set(AttributeList list, Attribute a, String value) throws DicomException {
        a.addValue(value);
        list.put(a);
    }

    private static byte[] evenLength(byte[] fragment) {
        return fragment.length % 2 == 0 ? fragment : java.util.Arrays.copyOf(fragment, fragment.length + 1);
    }

    /** Whether the bit depth matters: encoders take 8 or 16 bits (JPEG Baseline 8). */
    private static boolean needsBitsAllocated(String from, String to) {
        return !TransferSyntaxes.isNative(to) && !to.equals(from);
    }

    /** Whether a 12-bit object could hide in {@code ts}: PixelMed decodes JPEG baseline and extended at 8 bits. */
    private static boolean needsBitsAllocated(String ts) {
        return ts.equals(TransferSyntaxes.JPEG_BASELINE) || ts.equals(TransferSyntaxes.JPEG_EXTENDED);
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
