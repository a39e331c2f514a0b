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
                .specSection("2.6").text(OilPaintFilter.class)
                .param(ParamSpec.integer("n", 3, 1, 31))
                .param(ParamSpec.choice("window", "xv", List.of("xv", "centred")))
                .build(), params -> Window.of(params.getInt("n"), params.getChoice("window").equals("centred")))
                .rgb(OilPaintStraightforward::apply, OilPaintOptimized::apply, OilPaintOptimized::applyParallel)
                .gray16(OilPaintGray16Straightforward::apply, OilPaintGray16Optimized::apply));
    }
}
