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
                .specSection("2.4").text(EdgeDetectFilter.class)
                .param(ParamSpec.choice("frame", "xv", List.of("xv", "black")))
                .build(), params -> params.getChoice("frame").equals("black"))
                .rgb(EdgeDetectStraightforward::apply, EdgeDetectOptimized::apply, EdgeDetectOptimized::applyParallel)
                .gray16(EdgeDetectGray16Straightforward::apply, EdgeDetectGray16Optimized::apply));
    }
}
