package org.medjava.codec.dicom;

/** The OpenJPH bridge behind {@link Jpeg2000}'s HTJ2K frames (src/main/c/openjph_jni.cpp). */
final class Htj2k {
    private static final NativeBridge.Spec BRIDGE = new NativeBridge.Spec("libmedjava_openjph.so", "HTJ2K",
            "OpenJPH", "libopenjph.so.0.9", "libopenjph0.9", "libopenjph-dev");
    /** Null when loaded, else why not. */
    static final String UNAVAILABLE = NativeBridge.load(BRIDGE, Htj2k::version);

    private Htj2k() {
    }

    static native byte[] decode(byte[] codestream, int[] info, int width, int height, int components);

    static native byte[] encode(byte[] samples, int width, int height, int bits, int components, boolean signed);

    static native String version();
}
