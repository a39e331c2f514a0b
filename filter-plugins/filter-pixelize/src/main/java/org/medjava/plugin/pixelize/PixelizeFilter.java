package org.medjava.plugin.pixelize;

import org.medjava.filter.Extent;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Implementations;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * xv's Pixelize (spec 2.7): a grid of A×B blocks centred on the region; every in-region pixel of a block becomes
 * the floor of the block's per-channel mean over its in-region pixels (the intended result, not xv's left-edge
 * defect). On grey data (docs/xv-filters-16bit.md 2.7) the same on offset values, with 64-bit sums.
 */
public final class PixelizeFilter implements Filter {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "pixelize";
    /** Name of the block-size parameter. */
    public static final String BLOCK = "block";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Pixelize")
            .version("1")
            .specSection("2.7")
            .description("Mosaic: a grid of A×B blocks centred on the region (partial blocks at both edges); each "
                    + "block becomes the floor of its per-channel mean over its in-region pixels (xv's Pixelize, "
                    + "computing the intended mean where xv misreads blocks overhanging the left edge).")
            .help("Turns the image into a mosaic of blocks, each the average of the pixels it covers; useful "
                    + "to make a region unreadable (for example a name burnt into the pixels).")
            .param(ParamSpec.extent(BLOCK, "4", 1, 65535, "block size: N for N×N blocks, AxB for A wide and B high")
                    .withHelp("Block size", "Size of each mosaic block in pixels: one number for square blocks "
                            + "(\"8\"), or width x height (\"8x4\"), each from 1 to 65535. Larger blocks hide "
                            + "more detail; 1 leaves the image unchanged."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster src, Raster dst, Region region, int a, int b);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int a, int b);
    }

    private static final Implementations<Kernel> RGB = Implementations.of(PixelizeStraightforward::apply,
            (src, dst, region, a, b) -> PixelizeOptimized.apply(src, dst, region, a, b, false),
            (src, dst, region, a, b) -> PixelizeOptimized.apply(src, dst, region, a, b, true));

    private static final Implementations<GrayKernel> GRAY = Implementations.of(
            PixelizeGray16Straightforward::apply,
            (src, dst, region, a, b) -> PixelizeGray16Optimized.apply(src, dst, region, a, b, false),
            (src, dst, region, a, b) -> PixelizeGray16Optimized.apply(src, dst, region, a, b, true));

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        Extent block = params.getExtent(BLOCK);
        RGB.get(implementation).apply(src, dst, region, block.a(), block.b());
    }

    @Override
    public boolean supportsGray16() {
        return true;
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        Extent block = params.getExtent(BLOCK);
        GRAY.get(implementation).apply(src, dst, region, block.a(), block.b());
    }
}
