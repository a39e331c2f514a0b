package org.medjava.plugin.despeckle;

import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's DeSpeckle (spec 2.3): a per-channel median over the n×n window centred on the pixel, clipped to the
 * region; an even count gives the floor of the mean of the two middle values. On grey data
 * (docs/xv-filters-16bit.md 2.3) the same on offset values.
 */
public final class DespeckleFilter extends DeclaredFilter<Integer> {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "despeckle";
    /** Name of the mask-size parameter. */
    public static final String N = "n";

    public DespeckleFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("DeSpeckle").version("1").specSection("2.3")
                .description("Median filter: each channel independently becomes the median of the n×n window "
                        + "centred on the pixel, clipped to the region; an even count gives floor((a[k-1] + a[k]) / 2) "
                        + "(xv's DeSpeckle).")
                .help("Removes isolated bright or dark specks (salt-and-pepper noise) with a median: each pixel "
                        + "takes the middle value of its neighbourhood, so edges stay sharper than with Blur.")
                .param(ParamSpec.oddInteger(N, 3, 1, 255, "mask size")
                        .withHelp("Neighbourhood size", "Width of the square whose middle value each pixel takes, in "
                                + "pixels (odd, 1 to 255). Higher removes larger specks but also erases small "
                                + "structures such as thin vessels or calcifications; 1 leaves the image unchanged."))
                .build(), params -> params.getInt(N))
                .rgb(DespeckleStraightforward::apply, DespeckleOptimized::apply)
                .gray16(DespeckleGray16Straightforward::apply, DespeckleGray16Optimized::apply));
    }
}
