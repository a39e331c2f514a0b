package org.medjava.bench.variant;

import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;

/** A Java port's 16-bit grey kernel ({@link Filter#applyGray16}) at default parameters. */
final class JavaGray16Variant implements FilterVariant {
    private final Filter filter;
    private final FilterParams params;
    private final Implementation implementation;
    private final GrayRaster16 src;
    private final GrayRaster16 dst;
    private final Region whole;

    JavaGray16Variant(String filterId, Implementation implementation, GrayRaster16 src, GrayRaster16 dst) {
        this.filter = JavaFilters.get(filterId);
        if (!filter.supportsGray16()) {
            throw new IllegalArgumentException(filterId + " has no 16-bit grey kernels");
        }
        this.params = filter.descriptor().defaults();
        this.implementation = implementation;
        this.src = src;
        this.dst = dst;
        this.whole = src.bounds();
        Filter.requireContract(filter, src, dst, whole, params);
    }

    @Override
    public Object run() {
        dst.copyFrom(src);
        filter.applyGray16(src, dst, whole, params, implementation);
        return dst;
    }
}
