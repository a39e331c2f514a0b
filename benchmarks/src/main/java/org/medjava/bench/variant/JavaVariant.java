package org.medjava.bench.variant;

import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** A Java port (straightforward, optimized or parallel) at default parameters. */
final class JavaVariant implements FilterVariant {
    private final Filter filter;
    private final FilterParams params;
    private final Implementation implementation;
    private final Raster src;
    private final Raster dst;
    private final Region whole;

    JavaVariant(String filterId, Implementation implementation, Raster src, Raster dst) {
        this.filter = JavaFilters.get(filterId);
        this.params = filter.descriptor().defaults();
        this.implementation = implementation;
        this.src = src;
        this.dst = dst;
        this.whole = src.bounds();
    }

    @Override
    public Object run() {
        dst.copyFrom(src);
        filter.apply(src, dst, whole, params, implementation);
        return dst;
    }
}
