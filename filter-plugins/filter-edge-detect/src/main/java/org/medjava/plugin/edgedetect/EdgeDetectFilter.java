package org.medjava.plugin.edgedetect;

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
 * xv's Edge Detect (spec 2.4): per-channel Prewitt magnitude (max-norm, div 3) on the interior, then a contrast
 * stretch by the largest luminance of the region. With {@code frame=xv} (default) the 1-pixel frame keeps its
 * input and takes part in the maximum, as in xv; {@code frame=black} (non-xv) sets the frame to 0 first. On grey
 * data (docs/xv-filters-16bit.md 2.4) edges are offset values (no edge = min) stretched by {@code R / maxv}.
 */
public final class EdgeDetectFilter implements Filter {
    public static final String ID = "edge-detect";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Edge Detect")
            .version("1")
            .specSection("2.4")
            .description("Per-channel Prewitt edge magnitude max(|Gx|,|Gy|)/3 on the interior of the region, then "
                    + "every channel is stretched by 255/maxv, maxv being the largest MONO luminance of the region.")
            .help("Shows only the outlines: bright where brightness changes quickly (organ borders, bone "
                    + "cortex), dark in even areas, stretched so the strongest edge is full white.")
            .param(ParamSpec.choice("frame", "xv", List.of("xv", "black"),
                    "xv: the 1-pixel frame keeps the input and takes part in the maximum (xv's quirk); "
                            + "black: the frame is set to 0 before the maximum and the rescale (non-xv)")
                    .withHelp("Border pixels", "What happens to the outermost pixel ring of the region, which has "
                            + "no full neighbourhood. xv (default): it keeps the original image, so a bright "
                            + "border can dim the edges inside. black: it becomes black and only real edges set "
                            + "the brightness."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster src, Raster dst, Region region, boolean blackFrame);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 src, GrayRaster16 dst, Region region, boolean blackFrame);
    }

    private static final Implementations<Kernel> RGB = Implementations.of(EdgeDetectStraightforward::apply,
            EdgeDetectOptimized::apply, EdgeDetectOptimized::applyParallel);

    private static final Implementations<GrayKernel> GRAY = Implementations.of(
            EdgeDetectGray16Straightforward::apply,
            (src, dst, region, black) -> EdgeDetectGray16Optimized.apply(src, dst, region, black, false),
            (src, dst, region, black) -> EdgeDetectGray16Optimized.apply(src, dst, region, black, true));

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        RGB.get(implementation).apply(src, dst, region, params.getChoice("frame").equals("black"));
    }

    @Override
    public boolean supportsGray16() {
        return true;
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        GRAY.get(implementation).apply(src, dst, region, params.getChoice("frame").equals("black"));
    }
}
