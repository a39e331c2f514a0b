package org.medjava.plugin.blur;

import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * xv's Blur (spec 2.1): each channel becomes the floor of the mean of the n×n window centred on the pixel,
 * clipped to the region.
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
            .param(ParamSpec.oddInteger(N, 3, 1, 255, "mask size (1 = identity)"))
            .build();

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        int n = params.getInt(N);
        switch (implementation) {
            case STRAIGHTFORWARD:
                BlurStraightforward.apply(src, dst, region, n);
                break;
            case OPTIMIZED:
                BlurOptimized.apply(src, dst, region, n, false);
                break;
            case PARALLEL:
                BlurOptimized.apply(src, dst, region, n, true);
                break;
            default:
                throw new IllegalArgumentException("unknown implementation " + implementation);
        }
    }
}
