package org.medjava.bench.jni;

/** Native entry points of {@code libmedjava_jni_o2.so}: the C filters built with {@code -O2 -ffp-contract=off}. */
final class CFiltersO2 {
    private CFiltersO2() {
    }

    static native long prepare(String filterId, String params);

    static native int run(long handle, int implementation, byte[] src, byte[] dst, int width, int height);

    static native void release(long handle);

    static native String buildInfo();

    static native String errorText(int code);
}
