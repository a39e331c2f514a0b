package org.medjava.plugin.pixelize;

import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.Extent;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's Pixelize (spec 2.7): a grid of A×B blocks centred on the region; every in-region pixel of a block becomes
 * the floor of the block's per-channel mean over its in-region pixels (the intended result, not xv's left-edge
 * defect). On grey data (docs/xv-filters-16bit.md 2.7) the same on offset values, with 64-bit sums.
 */
public final class PixelizeFilter extends DeclaredFilter<Extent> {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "pixelize";
    /** Name of the block-size parameter. */
    public static final String BLOCK = "block";

    public PixelizeFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("Pixelize").version("1").specSection("2.7")
                .text(PixelizeFilter.class)
                .param(ParamSpec.extent(BLOCK, "4", 1, 65535))
                .build(), params -> params.getExtent(BLOCK))
                .rgb((s, d, r, e) -> PixelizeStraightforward.apply(s, d, r, e.a(), e.b()),
                        (s, d, r, e, parallel) -> PixelizeOptimized.apply(s, d, r, e.a(), e.b(), parallel))
                .gray16((s, d, r, e) -> PixelizeGray16Straightforward.apply(s, d, r, e.a(), e.b()),
                        (s, d, r, e, parallel) -> PixelizeGray16Optimized.apply(s, d, r, e.a(), e.b(), parallel)));
    }
}
