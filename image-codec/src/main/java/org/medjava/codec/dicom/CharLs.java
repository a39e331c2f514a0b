package org.medjava.codec.dicom;

/**
 * JPEG-LS through CharLS (Debian's libcharls2), reached by a small JNI bridge that the build compiles into this jar
 * (src/main/c). Loaded once, on first use ({@link NativeBridge}); when the bridge or CharLS itself cannot be loaded
 * every call throws an {@link UnsupportedDicomException} that names what is missing, so a store without libcharls2
 * answers 422 rather than failing.
 */
public final class CharLs {
    private static final NativeBridge.Spec BRIDGE = new NativeBridge.Spec("libmedjava_charls.so", "JPEG-LS",
            "CharLS", "libcharls.so.2", "libcharls2", "libcharls-dev");
    /** Null when loaded, else why not. */
    private static final String UNAVAILABLE = load();

    private CharLs() {
    }

    /** A decoded frame: samples of {@code bits} precision, 1 byte each up to 8 bits, else 2 (little endian). */
    public record Frame(int width, int height, int bits, int components, int interleave, int near, byte[] samples) {
    }

    /** Null when JPEG-LS can be decoded and encoded here, else a sentence saying what is missing. */
    public static String unavailable() {
        return UNAVAILABLE;
    }

    /** The CharLS version in use, e.g. "2.4.1". */
    public static String libraryVersion() throws UnsupportedDicomException {
        check();
        return version();
    }

    /**
     * Decodes one JPEG-LS codestream. Colour frames come back pixel-interleaved (R G B R G B …) whatever the
     * codestream's interleave mode, which {@link Frame#interleave()} still reports (0 none, 1 line, 2 sample).
     */
    public static Frame decodeFrame(byte[] codestream) throws UnsupportedDicomException,
            org.medjava.codec.ImageDecodeException {
        return decodeFrame(codestream, 0, 0, 0);
    }

    /**
     * As {@link #decodeFrame(byte[])}, refusing before decoding a codestream that is not {@code width} x {@code height}
     * x {@code components} (what the DICOM header says), so a damaged or hostile header cannot claim memory.
     */
    public static Frame decodeFrame(byte[] codestream, int width, int height, int components)
            throws UnsupportedDicomException, org.medjava.codec.ImageDecodeException {
        check();
        int[] info = new int[6];
        byte[] samples;
        try {
            // the size the header's dimensions give at either sample width; the exact one is checked below
            samples = width > 0 ? decodeChecked(codestream, info, width, height, components)
                    : decode(codestream, info, 0);
        } catch (IllegalArgumentException e) {
            throw new org.medjava.codec.ImageDecodeException(e.getMessage(), e);
        }
        if (samples == null) {
            throw new org.medjava.codec.ImageDecodeException("JPEG-LS frame is " + info[0] + "x" + info[1] + "x"
                    + info[3] + ", the DICOM header says " + width + "x" + height + "x" + components);
        }
        int bytes = info[2] > 8 ? 2 : 1;
        if (info[3] > 1 && info[4] == 0) {
            samples = interleave(samples, info[0] * info[1], info[3], bytes);
        }
        return new Frame(info[0], info[1], info[2], info[3], info[4], info[5], samples);
    }

    /**
     * Encodes one frame: {@code samples} pixel-interleaved, 1 byte a sample up to 8 bits, else 2 (little endian);
     * {@code near} 0 for lossless, more for near-lossless (the largest error a sample may have). Colour is encoded
     * sample-interleaved, the mode DICOM readers most often handle.
     */
    public static byte[] encodeFrame(byte[] samples, int width, int height, int bits, int components, int near)
            throws UnsupportedDicomException, org.medjava.codec.ImageDecodeException {
        check();
        try {
            return encode(samples, width, height, bits, components, components > 1 ? 2 : 0, near);
        } catch (IllegalArgumentException e) {
            throw new org.medjava.codec.ImageDecodeException(e.getMessage(), e);
        }
    }

    private static byte[] decodeChecked(byte[] codestream, int[] info, int width, int height, int components) {
        long pixels = (long) width * height * components;
        byte[] samples = decode(codestream, info, pixels);
        if (samples == null && info[0] == width && info[1] == height && info[3] == components && info[2] > 8) {
            samples = decode(codestream, info, 2 * pixels); // more than 8 bits: 2 bytes a sample
        }
        return samples;
    }

    private static byte[] interleave(byte[] planes, int pixels, int components, int bytes) {
        byte[] out = new byte[planes.length];
        for (int c = 0; c < components; c++) {
            for (int p = 0; p < pixels; p++) {
                int from = (c * pixels + p) * bytes;
                int to = (p * components + c) * bytes;
                out[to] = planes[from];
                if (bytes == 2) {
                    out[to + 1] = planes[from + 1];
                }
            }
        }
        return out;
    }

    private static void check() throws UnsupportedDicomException {
        if (UNAVAILABLE != null) {
            throw new UnsupportedDicomException(UNAVAILABLE);
        }
    }

    private static String load() {
        return NativeBridge.load(BRIDGE, CharLs::version);
    }

    /** What a failed load says to the user: the missing Debian package when it is CharLS itself. */
    static String whyNotLoaded(UnsatisfiedLinkError e) {
        return NativeBridge.whyNotLoaded(BRIDGE, e);
    }

    private static native byte[] decode(byte[] codestream, int[] info, long expectedSize);

    private static native byte[] encode(byte[] samples, int width, int height, int bits, int components,
            int interleave, int near);

    private static native String version();
}
