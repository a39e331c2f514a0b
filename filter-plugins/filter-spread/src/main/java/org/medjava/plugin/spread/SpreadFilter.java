package org.medjava.plugin.spread;

import org.medjava.filter.Extent;
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
 * xv's Spread (spec 2.8): in raster order, every region pixel swaps with a random pixel of its clipped diamond
 * ({@code "d"}) or box ({@code "AxB"}), drawn from the XVR generator. Sequential by nature: PARALLEL runs the
 * optimized port on the calling thread. On grey data (docs/xv-filters-16bit.md 2.8) the same swaps of whole values.
 */
public final class SpreadFilter implements Filter {
    /** Filter id, the same in Java, C, REST and the benchmarks. */
    public static final String ID = "spread";
    public static final String DISTANCE = "distance";
    public static final String SEED = "seed";
    public static final String SEED_FROM_CLOCK = "seed-from-clock";

    private static final FilterDescriptor DESCRIPTOR = FilterDescriptor.builder(ID)
            .displayName("Spread")
            .version("1")
            .specSection("2.8")
            .description("Random pixel swaps: in raster order each region pixel swaps with a random pixel of its "
                    + "diamond |dx|+|dy| <= N or box ±A, ±B, clipped to the region; the histogram is preserved "
                    + "(xv's Spread, with the seeded XVR generator).")
            .parallelizable(false)
            .help("Scatters pixels randomly within a short distance, like frosted glass: the same values stay "
                    + "in the image (the histogram is unchanged) but their positions are shuffled.")
            .param(ParamSpec.extent(DISTANCE, "5", 0, 65535,
                    "N: diamond mode, radius N; AxB: box mode, ±A horizontally and ±B vertically; 0 or 0x0 does nothing")
                    .withHelp("Distance", "How far, in pixels, each pixel may move: one number for the same "
                            + "distance in every direction (\"5\"), or across x down (\"8x2\") for a box, each 0 to "
                            + "65535. Higher scatters more; 0 leaves the image unchanged."))
            .param(ParamSpec.integer(SEED, 1, 0, Xvr.MAX_SEED, "XVR seed; 0 is treated as 1")
                    .withHelp("Random pattern", "A number that picks the random pattern (0 to " + Xvr.MAX_SEED
                            + "). The same number on the same image always gives the same result; change it for a "
                            + "different scatter of the same strength."))
            .param(ParamSpec.bool(SEED_FROM_CLOCK, false,
                    "xv-like: seed from the clock in seconds (output not reproducible)")
                    .withHelp("New pattern each time", "On: a different random pattern every time, from the "
                            + "clock, as xv did (the result cannot be reproduced). Off (default): the pattern "
                            + "number above is used."))
            .build();

    @FunctionalInterface
    interface Kernel {
        void apply(Raster dst, Region region, Extent distance, int seed);
    }

    @FunctionalInterface
    interface GrayKernel {
        void apply(GrayRaster16 dst, Region region, Extent distance, int seed);
    }

    /** Sequential: each swap depends on the ones before it, so PARALLEL runs the optimized port. */
    private static final Implementations<Kernel> RGB = Implementations.of(SpreadStraightforward::apply,
            SpreadOptimized::apply, SpreadOptimized::apply);

    private static final Implementations<GrayKernel> GRAY = Implementations.of(SpreadStraightforward::apply,
            SpreadOptimized::apply, SpreadOptimized::apply);

    @Override
    public FilterDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        RGB.get(implementation).apply(dst, region, params.getExtent(DISTANCE), seed(params));
    }

    @Override
    public boolean supportsGray16() {
        return true;
    }

    @Override
    public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                            Implementation implementation) {
        Filter.requireContract(this, src, dst, region, params);
        GRAY.get(implementation).apply(dst, region, params.getExtent(DISTANCE), seed(params));
    }

    private static int seed(FilterParams params) {
        return params.getBoolean(SEED_FROM_CLOCK) ? clockSeed() : params.getInt(SEED);
    }

    /** xv's srandom(time in seconds), kept to 0..2^31−1 (Xvr turns 0 into 1). */
    static int clockSeed() {
        return (int) ((System.currentTimeMillis() / 1000) & Integer.MAX_VALUE);
    }
}
