package org.medjava.store.core.transcode;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.medjava.codec.dicom.CharLs;
import org.medjava.codec.dicom.Jpeg2000;

/**
 * The transfer syntaxes the store converts between (see {@link Transcoder}): any uncompressed syntax to any other;
 * the compressed ones whose pixel data PixelMed decodes (with the ImageIO codecs image-codec brings: the JDK's
 * 8-bit JPEG, PixelMed's JPEG lossless, jai-imageio's JPEG 2000) or image-codec itself (JPEG-LS through CharLS,
 * 12-bit JPEG, RLE, JPEG 2000 and HTJ2K through OpenJPEG and OpenJPH) to an uncompressed one; and any decodable 8- or
 * 16-bit grey or three-sample image to RLE, JPEG Lossless SV1, JPEG-LS (CharLS), JPEG 2000 (lossless or lossy), HTJ2K
 * lossless (OpenJPH) and 8-bit JPEG Baseline. Lossy targets
 * ({@link #isLossy}) are for callers who were asked for them.
 */
public final class TransferSyntaxes {
    public static final String IMPLICIT_LE = "1.2.840.10008.1.2";
    public static final String EXPLICIT_LE = "1.2.840.10008.1.2.1";
    public static final String DEFLATED_LE = "1.2.840.10008.1.2.1.99";
    public static final String EXPLICIT_BE = "1.2.840.10008.1.2.2";
    public static final String RLE = "1.2.840.10008.1.2.5";
    public static final String JPEG_BASELINE = "1.2.840.10008.1.2.4.50";
    public static final String JPEG_EXTENDED = "1.2.840.10008.1.2.4.51";
    public static final String JPEG_LOSSLESS = "1.2.840.10008.1.2.4.57";
    public static final String JPEG_LOSSLESS_SV1 = "1.2.840.10008.1.2.4.70";
    public static final String JPEG_LS_LOSSLESS = "1.2.840.10008.1.2.4.80";
    public static final String JPEG_LS_NEAR_LOSSLESS = "1.2.840.10008.1.2.4.81";
    public static final String J2K_LOSSLESS = "1.2.840.10008.1.2.4.90";
    public static final String J2K = "1.2.840.10008.1.2.4.91";
    public static final String HTJ2K_LOSSLESS = Jpeg2000.HTJ2K_LOSSLESS;
    public static final String HTJ2K_RPCL_LOSSLESS = Jpeg2000.HTJ2K_RPCL_LOSSLESS;
    public static final String HTJ2K = Jpeg2000.HTJ2K;

    /** The uncompressed syntaxes, the encodings every DICOM application can read. */
    public static final Set<String> NATIVE = Set.of(IMPLICIT_LE, EXPLICIT_LE, DEFLATED_LE, EXPLICIT_BE);
    /** What the store falls back to, in order of preference, when a peer does not take the stored syntax. */
    public static final List<String> FALLBACK = List.of(EXPLICIT_LE, IMPLICIT_LE, EXPLICIT_BE);
    /** The compressed syntaxes the store encodes without loss, in the order it offers them to peers. */
    public static final List<String> LOSSLESS_ENCODED = List.of(JPEG_LOSSLESS_SV1, JPEG_LS_LOSSLESS, J2K_LOSSLESS,
            RLE);
    /**
     * The HTJ2K syntaxes the store writes (lossless, RPCL, through OpenJPH) when a client names them, and offers DICOM
     * peers after the syntaxes of {@link #LOSSLESS_ENCODED} (which peers of before 2023 know).
     */
    public static final List<String> HTJ2K_ENCODED = List.of(HTJ2K_RPCL_LOSSLESS, HTJ2K_LOSSLESS);
    /** The compressed syntaxes the store encodes with loss, only when asked for. */
    public static final List<String> LOSSY_ENCODED = List.of(JPEG_BASELINE, JPEG_LS_NEAR_LOSSLESS, J2K);

    private static final Set<String> LOSSY = Set.of(JPEG_BASELINE, JPEG_EXTENDED, JPEG_LS_NEAR_LOSSLESS, J2K, HTJ2K);

    /** Compressed syntaxes decoded here, by name for messages. */
    private static final Map<String, String> DECODABLE = Map.ofEntries(
            Map.entry(RLE, "RLE Lossless"),
            Map.entry(JPEG_BASELINE, "JPEG Baseline"),
            Map.entry(JPEG_EXTENDED, "JPEG Extended"),
            Map.entry(JPEG_LOSSLESS, "JPEG Lossless"),
            Map.entry(JPEG_LOSSLESS_SV1, "JPEG Lossless SV1"),
            Map.entry(J2K_LOSSLESS, "JPEG 2000 Lossless"),
            Map.entry(J2K, "JPEG 2000"),
            Map.entry(HTJ2K_LOSSLESS, "HTJ2K Lossless"),
            Map.entry(HTJ2K_RPCL_LOSSLESS, "HTJ2K Lossless RPCL"),
            Map.entry(HTJ2K, "HTJ2K"),
            Map.entry(JPEG_LS_LOSSLESS, "JPEG-LS Lossless"),
            Map.entry(JPEG_LS_NEAR_LOSSLESS, "JPEG-LS Near-Lossless"));

    private TransferSyntaxes() {
    }

    public static boolean isNative(String ts) {
        return NATIVE.contains(ts);
    }

    /**
     * Whether pixel data in {@code ts} may have lost information: JPEG baseline and extended, JPEG-LS near-lossless,
     * JPEG 2000 (.91).
     */
    public static boolean isLossy(String ts) {
        return LOSSY.contains(ts);
    }

    /** Whether the store can write {@code ts}. */
    public static boolean isEncodable(String ts) {
        return isNative(ts) || LOSSLESS_ENCODED.contains(ts) || LOSSY_ENCODED.contains(ts)
                || HTJ2K_ENCODED.contains(ts);
    }

    /**
     * Why an object stored in {@code from} cannot be delivered in {@code to}, or null when it can. Says nothing of
     * loss: whether a lossy {@code to} was asked for is the caller's to decide.
     *
     * @param bitsAllocated of the object's pixel data, or null when unknown (then a depth an encoder does not take
     *                      shows only when it is converted)
     */
    public static String whyNot(String from, String to, Integer bitsAllocated) {
        if (from.equals(to)) {
            return null;
        }
        if (!isEncodable(to)) {
            return "the store does not encode " + name(to) + (to.equals(name(to)) ? "" : " (" + to + ")");
        }
        if (!isNative(from)) {
            if (isJpegLs(from) && CharLs.unavailable() != null) {
                return DECODABLE.get(from) + " (" + from + ") cannot be decompressed here: " + CharLs.unavailable();
            }
            if (Jpeg2000.isHtj2k(from) && Jpeg2000.unavailable(from) != null) {
                return DECODABLE.get(from) + " (" + from + ") cannot be decompressed here: "
                        + Jpeg2000.unavailable(from);
            }
            if (!DECODABLE.containsKey(from)) {
                return "transfer syntax " + from + " cannot be decompressed here";
            }
        }
        if (isJpegLs(to) && CharLs.unavailable() != null) {
            return name(to) + " cannot be written here: " + CharLs.unavailable();
        }
        if (Jpeg2000.isHtj2k(to) && Jpeg2000.unavailable(to) != null) {
            return name(to) + " cannot be written here: " + Jpeg2000.unavailable(to);
        }
        boolean eightBitOnly = to.equals(JPEG_BASELINE) || to.equals(J2K); // lossy JPEG 2000: see ImageIoEncoders
        if (!isNative(to) && bitsAllocated != null && bitsAllocated > (eightBitOnly ? 8 : 16)) {
            return name(to) + " is written here for " + (eightBitOnly ? "8" : "8- and 16")
                    + "-bit pixel data only, and this has " + bitsAllocated + "-bit";
        }
        return null;
    }

    private static boolean isJpegLs(String ts) {
        return ts.equals(JPEG_LS_LOSSLESS) || ts.equals(JPEG_LS_NEAR_LOSSLESS);
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
