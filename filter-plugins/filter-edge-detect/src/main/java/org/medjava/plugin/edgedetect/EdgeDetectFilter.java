package org.medjava.plugin.edgedetect;

import java.util.List;
import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's Edge Detect (spec 2.4): per-channel Prewitt magnitude (max-norm, div 3) on the interior, then a contrast
 * stretch by the largest luminance of the region. With {@code frame=xv} (default) the 1-pixel frame keeps its
 * input and takes part in the maximum, as in xv; {@code frame=black} (non-xv) sets the frame to 0 first. On grey
 * data (docs/xv-filters-16bit.md 2.4) edges are offset values (no edge = min) stretched by {@code R / maxv}.
 * The kernels take whether the frame is black.
 */
public final class EdgeDetectFilter extends DeclaredFilter<Boolean> {
    public static final String ID = "edge-detect";

    public EdgeDetectFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("Edge Detect").version("1")
                .specSection("2.4")
                .description("Per-channel Prewitt edge magnitude max(|Gx|,|Gy|)/3 on the interior of the region, "
                        + "then every channel is stretched by 255/maxv, maxv being the largest MONO luminance of the "
                        + "region.")
                .help("Shows only the outlines: bright where brightness changes quickly (organ borders, bone "
                        + "cortex), dark in even areas, stretched so the strongest edge is full white.")
                .param(ParamSpec.choice("frame", "xv", List.of("xv", "black"),
                        "xv: the 1-pixel frame keeps the input and takes part in the maximum (xv's quirk); "
                                + "black: the frame is set to 0 before the maximum and the rescale (non-xv)")
                        .withHelp("Border pixels", "What happens to the outermost pixel ring of the region, which "
                                + "has no full neighbourhood. xv (default): it keeps the original image, so a bright "
                                + "border can dim the edges inside. black: it becomes black and only real edges set "
                                + "the brightness."))
                .build(), params -> params.getChoice("frame").equals("black"))
                .rgb(EdgeDetectStraightforward::apply, EdgeDetectOptimized::apply, EdgeDetectOptimized::applyParallel)
                .gray16(EdgeDetectGray16Straightforward::apply, EdgeDetectGray16Optimized::apply));
    }
}
