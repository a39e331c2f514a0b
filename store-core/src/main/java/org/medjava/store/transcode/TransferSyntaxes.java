package org.medjava.store.transcode;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.medjava.codec.dicom.CharLs;

/**
 * The transfer syntaxes the store converts between when a peer does not accept the one an object is stored in: any
 * uncompressed syntax to any other, and the compressed ones whose pixel data PixelMed decodes (with the ImageIO
 * codecs image-codec brings: the JDK's 8-bit JPEG, PixelMed's JPEG lossless, jai-imageio's JPEG 2000) or image-codec
 * itself (JPEG-LS through CharLS, 12-bit JPEG, RLE) to an uncompressed one. Nothing is ever compressed.
 */
public final class TransferSyntaxes {
    public static final String IMPLICIT_LE = "1.2.840.10008.1.2";
    public static final String EXPLICIT_LE = "1.2.840.10008.1.2.1";
    public static final String DEFLATED_LE = "1.2.840.10008.1.2.1.99";
    public static final String EXPLICIT_BE = "1.2.840.10008.1.2.2";

    /** The uncompressed syntaxes, the encodings every DICOM application can read. */
    public static final Set<String> NATIVE = Set.of(IMPLICIT_LE, EXPLICIT_LE, DEFLATED_LE, EXPLICIT_BE);
    /** What the store falls back to, in order of preference, when a peer does not take the stored syntax. */
    public static final List<String> FALLBACK = List.of(EXPLICIT_LE, IMPLICIT_LE, EXPLICIT_BE);

    private static final String JPEG_BASELINE = "1.2.840.10008.1.2.4.50";
    private static final String JPEG_EXTENDED = "1.2.840.10008.1.2.4.51";
    private static final String JPEG_LS_LOSSLESS = "1.2.840.10008.1.2.4.80";
    private static final String JPEG_LS_NEAR_LOSSLESS = "1.2.840.10008.1.2.4.81";
    /** Compressed syntaxes decoded here, by name for messages. */
    private static final Map<String, String> DECODABLE = Map.of(
            "1.2.840.10008.1.2.5", "RLE Lossless",
            JPEG_BASELINE, "JPEG Baseline",
            JPEG_EXTENDED, "JPEG Extended",
            "1.2.840.10008.1.2.4.57", "JPEG Lossless",
            "1.2.840.10008.1.2.4.70", "JPEG Lossless SV1",
            "1.2.840.10008.1.2.4.90", "JPEG 2000 Lossless",
            "1.2.840.10008.1.2.4.91", "JPEG 2000",
            JPEG_LS_LOSSLESS, "JPEG-LS Lossless",
            JPEG_LS_NEAR_LOSSLESS, "JPEG-LS Near-Lossless");

    private TransferSyntaxes() {
    }

    public static boolean isNative(String ts) {
        return NATIVE.contains(ts);
    }

    /**
     * Why an object stored in {@code from} cannot be delivered in {@code to}, or null when it can.
     *
     * @param bitsAllocated of the object's pixel data, or null when unknown (no longer decides anything: 12-bit JPEG
     *                      decodes here too)
     */
    public static String whyNot(String from, String to, Integer bitsAllocated) {
        if (from.equals(to)) {
            return null;
        }
        if (!isNative(to)) {
            return "the store converts only to uncompressed transfer syntaxes, not to " + to;
        }
        if (isNative(from)) {
            return null;
        }
        if ((from.equals(JPEG_LS_LOSSLESS) || from.equals(JPEG_LS_NEAR_LOSSLESS)) && CharLs.unavailable() != null) {
            return DECODABLE.get(from) + " (" + from + ") cannot be decompressed here: " + CharLs.unavailable();
        }
        if (!DECODABLE.containsKey(from)) {
            return "transfer syntax " + from + " cannot be decompressed here";
        }
        return null;
    }

    /** A name for messages. */
    public static String name(String ts) {
        return switch (ts) {
            case IMPLICIT_LE -> "Implicit VR Little Endian";
            case EXPLICIT_LE -> "Explicit VR Little Endian";
            case DEFLATED_LE -> "Deflated Explicit VR Little Endian";
            case EXPLICIT_BE -> "Explicit VR Big Endian";
            default -> DECODABLE.getOrDefault(ts, ts);
        };
    }
}
