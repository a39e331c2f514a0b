package org.medjava.bench.jni;

import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/**
 * The C reference filters through JNI. The pixel arrays are handed to C without a copy (the bridge pins them with
 * {@code GetPrimitiveArrayCritical}); like a Java filter, {@link Prepared#run} expects {@code dst} to hold a copy of
 * {@code src} already and filters the whole image. Both the 8-bit RGB ports ({@link Prepared#run}) and the 16-bit grey
 * ports ({@link Prepared#runGray16}) are reachable; the parameters are the same for both.
 */
public final class CFilters {
    /** The {@code MJ_IMPL_*} values of {@code medjava_filters.h}. */
    public static final int STRAIGHTFORWARD = 0;
    public static final int OPTIMIZED = 1;
    /** The intrinsics kernels (AVX-512 or AVX2 chosen at run time, see {@link #simdLevel}). */
    public static final int VECTORIZED = 2;
    /** {@code MJ_ERR_ARG}: what {@code mj_run} answers for a filter without a vectorized kernel yet. */
    static final int ERR_ARG = -3;

    private final CBuild build;

    private CFilters(CBuild build) {
        this.build = build;
    }

    /** Loads the build's library (once per JVM). */
    public static CFilters of(CBuild build) {
        build.load();
        return new CFilters(build);
    }

    public CBuild build() {
        return build;
    }

    /** Compiler version and flags the library was built with. */
    public String buildInfo() {
        return build == CBuild.O2 ? CFiltersO2.buildInfo() : CFiltersNative.buildInfo();
    }

    /**
     * {@code mj_simd_level()}: {@code avx512}, {@code avx2} or {@code scalar}, the path the vectorized kernels take
     * in this process (the CPU's best, capped by the environment variable {@code MJ_SIMD}, which forks inherit).
     */
    public String simdLevel() {
        return build == CBuild.O2 ? CFiltersO2.simdLevel() : CFiltersNative.simdLevel();
    }

    /**
     * Whether {@code filterId} has a vectorized kernel (8-bit RGB, or 16-bit grey when {@code gray16}): runs it on a
     * tiny image, since a filter without one answers {@code MJ_ERR_ARG} ("no vectorized variant yet").
     */
    public boolean hasVectorized(String filterId, boolean gray16) {
        try (Prepared p = prepare(filterId, "")) {
            int w = 8;
            int h = 8;
            int rc = gray16
                    ? (build == CBuild.O2
                        ? CFiltersO2.runGray16(p.handle, VECTORIZED, new short[w * h], new short[w * h], w, h, 16,
                                false)
                        : CFiltersNative.runGray16(p.handle, VECTORIZED, new short[w * h], new short[w * h], w, h, 16,
                                false))
                    : (build == CBuild.O2 ? CFiltersO2.run(p.handle, VECTORIZED, new byte[3 * w * h],
                            new byte[3 * w * h], w, h)
                        : CFiltersNative.run(p.handle, VECTORIZED, new byte[3 * w * h], new byte[3 * w * h], w, h));
            return rc != ERR_ARG;
        }
    }

    /**
     * Parses and validates {@code params} ({@code "n=5"}, empty for the defaults) with the C parser.
     *
     * @throws IllegalArgumentException with the C library's message for a bad filter or parameter
     */
    public Prepared prepare(String filterId, String params) {
        long handle = build == CBuild.O2 ? CFiltersO2.prepare(filterId, params) : CFiltersNative.prepare(filterId, params);
        return new Prepared(handle, filterId);
    }

    /** One parsed parameter set; release it with {@link #close}. */
    public final class Prepared implements AutoCloseable {
        private long handle;
        private final String filterId;

        private Prepared(long handle, String filterId) {
            this.handle = handle;
            this.filterId = filterId;
        }

        /**
         * Runs the straightforward ({@link #STRAIGHTFORWARD}), optimized or vectorized C port over the whole image.
         *
         * @throws UnsupportedOperationException for {@link #VECTORIZED} on a filter without a vectorized kernel
         */
        public void run(int implementation, Raster src, Raster dst) {
            if (handle == 0) {
                throw new IllegalStateException("closed");
            }
            src.requireSameSize(dst);
            int rc = build == CBuild.O2
                    ? CFiltersO2.run(handle, implementation, src.rgb(), dst.rgb(), src.width(), src.height())
                    : CFiltersNative.run(handle, implementation, src.rgb(), dst.rgb(), src.width(), src.height());
            check(rc, implementation);
        }

        /**
         * Runs the straightforward, optimized or vectorized C grey port ({@code mj_run_gray16}) over the whole image;
         * like
         * {@link #run}, {@code dst} must hold a copy of {@code src}. The values are not checked against the range.
         */
        public void runGray16(int implementation, GrayRaster16 src, GrayRaster16 dst) {
            if (handle == 0) {
                throw new IllegalStateException("closed");
            }
            src.requireSameFormat(dst);
            int rc = build == CBuild.O2
                    ? CFiltersO2.runGray16(handle, implementation, src.words(), dst.words(), src.width(),
                            src.height(), src.bitsStored(), src.signed())
                    : CFiltersNative.runGray16(handle, implementation, src.words(), dst.words(), src.width(),
                            src.height(), src.bitsStored(), src.signed());
            check(rc, implementation);
        }

        private void check(int rc, int implementation) {
            if (rc == ERR_ARG && implementation == VECTORIZED) { // the sizes were checked: no kernel yet
                throw new UnsupportedOperationException(filterId + ": no vectorized variant yet");
            }
            if (rc != 0) {
                String text = build == CBuild.O2 ? CFiltersO2.errorText(rc) : CFiltersNative.errorText(rc);
                throw new IllegalStateException("C filter failed (" + rc + "): " + text);
            }
        }

        @Override
        public void close() {
            if (handle != 0) {
                if (build == CBuild.O2) {
                    CFiltersO2.release(handle);
                } else {
                    CFiltersNative.release(handle);
                }
                handle = 0;
            }
        }
    }
}
