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
                .text(SharpenFilter.class)
                .param(ParamSpec.integer("p", 75, 0, 99))
                .build(), params -> params.getInt("p"))
                .rgb(SharpenStraightforward::apply, SharpenOptimized::apply, SharpenOptimized::applyParallel)
                .gray16(SharpenGray16Straightforward::apply, SharpenGray16Optimized::apply));
    }
}
