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
    /** {@code MJ_IMPL_STRAIGHTFORWARD} and {@code MJ_IMPL_OPTIMIZED} of {@code medjava_filters.h}. */
    public static final int STRAIGHTFORWARD = 0;
    public static final int OPTIMIZED = 1;

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
     * Parses and validates {@code params} ({@code "n=5"}, empty for the defaults) with the C parser.
     *
     * @throws IllegalArgumentException with the C library's message for a bad filter or parameter
     */
    public Prepared prepare(String filterId, String params) {
        long handle = build == CBuild.O2 ? CFiltersO2.prepare(filterId, params) : CFiltersNative.prepare(filterId, params);
        return new Prepared(handle);
    }

    /** One parsed parameter set; release it with {@link #close}. */
    public final class Prepared implements AutoCloseable {
        private long handle;

        private Prepared(long handle) {
            this.handle = handle;
        }

        /** Runs the straightforward ({@link #STRAIGHTFORWARD}) or optimized C port over the whole image. */
        public void run(int implementation, Raster src, Raster dst) {
            if (handle == 0) {
                throw new IllegalStateException("closed");
            }
            src.requireSameSize(dst);
            int rc = build == CBuild.O2
                    ? CFiltersO2.run(handle, implementation, src.rgb(), dst.rgb(), src.width(), src.height())
                    : CFiltersNative.run(handle, implementation, src.rgb(), dst.rgb(), src.width(), src.height());
            check(rc);
        }

        /**
         * Runs the straightforward or optimized C grey port ({@code mj_run_gray16}) over the whole image; like
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
            check(rc);
        }

        private void check(int rc) {
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
