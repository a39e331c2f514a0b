package org.medjava.codec.dicom;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.CodeStringAttribute;
import com.pixelmed.dicom.DecimalStringAttribute;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.OtherByteAttribute;
import com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.UnsignedShortAttribute;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.medjava.codec.ImageDecodeException;

/**
 * The pixel data image-codec decodes itself rather than through PixelMed's SourceImage: JPEG-LS (CharLS, see
 * {@link CharLs}), JPEG 2000 and HTJ2K (OpenJPEG and OpenJPH, see {@link Jpeg2000}), 12-bit JPEG (Extended,
 * {@link JpegExtendedDecoder}), RLE in every layout (8, 16 and 32 bits, grey and colour) and uncompressed colour of
 * 32 bits. A frame decodes to its native form: samples of Bits Allocated
 * bits, little endian, pixel-interleaved (Planar Configuration 0) — what an uncompressed Explicit VR Little Endian
 * object would hold, so {@link #decompress} can turn a whole object into one.
 */
public final class PixelFrames {
    public static final String RLE = "1.2.840.10008.1.2.5";
    public static final String JPEG_BASELINE = "1.2.840.10008.1.2.4.50";
    public static final String JPEG_EXTENDED = "1.2.840.10008.1.2.4.51";
    public static final String JPEG_LS_LOSSLESS = "1.2.840.10008.1.2.4.80";
    public static final String JPEG_LS_NEAR_LOSSLESS = "1.2.840.10008.1.2.4.81";

    /** What a frame's pixel data is: Image Pixel module values. */
    public record Layout(int rows, int columns, int samples, int bitsAllocated, int bitsStored, int planar) {
        int frameBytes() {
            return rows * columns * samples * (bitsAllocated / 8);
        }

        static Layout of(AttributeList list) {
            int bitsAllocated = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.BitsAllocated, 0);
            return new Layout(Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Rows, 0),
                    Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Columns, 0),
                    Attribute.getSingleIntegerValueOrDefault(list, TagFromName.SamplesPerPixel, 1), bitsAllocated,
                    Attribute.getSingleIntegerValueOrDefault(list, TagFromName.BitsStored, bitsAllocated),
                    Attribute.getSingleIntegerValueOrDefault(list, TagFromName.PlanarConfiguration, 0));
        }
    }

    private PixelFrames() {
    }

    /** Whether frames in {@code ts} with this layout are decoded here rather than by PixelMed. */
    public static boolean decodesHere(String ts, int bitsAllocated, int samples) {
        return switch (ts) {
            case JPEG_LS_LOSSLESS, JPEG_LS_NEAR_LOSSLESS, RLE -> true;
            case JPEG_BASELINE, JPEG_EXTENDED -> bitsAllocated > 8;
            // HTJ2K only here; JPEG 2000 here when OpenJPEG loads, else by PixelMed's JJ2000, which is not exact
            // on every lossless object (a YBR_RCT frame of 6 quality layers came out with 7 % of its pixels changed)
            default -> Jpeg2000.handles(ts) ? Jpeg2000.isHtj2k(ts) || Jpeg2000.unavailable(ts) == null
                    : DicomCodec.isNative(ts) && bitsAllocated == 32 && samples > 1;
        };
    }

    /**
     * Frame {@code frame} of a whole Part 10 file in native form, for the syntaxes and layouts {@link #decodesHere}
     * names.
     */
    public static byte[] nativeFrame(byte[] part10, int frame) throws ImageDecodeException {
        String ts = DicomCodec.transferSyntaxOf(part10);
        AttributeList list = DicomCodec.parse(part10);
        Layout layout = Layout.of(list);
        if (!decodesHere(ts, layout.bitsAllocated(), layout.samples())) {
            throw new ImageDecodeException("transfer syntax " + ts + " with " + layout.samples() + " samples of "
                    + layout.bitsAllocated() + " bits is decoded by PixelMed, not PixelFrames");
        }
        Attribute pixelData = list.get(TagFromName.PixelData);
        if (pixelData == null) {
            throw new ImageDecodeException("DICOM object has no Pixel Data");
        }
        int frames = Math.max(1, Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfFrames, 1));
        if (frame < 0 || frame >= frames) {
            throw new ImageDecodeException("frame " + frame + " does not exist: the DICOM image has " + frames
                    + (frames == 1 ? " frame" : " frames"));
        }
        return DicomCodec.isNative(ts) ? nativeFrame32(pixelData, ts.equals(DicomCodec.EXPLICIT_BE), frame, layout)
                : decodeFrame(ts, pixelData, frame, layout);
    }

    /**
     * Decodes frame {@code frame} of a compressed Pixel Data element, read with PixelMed's decompression off.
     *
     * @return the native frame (see the class comment)
     */
    public static byte[] decodeFrame(String ts, Attribute pixelData, int frame, Layout layout)
            throws ImageDecodeException {
        return decodeFrame(ts, compressedFrame(ts, pixelData, frame), layout);
    }

    /** The bytes of one frame of encapsulated pixel data, its fragments joined. */
    static byte[] compressedFrame(String ts, Attribute pixelData, int frame) throws ImageDecodeException {
        if (!(pixelData instanceof OtherByteAttributeMultipleCompressedFrames compressed)) {
            throw new ImageDecodeException("DICOM pixel data in " + ts + " is not encapsulated");
        }
        byte[] data;
        try {
            data = compressed.getByteValuesForSelectedFrame(frame);
        } catch (DicomException | RuntimeException e) {
            throw new ImageDecodeException("DICOM frame " + frame + " cannot be read from the encapsulated pixel "
                    + "data: " + e.getMessage(), e);
        }
        if (data == null) {
            throw new ImageDecodeException("DICOM frame " + frame + " is missing from the encapsulated pixel data");
        }
        return data;
    }

    /** Decodes one compressed frame (its bytes, all fragments joined) to its native form. */
    public static byte[] decodeFrame(String ts, byte[] data, Layout layout) throws ImageDecodeException {
        return switch (ts) {
            case RLE -> Rle.decode(data, layout);
            case JPEG_LS_LOSSLESS, JPEG_LS_NEAR_LOSSLESS -> jpegLs(data, layout);
            case JPEG_BASELINE, JPEG_EXTENDED -> jpeg12(data, layout);
            default -> {
                if (!Jpeg2000.handles(ts)) {
                    throw new ImageDecodeException("transfer syntax " + ts + " is not decoded by PixelFrames");
                }
                Jpeg2000.Frame f = Jpeg2000.decodeFrame(ts, data, layout.columns(), layout.rows(), layout.samples());
                yield allocated(f.samples(), f.bits(), layout, Jpeg2000.isHtj2k(ts) ? "HTJ2K" : "JPEG 2000");
            }
        };
    }

    /** Frame {@code frame} of uncompressed 32-bit pixel data (OW or OB, either byte order) in native form. */
    static byte[] nativeFrame32(Attribute pixelData, boolean bigEndian, int frame, Layout layout)
            throws ImageDecodeException {
        int size = layout.frameBytes();
        byte[] out = new byte[size];
        try {
            String vr = pixelData.getVR() == null ? "" : new String(pixelData.getVR(), StandardCharsets.US_ASCII);
            if (vr.equals("OB")) {
                byte[] bytes = pixelData.getByteValues();
                check(bytes.length, (long) size * (frame + 1));
                for (int i = 0; i < size; i += 4) {
                    for (int k = 0; k < 4; k++) {
                        out[i + k] = bytes[frame * size + i + (bigEndian ? 3 - k : k)];
                    }
                }
            } else {
                short[] words = pixelData.getShortValues(); // PixelMed has already put each word in order
                check(2L * words.length, (long) size * (frame + 1));
                int base = frame * size / 2;
                for (int i = 0; i < size / 4; i++) {
                    int lo = words[base + 2 * i + (bigEndian ? 1 : 0)];
                    int hi = words[base + 2 * i + (bigEndian ? 0 : 1)];
                    out[4 * i] = (byte) lo;
                    out[4 * i + 1] = (byte) (lo >> 8);
                    out[4 * i + 2] = (byte) hi;
                    out[4 * i + 3] = (byte) (hi >> 8);
                }
            }
        } catch (DicomException e) {
            throw new ImageDecodeException("DICOM 32-bit pixel data unreadable: " + e.getMessage(), e);
        }
        return layout.planar() == 1 && layout.samples() > 1 ? interleave(out, layout) : out;
    }

    private static void check(long have, long need) throws ImageDecodeException {
        if (have < need) {
            throw new ImageDecodeException("DICOM 32-bit pixel data truncated: " + need + " bytes needed, found "
                    + have);
        }
    }

    /** Planar (R…R G…G B…B) to pixel-interleaved samples. */
    static byte[] interleave(byte[] planes, Layout layout) {
        int bytes = layout.bitsAllocated() / 8;
        int pixels = layout.rows() * layout.columns();
        int n = layout.samples();
        byte[] out = new byte[planes.length];
        for (int c = 0; c < n; c++) {
            for (int p = 0; p < pixels; p++) {
                System.arraycopy(planes, (c * pixels + p) * bytes, out, (p * n + c) * bytes, bytes);
            }
        }
        return out;
    }

    private static byte[] jpegLs(byte[] data, Layout layout) throws ImageDecodeException {
        return jpegLs(CharLs.decodeFrame(data, layout.columns(), layout.rows(), layout.samples()), layout);
    }

    private static byte[] jpegLs(CharLs.Frame f, Layout layout) throws ImageDecodeException {
        if (f.width() != layout.columns() || f.height() != layout.rows() || f.components() != layout.samples()) {
            throw new ImageDecodeException("JPEG-LS frame is " + f.width() + "x" + f.height() + "x" + f.components()
                    + ", the DICOM header says " + layout.columns() + "x" + layout.rows() + "x" + layout.samples());
        }
        return allocated(f.samples(), f.bits(), layout, "JPEG-LS");
    }

    /**
     * A decoder's samples (1 byte each up to 8 bits, else 2) in the header's Bits Allocated: as they are, or an 8-bit
     * codestream's widened to 16-bit words.
     */
    private static byte[] allocated(byte[] samples, int bits, Layout layout, String format)
            throws ImageDecodeException {
        int have = bits > 8 ? 2 : 1;
        int want = layout.bitsAllocated() / 8;
        if (have == want) {
            return samples;
        }
        if (have == 1 && want == 2) {
            byte[] out = new byte[samples.length * 2];
            for (int i = 0; i < samples.length; i++) {
                out[2 * i] = samples[i];
            }
            return out;
        }
        throw new ImageDecodeException(format + " frame has " + bits + "-bit samples, the DICOM header says Bits "
                + "Allocated " + layout.bitsAllocated());
    }

    private static byte[] jpeg12(byte[] data, Layout layout) throws ImageDecodeException {
        JpegExtendedDecoder.Frame f = JpegExtendedDecoder.decode(data, layout.columns(), layout.rows());
        if (f.width() != layout.columns() || f.height() != layout.rows() || f.components() != layout.samples()) {
            throw new ImageDecodeException("JPEG frame is " + f.width() + "x" + f.height() + "x" + f.components()
                    + ", the DICOM header says " + layout.columns() + "x" + layout.rows() + "x" + layout.samples());
        }
        if (layout.bitsAllocated() != 16) {
            throw new ImageDecodeException("12-bit JPEG in Bits Allocated " + layout.bitsAllocated()
                    + " (16 expected)");
        }
        int[] s = f.samples();
        byte[] out = new byte[2 * s.length];
        for (int i = 0; i < s.length; i++) {
            out[2 * i] = (byte) s[i];
            out[2 * i + 1] = (byte) (s[i] >> 8);
        }
        return out;
    }

    /**
     * Replaces the compressed Pixel Data of {@code list} (read with decompression off) by all its frames decoded, and
     * makes the Image Pixel module say so: Planar Configuration 0, Lossy Image Compression "01" with its method where
     * the source was lossy (JPEG Extended, JPEG-LS near-lossless with NEAR above 0). The caller writes the result in
     * an uncompressed transfer syntax.
     */
    public static void decompress(AttributeList list, String ts) throws ImageDecodeException {
        Layout layout = Layout.of(list);
        Attribute pixelData = list.get(TagFromName.PixelData);
        if (pixelData == null) {
            throw new ImageDecodeException("DICOM object has no Pixel Data to decode");
        }
        int frames = Math.max(1, Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfFrames, 1));
        ByteArrayOutputStream all = new ByteArrayOutputStream(layout.frameBytes() * frames);
        boolean lossy = ts.equals(JPEG_EXTENDED) || ts.equals(JPEG_BASELINE);
        long compressedBytes = 0;
        for (int f = 0; f < frames; f++) {
            byte[] data = compressedFrame(ts, pixelData, f);
            compressedBytes += data.length;
            byte[] frame;
            if (ts.equals(JPEG_LS_NEAR_LOSSLESS)) { // lossy only if some frame was coded with NEAR > 0
                CharLs.Frame decoded = CharLs.decodeFrame(data, layout.columns(), layout.rows(), layout.samples());
                lossy |= decoded.near() > 0;
                frame = jpegLs(decoded, layout);
            } else {
                frame = decodeFrame(ts, data, layout);
            }
            all.write(frame, 0, frame.length);
        }
        byte[] bytes = all.toByteArray();
        try {
            if (layout.bitsAllocated() > 8) {
                short[] words = new short[bytes.length / 2];
                for (int i = 0; i < words.length; i++) {
                    words[i] = (short) ((bytes[2 * i] & 0xFF) | (bytes[2 * i + 1] & 0xFF) << 8);
                }
                OtherWordAttribute ow = new OtherWordAttribute(TagFromName.PixelData);
                ow.setValues(words);
                list.put(ow);
            } else {
                OtherByteAttribute ob = new OtherByteAttribute(TagFromName.PixelData);
                ob.setValues(bytes);
                list.put(ob);
            }
            if (layout.samples() > 1) {
                Attribute planar = new UnsignedShortAttribute(TagFromName.PlanarConfiguration);
                planar.addValue(0);
                list.put(planar);
                String photometric = Attribute.getSingleStringValueOrEmptyString(list,
                        TagFromName.PhotometricInterpretation);
                if (Jpeg2000.handles(ts) && (photometric.equals("YBR_RCT") || photometric.equals("YBR_ICT"))) {
                    // the decoder undid the component transform: the samples are RGB now
                    Attribute rgb = new CodeStringAttribute(TagFromName.PhotometricInterpretation);
                    rgb.addValue("RGB");
                    list.put(rgb);
                }
            }
            if (lossy) {
                Attribute flag = new CodeStringAttribute(TagFromName.LossyImageCompression);
                flag.addValue("01");
                list.put(flag);
                Attribute method = new CodeStringAttribute(TagFromName.LossyImageCompressionMethod);
                String previous = Attribute.getDelimitedStringValuesOrEmptyString(list,
                        TagFromName.LossyImageCompressionMethod);
                String name = ts.startsWith("1.2.840.10008.1.2.4.8") ? "ISO_14495_1" : "ISO_10918_1";
                for (String m : previous.isEmpty() ? new String[0] : previous.split("\\\\")) {
                    method.addValue(m);
                }
                if (!previous.contains(name)) {
                    method.addValue(name);
                }
                list.put(method);
                if (list.get(TagFromName.LossyImageCompressionRatio) == null) {
                    Attribute ratio = new DecimalStringAttribute(TagFromName.LossyImageCompressionRatio);
                    ratio.addValue(String.format(java.util.Locale.ROOT, "%.2f",
                            bytes.length / (double) Math.max(1, compressedBytes)));
                    list.put(ratio);
                }
            }
        } catch (DicomException e) {
            throw new ImageDecodeException("decoded pixel data cannot be stored: " + e.getMessage(), e);
        }
    }
}
