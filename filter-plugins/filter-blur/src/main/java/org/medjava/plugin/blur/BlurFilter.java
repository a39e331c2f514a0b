package org.medjava.plugin.blur;

import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's Blur (spec 2.1): each channel becomes the floor of the mean of the n×n window centred on the pixel,
 * clipped to the region. On grey data (docs/xv-filters-16bit.md 2.1) the same on offset values, with 64-bit sums.
 */
public final class BlurFilter extends DeclaredFilter<Integer> {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "blur";
    /** Name of the mask-size parameter. */
    public static final String N = "n";

    public BlurFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("Blur").version("1").specSection("2.1")
                .text(BlurFilter.class)
                .param(ParamSpec.oddInteger(N, 3, 1, 255))
                .build(), params -> params.getInt(N))
                .rgb(BlurStraightforward::apply, BlurOptimized::apply)
                .gray16(BlurGray16Straightforward::apply, BlurGray16Optimized::apply));
    }
}
