package org.medjava.bench.variant;

import org.medjava.bench.jni.CBuild;
import org.medjava.bench.jni.CFilters;
import org.medjava.filter.Raster;

/** A C port through JNI at default parameters; the copy is the same {@code System.arraycopy} as in Java. */
final class CVariant implements FilterVariant {
    private final CFilters.Prepared prepared;
    private final int implementation;
    private final Raster src;
    private final Raster dst;

    CVariant(CBuild build, int implementation, String filterId, Raster src, Raster dst) {
        this.prepared = CFilters.of(build).prepare(filterId, "");
        this.implementation = implementation;
        this.src = src;
        this.dst = dst;
    }

    @Override
    public Object run() {
        dst.copyFrom(src);
        prepared.run(implementation, src, dst);
        return dst;
    }

    @Override
    public void close() {
        prepared.close();
    }
}
