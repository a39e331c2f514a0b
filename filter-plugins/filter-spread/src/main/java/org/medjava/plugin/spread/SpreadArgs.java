package org.medjava.plugin.spread;

import org.medjava.filter.Extent;
import org.medjava.filter.FilterParams;

/** What Spread's kernels take: the distance and the XVR seed, from the clock when {@code seed-from-clock} is on. */
record SpreadArgs(Extent distance, int seed) {

    static SpreadArgs of(FilterParams params) {
        return new SpreadArgs(params.getExtent(SpreadFilter.DISTANCE),
                params.getBoolean(SpreadFilter.SEED_FROM_CLOCK) ? clockSeed() : params.getInt(SpreadFilter.SEED));
    }

    /** xv's srandom(time in seconds), kept to 0..2^31−1 (Xvr turns 0 into 1). */
    static int clockSeed() {
        return (int) ((System.currentTimeMillis() / 1000) & Integer.MAX_VALUE);
    }
}
