package org.medjava.plugin.emboss;

import java.util.List;
import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's Emboss ("TinFoil", spec 2.5): a diagonal relief kernel on the interior around grey 128, then MONO of the
 * whole region; the frame ends up 128. {@code rounding=xv} (default) divides by 8 truncating toward zero (a dead
 * zone −7..+7); {@code rounding=floor} (non-xv) uses {@code floor(S / 8)}. On grey data
 * (docs/xv-filters-16bit.md 2.5) the mid-grey is the middle of the format's range: 2^(b−1) unsigned, 0 signed.
 * The kernels take whether rounding is floor.
 */
public final class EmbossFilter extends DeclaredFilter<Boolean> {
    public static final String ID = "emboss";

    public EmbossFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("Emboss").version("1").specSection("2.5")
                .text(EmbossFilter.class)
                .param(ParamSpec.choice("rounding", "xv", List.of("xv", "floor")))
                .build(), params -> params.getChoice("rounding").equals("floor"))
                .rgb(EmbossStraightforward::apply, EmbossOptimized::apply, EmbossOptimized::applyParallel)
                .gray16(EmbossGray16Straightforward::apply, EmbossGray16Optimized::apply));
    }
}
