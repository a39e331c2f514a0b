package org.medjava.plugin.emboss;

import java.util.List;
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
 * xv's Emboss ("TinFoil", spec 2.5): a diagonal relief kernel on the interior around grey 128, then MONO of the
 * whole region; the frame ends up 128. {@code rounding=xv} (default) divides by 8 truncating toward zero (a dead
 * zone −7..+7); {@code rounding=floor} (non-xv) uses {@code floor(S / 8)}. On grey data
 * (docs/xv-filters-16bit.md 2.5) the mid-grey is the middle of the format's range: 2^(b−1) unsigned, 0 signed.
 */
public final class EmbossFilter implements Filter {
    public static final String ID = "emboss";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Emboss")
            .version("1")
            .specSection("2.5")
            .description("Grey relief: each interior channel becomes 128 + S/8 with the kernel "
                    + "[-2 -1 0; -1 0 +1; 0 +1 +2], the frame becomes 128, and every region pixel becomes the MONO "
                    + "luminance of its channels.")
            .help("Turns the image into a grey relief, as if lit from the upper left: edges stand out as raised "
                    + "or sunken ridges, even areas become mid-grey. Colour is dropped.")
            .param(ParamSpec.choice("rounding", "xv", List.of("xv", "floor"),
                    "xv: S / 8 truncated toward zero (dead zone -7..+7); floor: floor(S / 8), bins of equal width "
                            + "(non-xv)")
                    .withHelp("Faint edges", "How the faintest brightness steps are shown. xv (default): very "
                            + "small steps are flattened to mid-grey, so the relief looks calmer. floor: every step, "
                            + "however small, shows as relief (more detail, more visible noise)."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster src, Raster dst, Region region, boolean floorRounding);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 src, GrayRaster16 dst, Region region, boolean floorRounding);
    }

    private static final Implementations<Kernel> RGB = Implementations.of(EmbossStraightforward::apply,
            EmbossOptimized::apply, EmbossOptimized::applyParallel);

    private static final Implementations<GrayKernel> GRAY = Implementations.of(EmbossGray16Straightforward::apply,
            (src, dst, region, floor) -> EmbossGray16Optimized.apply(src, dst, region, floor, false),
            (src, dst, region, floor) -> EmbossGray16Optimized.apply(src, dst, region, floor, true));

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        RGB.get(implementation).apply(src, dst, region, params.getChoice("rounding").equals("floor"));
    }

    @Override
    public boolean supportsGray16() {
        return true;
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        GRAY.get(implementation).apply(src, dst, region, params.getChoice("rounding").equals("floor"));
    }
}
