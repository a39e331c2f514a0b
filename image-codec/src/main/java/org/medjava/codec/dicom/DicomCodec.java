package org.medjava.codec.dicom;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.OtherByteAttribute;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.display.SourceImage;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.medjava.codec.ImageDecodeException;
import org.medjava.filter.Raster;

/**
 * Reads DICOM Part 10 files (preamble, "DICM", file meta information) with PixelMed. See image-codec/README.md for
 * what decodes, what is refused and why. Every failure is an {@link ImageDecodeException} with a message that says
 * what was wrong.
 */
public final class DicomCodec {
    static final String IMPLICIT_LE = "1.2.840.10008.1.2";
    static final String EXPLICIT_LE = "1.2.840.10008.1.2.1";
    static final String DEFLATED_LE = "1.2.840.10008.1.2.1.99";
    static final String EXPLICIT_BE = "1.2.840.10008.1.2.2";

    /** Transfer syntaxes whose pixel data is decoded, with a name for messages. */
    private static final Map<String, String> DECODED = Map.ofEntries(
            Map.entry(IMPLICIT_LE, "Implicit VR Little Endian"),
            Map.entry(EXPLICIT_LE, "Explicit VR Little Endian"),
            Map.entry(DEFLATED_LE, "Deflated Explicit VR Little Endian"),
            Map.entry(EXPLICIT_BE, "Explicit VR Big Endian"),
            Map.entry("1.2.840.10008.1.2.5", "RLE Lossless"),
            Map.entry("1.2.840.10008.1.2.4.50", "JPEG Baseline"),
            Map.entry("1.2.840.10008.1.2.4.51", "JPEG Extended"),
            Map.entry("1.2.840.10008.1.2.4.57", "JPEG Lossless"),
            Map.entry("1.2.840.10008.1.2.4.70", "JPEG Lossless SV1"),
            Map.entry("1.2.840.10008.1.2.4.80", "JPEG-LS Lossless"),
            Map.entry("1.2.840.10008.1.2.4.81", "JPEG-LS Near-Lossless"),
            Map.entry("1.2.840.10008.1.2.4.90", "JPEG 2000 Lossless"),
            Map.entry("1.2.840.10008.1.2.4.91", "JPEG 2000"),
            Map.entry(Jpeg2000.HTJ2K_LOSSLESS, "HTJ2K Lossless"),
            Map.entry(Jpeg2000.HTJ2K_RPCL_LOSSLESS, "HTJ2K Lossless RPCL"),
            Map.entry(Jpeg2000.HTJ2K, "HTJ2K"));

    private DicomCodec() {
    }

    /**
     * Checks a whole Part 10 file without decoding its pixels: preamble, file meta information with a transfer
     * syntax, and a dataset that parses to its end. For objects whose pixels cannot be decoded here but may be
     * stored and served as they are.
     *
     * @return the Transfer Syntax UID
     */
    public static String checkStructure(byte[] file) throws ImageDecodeException {
        String ts = transferSyntaxOf(file);
        parse(file);
        return ts;
    }

    /** Whether {@code head} (at least 132 bytes) starts with a DICOM preamble: "DICM" at offset 128. */
    public static boolean isDicom(byte[] head) {
        return head.length >= 132 && head[128] == 'D' && head[129] == 'I' && head[130] == 'C' && head[131] == 'M';
    }

    public static DicomImage read(Path file) throws IOException {
        return read(file, 0, Raster.MAX_PIXELS);
    }

    public static DicomImage read(Path file, int frame, long maxPixels) throws IOException {
        try {
            return read(Files.readAllBytes(file), frame, maxPixels);
        } catch (ImageDecodeException e) {
            throw new ImageDecodeException(file + ": " + e.getMessage(), e);
        }
    }

    public static DicomImage read(InputStream in, int frame, long maxPixels) throws IOException {
        return read(in.readAllBytes(), frame, maxPixels);
    }

    /** Frame 0 through its default window, as {@link org.medjava.codec.ImageCodec#read} returns it. */
    public static Raster readRaster(InputStream in, long maxPixels) throws IOException {
        return read(in, 0, maxPixels).render();
    }

    /**
     * Decodes frame {@code frame} (from 0) of a whole Part 10 file held in memory.
     *
     * @param maxPixels frames with more pixels are refused before their pixel data is decoded
     */
    public static DicomImage read(byte[] file, int frame, long maxPixels) throws IOException {
        String tsUid = transferSyntaxOf(file);
        AttributeList list = parseForDecoding(file, tsUid);

        int rows = intValue(list, TagFromName.Rows, "Rows", -1);
        int columns = intValue(list, TagFromName.Columns, "Columns", -1);
        Attribute pixelData = list.get(TagFromName.PixelData);
        if (rows < 0 || columns < 0) {
            throw new ImageDecodeException("DICOM object has no image: Rows/Columns missing ("
                    + (pixelData == null ? "no Pixel Data" : "but it has Pixel Data") + ")");
        }
        if (rows < 1 || columns < 1) {
            throw new ImageDecodeException("DICOM image size " + columns + "x" + rows + " is empty");
        }
        long limit = Math.min(maxPixels, Raster.MAX_PIXELS);
        if ((long) rows * columns > limit) {
            throw new ImageDecodeException("DICOM " + columns + "x" + rows + " exceeds the limit of " + limit
                    + " pixels");
        }
        int frames = intValue(list, TagFromName.NumberOfFrames, "Number of Frames", 1);
        int samples = intValue(list, TagFromName.SamplesPerPixel, "Samples per Pixel", 1);
        int bitsAllocated = intValue(list, TagFromName.BitsAllocated, "Bits Allocated", -1);
        int bitsStored = intValue(list, TagFromName.BitsStored, "Bits Stored", bitsAllocated);
        boolean signed = intValue(list, TagFromName.PixelRepresentation, "Pixel Representation", 0) == 1;
        String photometric = Attribute.getSingleStringValueOrEmptyString(list, TagFromName.PhotometricInterpretation)
                .trim();
        if (frames < 1) {
            throw new ImageDecodeException("DICOM Number of Frames is " + frames);
        }
        if (frame < 0 || frame >= frames) {
            throw new ImageDecodeException("frame " + frame + " does not exist: the DICOM image has " + frames
                    + (frames == 1 ? " frame" : " frames") + " (0 to " + (frames - 1) + ")");
        }
        if (bitsAllocated < 1 || bitsStored < 1 || bitsStored > bitsAllocated) {
            throw new ImageDecodeException("DICOM Bits Allocated " + bitsAllocated + " / Bits Stored " + bitsStored
                    + " are missing or inconsistent");
        }
        if (pixelData == null) {
            throw new ImageDecodeException("DICOM " + columns + "x" + rows + " image has no Pixel Data (7FE0,0010): "
                    + "the file is truncated (pixel data cut short) or holds no pixels");
        }
        checkCodec(tsUid);
        boolean compressed = !isNative(tsUid);
        if (!compressed) {
            // YBR_FULL_422 native data holds 2 samples a pixel (Y Y Cb Cr for each pair of pixels).
            int stored = photometric.equals("YBR_FULL_422") ? 2 : samples;
            long needed = ((long) rows * columns * stored * frames * bitsAllocated + 7) / 8;
            long have = pixelData.getVL() & 0xFFFFFFFFL;
            if (have < needed) {
                throw new ImageDecodeException("DICOM pixel data truncated: " + frames + " frame(s) of " + columns
                        + "x" + rows + "x" + samples + " samples at " + bitsAllocated + " bits need " + needed
                        + " bytes, found " + have);
            }
        }

        DicomAttributes ids = new DicomAttributes(string(list, TagFromName.PatientID),
                string(list, TagFromName.PatientName), string(list, TagFromName.StudyInstanceUID),
                string(list, TagFromName.SeriesInstanceUID), string(list, TagFromName.SOPInstanceUID),
                string(list, TagFromName.SOPClassUID), string(list, TagFromName.Modality), tsUid);
        double slope = doubleValue(list, TagFromName.RescaleSlope, 1);
        double intercept = doubleValue(list, TagFromName.RescaleIntercept, 0);
        if (slope == 0) {
            slope = 1;
        }
        List<Window> windows = windows(list);
        AttributeList header = headerOf(list);
        boolean grey = photometric.startsWith("MONOCHROME");
        if (!grey && !photometric.equals("RGB") && !photometric.startsWith("YBR") && !photometric.equals(
                "PALETTE COLOR")) {
            throw new UnsupportedDicomException("DICOM Photometric Interpretation \"" + photometric + "\" is not supported"
                    + " (MONOCHROME1, MONOCHROME2, RGB, YBR_FULL, YBR_FULL_422 and PALETTE COLOR are)");
        }
        if (grey && samples != 1 || !grey && !photometric.equals("PALETTE COLOR") && samples != 3) {
            throw new ImageDecodeException("DICOM " + photometric + " with " + samples + " samples per pixel");
        }

        if (PixelFrames.decodesHere(tsUid, bitsAllocated, samples)) {
            PixelFrames.Layout layout = new PixelFrames.Layout(rows, columns, samples, bitsAllocated, bitsStored,
                    intValue(list, TagFromName.PlanarConfiguration, "Planar Configuration", 0));
            if (compressed && Jpeg2000.handles(tsUid)) {
                CodedFrameSize.require(tsUid, pixelData, frame, columns, rows);
            }
            byte[] frameData = compressed ? PixelFrames.decodeFrame(tsUid, pixelData, frame, layout)
                    : PixelFrames.nativeFrame32(pixelData, tsUid.equals(EXPLICIT_BE), frame, layout);
            if (grey) {
                return new DicomImage(header, ids, columns, rows, frame, frames, photometric, bitsStored, signed, slope,
                        intercept, windows, greyValues(frameData, bitsAllocated, bitsStored, signed), null);
            }
            byte[] rgb = photometric.equals("PALETTE COLOR")
                    ? Palette.of(list).apply(greyValues(frameData, bitsAllocated, bitsStored, false))
                    : colour(frameData, bitsAllocated, bitsStored, photometric.startsWith("YBR_FULL"));
            return new DicomImage(header, ids, columns, rows, frame, frames, photometric, bitsStored, false, 1, 0,
                    List.of(), null, rgb);
        }
        if (bitsAllocated == 32) {
            if (!grey || compressed) {
                throw new UnsupportedDicomException("DICOM 32-bit pixel data is decoded only for uncompressed grey images,"
                        + " not " + photometric + " in " + DECODED.get(tsUid));
            }
            int[] values = words32(list, pixelData, tsUid, frame, rows * columns, bitsStored, signed);
            return new DicomImage(header, ids, columns, rows, frame, frames, photometric, bitsStored, signed, slope,
                    intercept, windows, values, null);
        }
        if (bitsAllocated > 16) {
            throw new UnsupportedDicomException("DICOM Bits Allocated " + bitsAllocated + " is not supported");
        }
        if (!compressed && bitsAllocated == 8 && pixelData.getVR() != null
                && new String(pixelData.getVR(), StandardCharsets.US_ASCII).equals("OW")) {
            // PixelMed's SourceImage loses the last sample of 8-bit data in OW with an odd sample count: hand it
            // the bytes as OB (the first sample is the low byte of the first word, whatever the byte order).
            list.put(asOtherByte(pixelData));
        }

        if (compressed) {
            CodedFrameSize.require(tsUid, pixelData, frame, columns, rows); // before a decoder allocates what it claims
        }
        if (!compressed && grey && bitsAllocated == 16 && pixelData instanceof OtherWordAttribute words) {
            // the stored values as PixelMed read them: no image is made of them to read them back (a third of a
            // thumbnail's time)
            int[] values;
            int[] range = new int[2];
            try {
                values = greyValues(words.getShortValues(), frame * rows * columns, rows * columns, bitsStored,
                        signed, range);
            } catch (DicomException e) {
                throw undecodable(tsUid, photometric, bitsAllocated, e);
            }
            return new DicomImage(header, ids, columns, rows, frame, frames, photometric, bitsStored, signed, slope,
                    intercept, windows, values, null).withRange(range);
        }
        BufferedImage image;
        int decodedFrames;
        boolean ybr;
        try {
            SourceImage source = new SourceImage(list);
            decodedFrames = source.getNumberOfBufferedImages();
            if (frame >= decodedFrames) {
                throw new ImageDecodeException("DICOM frame " + frame + " could not be decoded (" + decodedFrames
                        + " of " + frames + " frames decoded)");
            }
            image = source.getBufferedImage(frame);
            ybr = source.isYBR();
        } catch (ImageDecodeException e) {
            throw e;
        } catch (DicomException | RuntimeException e) {
            throw undecodable(tsUid, photometric, bitsAllocated, e);
        } catch (Error e) {
            if (!ImageDecodeException.isDecoderRefusal(e)) {
                throw e;
            }
            throw undecodable(tsUid, photometric, bitsAllocated, e);
        }
        if (image == null || image.getWidth() != columns || image.getHeight() != rows) {
            throw new ImageDecodeException("DICOM pixel data (" + DECODED.get(tsUid) + ") decoded to "
                    + (image == null ? "nothing" : image.getWidth() + "x" + image.getHeight()) + ", expected "
                    + columns + "x" + rows);
        }
        if (grey) {
            int[] values = greyValues(image, bitsStored, signed);
            return new DicomImage(header, ids, columns, rows, frame, frames, photometric, bitsStored, signed, slope,
                    intercept, windows, values, null);
        }
        byte[] rgb = photometric.equals("PALETTE COLOR") ? Palette.of(list).apply(image, bitsStored)
                : colour(image, ybr, bitsStored);
        return new DicomImage(header, ids, columns, rows, frame, frames, photometric, bitsStored, false, 1, 0,
                List.of(), null, rgb);
    }

    private static ImageDecodeException undecodable(String tsUid, String photometric, int bitsAllocated,
                                                    Throwable e) {
        return new ImageDecodeException("DICOM pixel data (" + DECODED.get(tsUid) + ", " + photometric + ", "
                + bitsAllocated + "-bit) could not be decoded: " + e.getMessage(), e);
    }

    /** Whether this codec decodes (and so the store renders) pixel data in the transfer syntax {@code ts}. */
    public static boolean decodes(String ts) {
        return ts != null && DECODED.containsKey(ts.trim());
    }

    /**
     * The Transfer Syntax UID from the file meta information, read by hand before PixelMed sees the file; the file
     * may be only its beginning, as long as the meta information is whole.
     */
    public static String transferSyntaxOf(byte[] file) throws ImageDecodeException {
        if (file.length == 0) {
            throw new ImageDecodeException("empty input, no DICOM file");
        }
        if (!isDicom(file)) {
            throw new ImageDecodeException("not a DICOM Part 10 file: no \"DICM\" at offset 128. Datasets without "
                    + "the 128-byte preamble and file meta information are not read; rewrite them as Part 10 files "
                    + "first (e.g. dcmconv)");
        }
        int p = 132;
        String ts = null;
        while (p + 8 <= file.length && u16(file, p) == 0x0002) {
            int element = u16(file, p + 2);
            String vr = new String(file, p + 4, 2, StandardCharsets.US_ASCII);
            long length;
            int value;
            if (List.of("OB", "OW", "OF", "SQ", "UT", "UN", "OD", "OL", "OV", "UC", "UR", "SV", "UV").contains(vr)) {
                if (p + 12 > file.length) {
                    break;
                }
                length = u32(file, p + 8);
                value = p + 12;
            } else {
                length = u16(file, p + 6);
                value = p + 8;
            }
            if (value + length > file.length) {
                throw new ImageDecodeException("DICOM file meta information is damaged or truncated (element (0002,"
                        + String.format("%04X", element) + ") runs past the end of the file)");
            }
            if (element == 0x0010) {
                ts = new String(file, value, (int) length, StandardCharsets.US_ASCII).replace("\0", "").trim();
            }
            p = (int) (value + length);
        }
        if (ts == null || ts.isEmpty()) {
            throw new ImageDecodeException("DICOM file meta information has no Transfer Syntax UID (0002,0010), so "
                    + "the encoding of the dataset is unknown");
        }
        return ts;
    }

    private static void checkCodec(String ts) throws ImageDecodeException {
        if (!DECODED.containsKey(ts)) {
            throw new UnsupportedDicomException("DICOM transfer syntax " + ts + " is not supported; decoded are: "
                    + String.join(", ", new java.util.TreeSet<>(DECODED.values())));
        }
    }

    static boolean isNative(String ts) {
        return ts.equals(IMPLICIT_LE) || ts.equals(EXPLICIT_LE) || ts.equals(DEFLATED_LE) || ts.equals(EXPLICIT_BE);
    }

    static AttributeList parse(byte[] file) throws ImageDecodeException {
        DicomPreScan.checkPart10(file); // PixelMed recurses per sequence level: refuse what would overflow it
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false); // SourceImage decodes the frames; reading must not need a codec
        try (DicomInputStream in = PixelMedInput.open(new ByteArrayInputStream(file))) {
            list.read(in);
        } catch (DicomException | IOException | RuntimeException e) {
            throw new ImageDecodeException("DICOM dataset is damaged or truncated: " + e.getMessage(), e);
        }
        return list;
    }

    /**
     * As {@link #parse}; 16-bit words of uncompressed little-endian Pixel Data (OW) are taken from the file's bytes
     * in one copy rather than read by PixelMed one by one (a third of the decoding of a 512² CT). The header is read
     * up to Pixel Data; anything else — 8-bit data, OB, a length other than the image's — is parsed in full.
     */
    private static AttributeList parseForDecoding(byte[] file, String tsUid) throws ImageDecodeException {
        boolean explicit = tsUid.equals(EXPLICIT_LE);
        if (!explicit && !tsUid.equals(IMPLICIT_LE)) {
            return parse(file);
        }
        DicomPreScan.checkPart10(file);
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        long stopped;
        try (DicomInputStream in = PixelMedInput.open(new ByteArrayInputStream(file))) {
            stopped = list.read(in, TagFromName.PixelData); // stops just past Pixel Data's tag
        } catch (DicomException | IOException | RuntimeException e) {
            throw new ImageDecodeException("DICOM dataset is damaged or truncated: " + e.getMessage(), e);
        }
        if (stopped >= file.length) {
            return list; // no Pixel Data: all of it was read
        }
        long at = stopped - 4;
        int header = explicit ? 12 : 8;
        long words = (long) Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Rows, 0)
                * Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Columns, 0)
                * Math.max(1, Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfFrames, 1))
                * Attribute.getSingleIntegerValueOrDefault(list, TagFromName.SamplesPerPixel, 1);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(file).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        if (at < 0 || at + header > file.length || words <= 0
                || Attribute.getSingleIntegerValueOrDefault(list, TagFromName.BitsAllocated, 0) != 16
                || b.getShort((int) at) != (short) 0x7FE0 || b.getShort((int) at + 2) != 0x0010
                || explicit && (b.get((int) at + 4) != 'O' || b.get((int) at + 5) != 'W')) {
            return parse(file);
        }
        long length = Integer.toUnsignedLong(b.getInt((int) at + (explicit ? 8 : 4)));
        if (length != 2 * words || at + header + length > file.length) {
            return parse(file);
        }
        short[] values = new short[(int) words];
        b.position((int) (at + header));
        b.asShortBuffer().get(values);
        try {
            OtherWordAttribute pixels = new OtherWordAttribute(TagFromName.PixelData);
            pixels.setValues(values);
            list.put(pixels);
        } catch (DicomException e) {
            return parse(file);
        }
        return list;
    }

    /** A copy of the dataset without pixel data, for the image's header. */
    private static AttributeList headerOf(AttributeList list) {
        AttributeList header = new AttributeList();
        header.putAll(list);
        header.remove(TagFromName.PixelData);
        return header;
    }

    private static OtherByteAttribute asOtherByte(Attribute ow) throws ImageDecodeException {
        try {
            short[] words = ow.getShortValues();
            byte[] bytes = new byte[2 * words.length];
            for (int i = 0; i < words.length; i++) {
                bytes[2 * i] = (byte) words[i];
                bytes[2 * i + 1] = (byte) (words[i] >>> 8);
            }
            OtherByteAttribute ob = new OtherByteAttribute(TagFromName.PixelData);
            ob.setValues(bytes);
            return ob;
        } catch (DicomException e) {
            throw new ImageDecodeException("DICOM pixel data unreadable: " + e.getMessage(), e);
        }
    }

    /** 32-bit grey values reassembled from the 16-bit words PixelMed reads OW data as. */
    private static int[] words32(AttributeList list, Attribute pixelData, String ts, int frame, int pixels,
            int bitsStored, boolean signed) throws ImageDecodeException {
        short[] words;
        try {
            words = pixelData.getShortValues();
        } catch (DicomException e) {
            throw new ImageDecodeException("DICOM 32-bit pixel data unreadable: " + e.getMessage(), e);
        }
        if (words == null || words.length < 2L * pixels * (frame + 1)) {
            throw new ImageDecodeException("DICOM 32-bit pixel data truncated");
        }
        boolean bigEndian = ts.equals(EXPLICIT_BE);
        int[] values = new int[pixels];
        int base = 2 * pixels * frame;
        for (int i = 0; i < pixels; i++) {
            int a = words[base + 2 * i] & 0xFFFF;
            int b = words[base + 2 * i + 1] & 0xFFFF;
            long v = bigEndian ? (long) a << 16 | b : (long) b << 16 | a;
            v = bitsStored >= 32 ? v : v & ((1L << bitsStored) - 1);
            if (signed) {
                v = v >= 1L << (bitsStored - 1) ? v - (1L << bitsStored) : v;
            } else if (v > Integer.MAX_VALUE) {
                throw new ImageDecodeException("DICOM unsigned 32-bit value " + v + " exceeds 2^31-1, which is not "
                        + "supported");
            }
            values[i] = (int) v;
        }
        return values;
    }

    /** Stored values: only the Bits Stored bits, sign-extended when signed. */
    static int[] greyValues(BufferedImage image, int bitsStored, boolean signed) {
        int w = image.getWidth();
        int h = image.getHeight();
        int[] values = image.getRaster().getSamples(0, 0, w, h, 0, new int[w * h]);
        int mask = bitsStored >= 32 ? -1 : (1 << bitsStored) - 1;
        int sign = 1 << (bitsStored - 1);
        for (int i = 0; i < values.length; i++) {
            int v = values[i] & mask;
            values[i] = signed && (v & sign) != 0 ? v - (1 << bitsStored) : v;
        }
        return values;
    }

    /**
     * Stored values from 16-bit words, {@code count} from {@code from}: as {@link #greyValues(BufferedImage, int,
     * boolean)} reads them from PixelMed's image of them; their least and greatest into {@code range}.
     */
    static int[] greyValues(short[] words, int from, int count, int bitsStored, boolean signed, int[] range) {
        int[] values = new int[count];
        int mask = (1 << bitsStored) - 1;
        int sign = 1 << (bitsStored - 1);
        int min = count == 0 ? 0 : Integer.MAX_VALUE;
        int max = count == 0 ? 0 : Integer.MIN_VALUE;
        for (int i = 0; i < count; i++) {
            int v = words[from + i] & mask;
            v = signed && (v & sign) != 0 ? v - (1 << bitsStored) : v;
            values[i] = v;
            min = Math.min(min, v); // the range, in the same pass (the default window needs it)
            max = Math.max(max, v);
        }
        range[0] = min;
        range[1] = max;
        return values;
    }

    /**
     * Stored values from a native frame (little endian, Bits Allocated bits a sample): only the Bits Stored bits,
     * sign-extended when signed.
     */
    static int[] greyValues(byte[] frame, int bitsAllocated, int bitsStored, boolean signed)
            throws ImageDecodeException {
        int bytes = bitsAllocated / 8;
        int[] values = new int[frame.length / bytes];
        long mask = bitsStored >= 32 ? 0xFFFFFFFFL : (1L << bitsStored) - 1;
        for (int i = 0; i < values.length; i++) {
            long v = 0;
            for (int k = bytes - 1; k >= 0; k--) {
                v = v << 8 | (frame[i * bytes + k] & 0xFF);
            }
            v &= mask;
            if (signed && v >= 1L << (bitsStored - 1)) {
                v -= 1L << bitsStored;
            } else if (!signed && v > Integer.MAX_VALUE) {
                throw new ImageDecodeException("DICOM unsigned 32-bit value " + v + " exceeds 2^31-1, which is not "
                        + "supported for grey images");
            }
            values[i] = (int) v;
        }
        return values;
    }

    /**
     * 8-bit RGB from a native colour frame: the top 8 of the Bits Stored bits of each sample, YBR_FULL converted as
     * below.
     */
    private static byte[] colour(byte[] frame, int bitsAllocated, int bitsStored, boolean ybr) {
        int bytes = bitsAllocated / 8;
        int shift = Math.max(0, bitsStored - 8);
        long mask = bitsStored >= 32 ? 0xFFFFFFFFL : (1L << bitsStored) - 1;
        int[] samples = new int[frame.length / bytes];
        for (int i = 0; i < samples.length; i++) {
            long v = 0;
            for (int k = bytes - 1; k >= 0; k--) {
                v = v << 8 | (frame[i * bytes + k] & 0xFF);
            }
            samples[i] = (int) ((v & mask) >>> shift);
        }
        byte[] rgb = new byte[samples.length];
        for (int i = 0; i + 2 < samples.length; i += 3) {
            putRgb(rgb, i, samples[i], samples[i + 1], samples[i + 2], ybr);
        }
        return rgb;
    }

    /** RGB bytes from a 3-band image; YBR_FULL samples (uncompressed YBR) converted per PS3.3 C.7.6.3.1.2. */
    private static byte[] colour(BufferedImage image, boolean ybr, int bitsStored) {
        int w = image.getWidth();
        int h = image.getHeight();
        java.awt.image.Raster data = image.getRaster();
        int shift = Math.max(0, data.getSampleModel().getSampleSize(0) - 8);
        byte[] rgb = new byte[3 * w * h];
        int[] px = new int[3 * w];
        for (int y = 0; y < h; y++) {
            data.getPixels(0, y, w, 1, px);
            for (int x = 0; x < w; x++) {
                putRgb(rgb, 3 * (y * w + x), px[3 * x] >>> shift, px[3 * x + 1] >>> shift, px[3 * x + 2] >>> shift,
                        ybr);
            }
        }
        return rgb;
    }

    /** One pixel's three 8-bit samples as RGB at {@code i}; YBR_FULL converted per PS3.3 C.7.6.3.1.2. */
    private static void putRgb(byte[] rgb, int i, int a, int b, int c, boolean ybr) {
        if (ybr) {
            double cb = b - 128.0;
            double cr = c - 128.0;
            rgb[i] = clamp(a + 1.402 * cr);
            rgb[i + 1] = clamp(a - 0.344136 * cb - 0.714136 * cr);
            rgb[i + 2] = clamp(a + 1.772 * cb);
        } else {
            rgb[i] = (byte) a;
            rgb[i + 1] = (byte) b;
            rgb[i + 2] = (byte) c;
        }
    }

    static byte clamp(double v) {
        return (byte) Math.max(0, Math.min(255, Math.round(v)));
    }

    private static List<Window> windows(AttributeList list) {
        List<Window> windows = new ArrayList<>();
        try {
            Attribute c = list.get(TagFromName.WindowCenter);
            Attribute w = list.get(TagFromName.WindowWidth);
            if (c != null && w != null) {
                double[] centers = c.getDoubleValues();
                double[] widths = w.getDoubleValues();
                for (int i = 0; centers != null && widths != null && i < Math.min(centers.length, widths.length);
                        i++) {
                    if (widths[i] >= 1 && Double.isFinite(centers[i])) {
                        windows.add(new Window(centers[i], widths[i]));
                    }
                }
            }
        } catch (DicomException | RuntimeException e) {
            // An unreadable window is ignored: the default from the data applies.
        }
        return windows;
    }

    private static int u16(byte[] b, int p) {
        return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8;
    }

    private static long u32(byte[] b, int p) {
        return u16(b, p) | (long) u16(b, p + 2) << 16;
    }

    static String string(AttributeList list, AttributeTag tag) {
        return Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
    }

    private static int intValue(AttributeList list, AttributeTag tag, String name, int absent)
            throws ImageDecodeException {
        Attribute a = list.get(tag);
        if (a == null || a.getVM() == 0) {
            return absent;
        }
        String text = a.getSingleStringValueOrEmptyString().trim();
        try {
            return text.isEmpty() ? absent : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ImageDecodeException("DICOM " + name + " " + tag + " is \"" + text + "\", not a number");
        }
    }

    private static double doubleValue(AttributeList list, AttributeTag tag, double absent)
            throws ImageDecodeException {
        String text = Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
        try {
            return text.isEmpty() ? absent : Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new ImageDecodeException("DICOM " + tag + " is \"" + text + "\", not a number");
        }
    }
}
