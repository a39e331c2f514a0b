package org.medjava.plugin.despeckle;

import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's DeSpeckle (spec 2.3): a per-channel median over the n×n window centred on the pixel, clipped to the
 * region; an even count gives the floor of the mean of the two middle values. On grey data
 * (docs/xv-filters-16bit.md 2.3) the same on offset values.
 */
public final class DespeckleFilter extends DeclaredFilter<Integer> {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "despeckle";
    /** Name of the mask-size parameter. */
    public static final String N = "n";

    public DespeckleFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("DeSpeckle").version("1").specSection("2.3")
                .text(DespeckleFilter.class)
                .param(ParamSpec.oddInteger(N, 3, 1, 255))
                .build(), params -> params.getInt(N))
                .rgb(DespeckleStraightforward::apply, DespeckleOptimized::apply)
                .gray16(DespeckleGray16Straightforward::apply, DespeckleGray16Optimized::apply));
    }
}
