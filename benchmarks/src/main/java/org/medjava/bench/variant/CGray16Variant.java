package org.medjava.bench.variant;

import org.medjava.bench.jni.CBuild;
import org.medjava.bench.jni.CFilters;
import org.medjava.filter.GrayRaster16;

/** A C grey port ({@code mj_run_gray16}) through JNI at default parameters; the copy is {@code System.arraycopy}. */
final class CGray16Variant implements FilterVariant {
    private final CFilters.Prepared prepared;
    private final int implementation;
    private final GrayRaster16 src;
    private final GrayRaster16 dst;

    CGray16Variant(CBuild build, int implementation, String filterId, GrayRaster16 src, GrayRaster16 dst) {
        src.requireSameFormat(dst);
        this.prepared = CFilters.of(build).prepare(filterId, "");
        this.implementation = implementation;
        this.src = src;
        this.dst = dst;
    }

    @Override
    public Object run() {
        dst.copyFrom(src);
        prepared.runGray16(implementation, src, dst);
        return dst;
    }

    @Override
    public void close() {
        prepared.close();
    }
}
