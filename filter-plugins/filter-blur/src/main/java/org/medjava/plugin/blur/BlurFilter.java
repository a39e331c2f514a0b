package org.medjava.plugin.blur;

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
 * xv's Blur (spec 2.1): each channel becomes the floor of the mean of the n×n window centred on the pixel,
 * clipped to the region. On grey data (docs/xv-filters-16bit.md 2.1) the same on offset values, with 64-bit sums.
 */
public final class BlurFilter implements Filter {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "blur";
    /** Name of the mask-size parameter. */
    public static final String N = "n";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Blur")
            .version("1")
            .specSection("2.1")
            .description("Box blur: each channel becomes floor(sum / count) over the n×n window centred on the "
                    + "pixel, clipped to the region (xv's Blur).")
            .help("Smooths the image: each pixel becomes the average of its square neighbourhood. Reduces noise "
                    + "and fine detail alike; edges get softer.")
            .param(ParamSpec.oddInteger(N, 3, 1, 255, "mask size (1 = identity)")
                    .withHelp("Neighbourhood size", "Width of the averaged square, in pixels (odd, 1 to 255). "
                            + "Higher smooths more and blurs edges more; 1 leaves the image unchanged; 3 is a light "
                            + "smoothing."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster src, Raster dst, Region region, int n);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int n);
    }

    private static final Implementations<Kernel> RGB = Implementations.of(BlurStraightforward::apply,
            (src, dst, region, n) -> BlurOptimized.apply(src, dst, region, n, false),
            (src, dst, region, n) -> BlurOptimized.apply(src, dst, region, n, true));

    private static final Implementations<GrayKernel> GRAY = Implementations.of(BlurGray16Straightforward::apply,
            (src, dst, region, n) -> BlurGray16Optimized.apply(src, dst, region, n, false),
            (src, dst, region, n) -> BlurGray16Optimized.apply(src, dst, region, n, true));

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        RGB.get(implementation).apply(src, dst, region, params.getInt(N));
    }

    @Override
    public boolean supportsGray16() {
        return true;
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        GRAY.get(implementation).apply(src, dst, region, params.getInt(N));
    }
}
