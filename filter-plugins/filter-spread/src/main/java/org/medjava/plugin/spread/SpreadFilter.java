package org.medjava.plugin.spread;

import org.medjava.filter.DeclaredFilter;
import org.medjava.filter.FilterDeclaration;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.ParamSpec;

/**
 * xv's Spread (spec 2.8): in raster order, every region pixel swaps with a random pixel of its clipped diamond
 * ({@code "d"}) or box ({@code "AxB"}), drawn from the XVR generator. Sequential by nature (each swap depends on
 * the ones before it): PARALLEL runs the optimized port on the calling thread. On grey data
 * (docs/xv-filters-16bit.md 2.8) the same swaps of whole values. Works in place on {@code dst}.
 */
public final class SpreadFilter extends DeclaredFilter<SpreadArgs> {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "spread";
    public static final String DISTANCE = "distance";
    public static final String SEED = "seed";
    public static final String SEED_FROM_CLOCK = "seed-from-clock";

    public SpreadFilter() {
        super(FilterDeclaration.of(FilterDescriptor.builder(ID).displayName("Spread").version("1").specSection("2.8")
                .description("Random pixel swaps: in raster order each region pixel swaps with a random pixel of its "
                        + "diamond |dx|+|dy| <= N or box ±A, ±B, clipped to the region; the histogram is preserved "
                        + "(xv's Spread, with the seeded XVR generator).")
                .parallelizable(false)
                .help("Scatters pixels randomly within a short distance, like frosted glass: the same values stay "
                        + "in the image (the histogram is unchanged) but their positions are shuffled.")
                .param(ParamSpec.extent(DISTANCE, "5", 0, 65535, "N: diamond mode, radius N; AxB: box mode, ±A "
                                + "horizontally and ±B vertically; 0 or 0x0 does nothing")
                        .withHelp("Distance", "How far, in pixels, each pixel may move: one number for the same "
                                + "distance in every direction (\"5\"), or across x down (\"8x2\") for a box, each 0 "
                                + "to 65535. Higher scatters more; 0 leaves the image unchanged."))
                .param(ParamSpec.integer(SEED, 1, 0, Xvr.MAX_SEED, "XVR seed; 0 is treated as 1")
                        .withHelp("Random pattern", "A number that picks the random pattern (0 to " + Xvr.MAX_SEED
                                + "). The same number on the same image always gives the same result; change it for "
                                + "a different scatter of the same strength."))
                .param(ParamSpec.bool(SEED_FROM_CLOCK, false,
                        "xv-like: seed from the clock in seconds (output not reproducible)")
                        .withHelp("New pattern each time", "On: a different random pattern every time, from the "
                                + "clock, as xv did (the result cannot be reproduced). Off (default): the pattern "
                                + "number above is used."))
                .build(), SpreadArgs::of)
                .rgb((s, d, r, a) -> SpreadStraightforward.apply(d, r, a.distance(), a.seed()),
                        (s, d, r, a) -> SpreadOptimized.apply(d, r, a.distance(), a.seed()),
                        (s, d, r, a) -> SpreadOptimized.apply(d, r, a.distance(), a.seed()))
                .gray16((s, d, r, a) -> SpreadStraightforward.apply(d, r, a.distance(), a.seed()),
                        (s, d, r, a) -> SpreadOptimized.apply(d, r, a.distance(), a.seed()),
                        (s, d, r, a) -> SpreadOptimized.apply(d, r, a.distance(), a.seed())));
    }
}
