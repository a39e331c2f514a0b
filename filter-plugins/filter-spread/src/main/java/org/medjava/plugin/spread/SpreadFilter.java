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
                .parallelizable(false).text(SpreadFilter.class)
                .param(ParamSpec.extent(DISTANCE, "5", 0, 65535))
                .param(ParamSpec.integer(SEED, 1, 0, Xvr.MAX_SEED))
                .param(ParamSpec.bool(SEED_FROM_CLOCK, false)).build(), SpreadArgs::of)
                .rgb(SpreadStraightforward::apply, SpreadOptimized::apply, SpreadOptimized::apply)
                .gray16(SpreadStraightforward::apply, SpreadOptimized::apply, SpreadOptimized::apply));
    }
}
