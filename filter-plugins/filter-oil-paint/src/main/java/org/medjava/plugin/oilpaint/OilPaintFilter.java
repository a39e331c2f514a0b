package org.medjava.plugin.oilpaint;

import java.util.List;
import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's Oil Painting (spec 2.6): every region pixel becomes the most frequent colour of its {@link Window} (clipped
 * to the region), ties going to the colour that occurs first in row-major window order. {@code window=xv} (default)
 * keeps xv's adjustment (an odd n becomes n+1, window {@code [x−h, x+h−1]²}, h = n' div 2: 4×4 at offsets
 * −2..+1 for the default n = 3); {@code window=centred} (non-xv) uses {@code [x−h, x+h]²} with h = n div 2. On
 * grey data (docs/xv-filters-16bit.md 2.6) the most frequent grey value, with the same windows and tie rule.
 */
public final class OilPaintFilter extends DeclaredFilter<Window> {
    public static final String ID = "oil-paint";

    public OilPaintFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("Oil Painting").version("1")
                .specSection("2.6")
                .description("Most frequent colour of the window around each pixel, copied verbatim; ties go to the "
                        + "colour occurring first in row-major order. With all colours distinct this is a translation "
                        + "by (+2,+2) for xv's default window.")
                .help("Flattens the image into patches of uniform colour, like brush strokes: each pixel takes the "
                        + "most common value of its neighbourhood. Noise and texture disappear; the image shifts "
                        + "slightly towards the lower right with xv's window.")
                .param(ParamSpec.integer("n", 3, 1, 31, "mask size, with xv's adjustment: an odd n becomes n+1, "
                                + "window [x-h, x+h-1] x [y-h, y+h-1], h = n' div 2")
                        .withHelp("Brush size", "Width of the neighbourhood whose most common value each pixel "
                                + "takes, in pixels (1 to 31; xv rounds odd sizes up to the next even one). Higher "
                                + "gives larger, flatter patches and loses more detail."))
                .param(ParamSpec.choice("window", "xv", List.of("xv", "centred"),
                        "xv: xv's uncentred even window; centred: h = n div 2, window [x-h, x+h] x [y-h, y+h], "
                                + "no adjustment of n (non-xv)")
                        .withHelp("Window position", "xv (default): the neighbourhood is not centred, so the "
                                + "image shifts by about two pixels to the lower right, as in xv. centred: the "
                                + "neighbourhood is centred on each pixel and nothing shifts."))
                .build(), params -> Window.of(params.getInt("n"), params.getChoice("window").equals("centred")))
                .rgb(OilPaintStraightforward::apply, OilPaintOptimized::apply, OilPaintOptimized::applyParallel)
                .gray16(OilPaintGray16Straightforward::apply, OilPaintGray16Optimized::apply));
    }
}
