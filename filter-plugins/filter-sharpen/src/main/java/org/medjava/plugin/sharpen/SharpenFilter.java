package org.medjava.plugin.sharpen;

import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's Sharpen (spec 2.2): an unsharp mask on the HSV value of the 1-pixel-inset interior; hue and saturation of
 * the centre pixel are kept. Binary64 in the spec's exact operation order, so Java and C agree byte for byte. On
 * grey data (docs/xv-filters-16bit.md 2.2) the value is {@code u / R} and the result is clamped to the format's range.
 */
public final class SharpenFilter extends DeclaredFilter<Integer> {
    public static final String ID = "sharpen";

    public SharpenFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("Sharpen").version("1").specSection("2.2")
                .description("Sharpens brightness: v' = (V - p/100 * mean3x3(V)) / (1 - p/100) on the HSV value of "
                        + "interior pixels, keeping hue and saturation; the 1-pixel frame of the region is unchanged "
                        + "and regions narrower or shorter than 3 pixels are left alone.")
                .help("Lifts edges and fine detail by subtracting a blurred copy (unsharp masking). Colours keep "
                        + "their hue; the outermost pixel ring of the region is left as it was.")
                .param(ParamSpec.integer("p", 75, 0, 99, "enhancement factor in percent")
                        .withHelp("Strength (%)", "How strongly edges are lifted, in percent (0 to 99). Higher is "
                                + "stronger and also amplifies noise; 0 leaves the image unchanged; above about 90 "
                                + "noise dominates."))
                .build(), params -> params.getInt("p"))
                .rgb(SharpenStraightforward::apply, SharpenOptimized::apply, SharpenOptimized::applyParallel)
                .gray16(SharpenGray16Straightforward::apply, SharpenGray16Optimized::apply));
    }
}
