package org.medjava.bench.jni;

/** Native entry points of {@code libmedjava_jni_o2.so}: the C filters built with {@code -O2 -ffp-contract=off}. */
final class CFiltersO2 {
    private CFiltersO2() {
    }

    static native long prepare(String filterId, String params);

    static native int run(long handle, int implementation, byte[] src, byte[] dst, int width, int height);

    /** 16-bit grey: {@code src}/{@code dst} of {@code width * height} words, a format of 1..16 bits. */
    static native int runGray16(long handle, int implementation, short[] src, short[] dst, int width, int height,
                                int bitsStored, boolean signed);

    static native void release(long handle);

    static native String buildInfo();

    static native String errorText(int code);

    /** {@code mj_simd_level()}: the vectorized kernels' path here ({@code avx512}, {@code avx2}, {@code scalar}). */
    static native String simdLevel();
}
