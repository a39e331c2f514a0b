package org.medjava.plugin.despeckle;

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
 * xv's DeSpeckle (spec 2.3): a per-channel median over the n×n window centred on the pixel, clipped to the
 * region; an even count gives the floor of the mean of the two middle values. On grey data
 * (docs/xv-filters-16bit.md 2.3) the same on offset values.
 */
public final class DespeckleFilter implements Filter {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "despeckle";
    /** Name of the mask-size parameter. */
    public static final String N = "n";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("DeSpeckle")
            .version("1")
            .specSection("2.3")
            .description("Median filter: each channel independently becomes the median of the n×n window centred "
                    + "on the pixel, clipped to the region; an even count gives floor((a[k-1] + a[k]) / 2) "
                    + "(xv's DeSpeckle).")
            .help("Removes isolated bright or dark specks (salt-and-pepper noise) with a median: each pixel takes "
                    + "the middle value of its neighbourhood, so edges stay sharper than with Blur.")
            .param(ParamSpec.oddInteger(N, 3, 1, 255, "mask size")
                    .withHelp("Neighbourhood size", "Width of the square whose middle value each pixel takes, in "
                            + "pixels (odd, 1 to 255). Higher removes larger specks but also erases small "
                            + "structures such as thin vessels or calcifications; 1 leaves the image unchanged."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster src, Raster dst, Region region, int n);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int n);
    }

    private static final Implementations<Kernel> RGB = Implementations.of(DespeckleStraightforward::apply,
            (src, dst, region, n) -> DespeckleOptimized.apply(src, dst, region, n, false),
            (src, dst, region, n) -> DespeckleOptimized.apply(src, dst, region, n, true));

    private static final Implementations<GrayKernel> GRAY = Implementations.of(
            DespeckleGray16Straightforward::apply,
            (src, dst, region, n) -> DespeckleGray16Optimized.apply(src, dst, region, n, false),
            (src, dst, region, n) -> DespeckleGray16Optimized.apply(src, dst, region, n, true));

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
