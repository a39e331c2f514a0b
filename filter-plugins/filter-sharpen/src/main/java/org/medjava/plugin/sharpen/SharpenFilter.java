package org.medjava.plugin.sharpen;

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
 * xv's Sharpen (spec 2.2): an unsharp mask on the HSV value of the 1-pixel-inset interior; hue and saturation of
 * the centre pixel are kept. Binary64 in the spec's exact operation order, so Java and C agree byte for byte. On
 * grey data (docs/xv-filters-16bit.md 2.2) the value is {@code u / R} and the result is clamped to the format's range.
 */
public final class SharpenFilter implements Filter {
    public static final String ID = "sharpen";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Sharpen")
            .version("1")
            .specSection("2.2")
            .description("Sharpens brightness: v' = (V - p/100 * mean3x3(V)) / (1 - p/100) on the HSV value of "
                    + "interior pixels, keeping hue and saturation; the 1-pixel frame of the region is unchanged "
                    + "and regions narrower or shorter than 3 pixels are left alone.")
            .help("Lifts edges and fine detail by subtracting a blurred copy (unsharp masking). Colours keep "
                    + "their hue; the outermost pixel ring of the region is left as it was.")
            .param(ParamSpec.integer("p", 75, 0, 99, "enhancement factor in percent")
                    .withHelp("Strength (%)", "How strongly edges are lifted, in percent (0 to 99). Higher is "
                            + "stronger and also amplifies noise; 0 leaves the image unchanged; above about 90 "
                            + "noise dominates."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster src, Raster dst, Region region, int p);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int p);
    }

    private static final Implementations<Kernel> RGB = Implementations.of(SharpenStraightforward::apply,
            SharpenOptimized::apply, SharpenOptimized::applyParallel);

    private static final Implementations<GrayKernel> GRAY = Implementations.of(SharpenGray16Straightforward::apply,
            (src, dst, region, p) -> SharpenGray16Optimized.apply(src, dst, region, p, false),
            (src, dst, region, p) -> SharpenGray16Optimized.apply(src, dst, region, p, true));

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        RGB.get(implementation).apply(src, dst, region, params.getInt("p"));
    }

    @Override
    public boolean supportsGray16() {
        return true;
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        GRAY.get(implementation).apply(src, dst, region, params.getInt("p"));
    }
}
