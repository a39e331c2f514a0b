package org.medjava.codec.dicom;

import org.medjava.codec.ImageDecodeException;

/**
 * JPEG 2000 frames (transfer syntaxes .90 lossless, .91) through OpenJPEG (Debian's libopenjp2-7), and HTJ2K frames
 * (.201 lossless, .202 lossless RPCL, .203) through OpenJPH (Debian's libopenjph0.9), each reached by a small JNI
 * bridge the build compiles into this jar (src/main/c). Both apply the codestream's inverse component transform, so
 * a frame coded with one (Photometric Interpretation YBR_RCT or YBR_ICT) comes back as RGB. When a bridge or its
 * library cannot be loaded, its calls throw an {@link UnsupportedDicomException} that names what is missing.
 */
public final class Jpeg2000 {
    public static final String LOSSLESS = "1.2.840.10008.1.2.4.90";
    public static final String LOSSY = "1.2.840.10008.1.2.4.91";
    public static final String HTJ2K_LOSSLESS = "1.2.840.10008.1.2.4.201";
    public static final String HTJ2K_RPCL_LOSSLESS = "1.2.840.10008.1.2.4.202";
    public static final String HTJ2K = "1.2.840.10008.1.2.4.203";

    private static final NativeBridge.Spec BRIDGE = new NativeBridge.Spec("libmedjava_openjpeg.so", "JPEG 2000",
            "OpenJPEG", "libopenjp2.so.7", "libopenjp2-7", "libopenjp2-7-dev");
    /** Null when loaded, else why not. */
    private static final String UNAVAILABLE = NativeBridge.load(BRIDGE, Jpeg2000::version);

    private Jpeg2000() {
    }

    /**
     * A decoded frame: samples pixel-interleaved, 1 byte each up to 8 bits, else 2 (little endian, two's complement
     * when signed).
     */
    public record Frame(int width, int height, int bits, int components, boolean signed, byte[] samples) {
    }

    /** Whether {@code ts} is JPEG 2000 (Part 1) or HTJ2K. */
    public static boolean handles(String ts) {
        return isPart1(ts) || isHtj2k(ts);
    }

    public static boolean isHtj2k(String ts) {
        return HTJ2K_LOSSLESS.equals(ts) || HTJ2K_RPCL_LOSSLESS.equals(ts) || HTJ2K.equals(ts);
    }

    private static boolean isPart1(String ts) {
        return LOSSLESS.equals(ts) || LOSSY.equals(ts);
    }

    /** Null when frames in {@code ts} can be decoded here, else a sentence saying what is missing. */
    public static String unavailable(String ts) {
        return isHtj2k(ts) ? Htj2k.UNAVAILABLE : UNAVAILABLE;
    }

    /** The codec library in use for {@code ts}, e.g. "OpenJPEG 2.5.0". */
    public static String libraryVersion(String ts) throws UnsupportedDicomException {
        check(ts);
        return isHtj2k(ts) ? "OpenJPH " + Htj2k.version() : "OpenJPEG " + version();
    }

    /**
     * Decodes one frame of {@code ts}, refusing before decoding a codestream that is not {@code width} x
     * {@code height} x {@code components} (what the DICOM header says), so a damaged or hostile header cannot claim
     * memory.
     */
    public static Frame decodeFrame(String ts, byte[] codestream, int width, int height, int components)
            throws UnsupportedDicomException, ImageDecodeException {
        if (!handles(ts)) {
            throw new ImageDecodeException("transfer syntax " + ts + " is not JPEG 2000");
        }
        check(ts);
        if (isHtj2k(ts) && !endsWithEoc(codestream)) {
            // OpenJPH decodes what it is given and makes up the rest: a truncated lossless frame would come out
            // with changed samples and no error, so its end is checked here (OpenJPEG checks its own)
            throw new ImageDecodeException("HTJ2K codestream is truncated, or not one: it does not end with an EOC "
                    + "marker (FF D9)");
        }
        int[] info = new int[5];
        byte[] samples;
        try {
            samples = isHtj2k(ts) ? Htj2k.decode(codestream, info, width, height, components)
                    : decode(codestream, info, width, height, components);
        } catch (IllegalArgumentException e) {
            throw new ImageDecodeException(e.getMessage(), e);
        }
        String name = isHtj2k(ts) ? "HTJ2K" : "JPEG 2000";
        if (samples == null) {
            throw new ImageDecodeException(name + " frame is " + info[0] + "x" + info[1] + "x" + info[3]
                    + ", the DICOM header says " + width + "x" + height + "x" + components);
        }
        return new Frame(info[0], info[1], info[2], info[3], info[4] != 0, samples);
    }

    /**
     * Encodes one frame as lossless HTJ2K (OpenJPH: reversible 5-3 wavelet, RPCL progression, the reversible colour
     * transform for RGB; OpenJPH 0.9 writes no TLM markers). {@code samples}: pixel-interleaved, 1 byte each up to
     * 8 bits, else 2 (little endian, two's complement when signed), as {@link #decodeFrame} gives them back.
     */
    public static byte[] encodeHtj2k(byte[] samples, int width, int height, int bits, int components, boolean signed)
            throws UnsupportedDicomException, ImageDecodeException {
        check(HTJ2K_RPCL_LOSSLESS);
        try {
            return Htj2k.encode(samples, width, height, bits, components, signed);
        } catch (IllegalArgumentException e) {
            throw new ImageDecodeException(e.getMessage(), e);
        }
    }

    /**
     * Encodes one frame as a JPEG 2000 codestream (OpenJPEG: one tile, one quality layer, no component transform, so
     * RGB stays RGB): {@code lossless}, the reversible 5-3 wavelet, every sample kept; else the irreversible 9-7
     * aiming at {@code ratio}:1. {@code samples} as {@link #encodeHtj2k} takes them.
     */
    public static byte[] encode(byte[] samples, int width, int height, int bits, int components, boolean signed,
            boolean lossless, int ratio) throws UnsupportedDicomException, ImageDecodeException {
        check(LOSSLESS);
        try {
            return compress(samples, width, height, bits, components, signed, lossless, ratio);
        } catch (IllegalArgumentException e) {
            throw new ImageDecodeException(e.getMessage(), e);
        }
    }

    /** Whether the codestream ends with EOC (FF D9), before the one zero byte that pads a fragment to even length. */
    private static boolean endsWithEoc(byte[] codestream) {
        int end = codestream.length;
        if (end > 0 && codestream[end - 1] == 0) {
            end--;
        }
        return end >= 2 && codestream[end - 2] == (byte) 0xFF && codestream[end - 1] == (byte) 0xD9;
    }

    private static void check(String ts) throws UnsupportedDicomException {
        String why = unavailable(ts);
        if (why != null) {
            throw new UnsupportedDicomException(why);
        }
    }

    private static native byte[] decode(byte[] codestream, int[] info, int width, int height, int components);

    private static native String version();

    private static native byte[] compress(byte[] samples, int width, int height, int bits, int components,
            boolean signed, boolean lossless, int ratio);
}
