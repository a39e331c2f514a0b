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
                .description("Mosaic: a grid of A×B blocks centred on the region (partial blocks at both edges); "
                        + "each block becomes the floor of its per-channel mean over its in-region pixels (xv's "
                        + "Pixelize, computing the intended mean where xv misreads blocks overhanging the left edge).")
                .help("Turns the image into a mosaic of blocks, each the average of the pixels it covers; useful "
                        + "to make a region unreadable (for example a name burnt into the pixels).")
                .param(ParamSpec.extent(BLOCK, "4", 1, 65535, "block size: N for N×N blocks, AxB for A wide and B high")
                        .withHelp("Block size", "Size of each mosaic block in pixels: one number for square blocks "
                                + "(\"8\"), or width x height (\"8x4\"), each from 1 to 65535. Larger blocks hide "
                                + "more detail; 1 leaves the image unchanged."))
                .build(), params -> params.getExtent(BLOCK))
                .rgb((s, d, r, e) -> PixelizeStraightforward.apply(s, d, r, e.a(), e.b()),
                        (s, d, r, e, parallel) -> PixelizeOptimized.apply(s, d, r, e.a(), e.b(), parallel))
                .gray16((s, d, r, e) -> PixelizeGray16Straightforward.apply(s, d, r, e.a(), e.b()),
                        (s, d, r, e, parallel) -> PixelizeGray16Optimized.apply(s, d, r, e.a(), e.b(), parallel)));
    }
}
