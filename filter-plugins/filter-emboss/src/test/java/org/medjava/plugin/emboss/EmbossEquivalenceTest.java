package org.medjava.plugin.emboss;

import org.medjava.filter.testkit.ImplementationEquivalence;
import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** STRAIGHTFORWARD == OPTIMIZED == PARALLEL, byte for byte, on random images, regions and parameters. */
class EmbossEquivalenceTest {
    private static final long SEED = 0xE3B0_2024L;
    private static final int CASES = 1500;

    @Test
    void allImplementationsAgree() {
        Filter filter = new EmbossFilter();
        Random rnd = new Random(SEED);
        for (int c = 0; c < CASES; c++) {
            int w = TestRasters.randomSize(rnd, 70);
            int h = TestRasters.randomSize(rnd, 50);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = TestRasters.randomRegion(rnd, w, h);
            FilterParams params = filter.descriptor().params(Map.of("rounding", rnd.nextInt(3) == 0 ? "floor" : "xv"));
            String what = "seed " + SEED + " case " + c + ": " + w + "x" + h + " region " + region + " " + params;
            ImplementationEquivalence.check(filter, src, region, params, what);
        }
    }

    @Test
    void largerImagesSplitIntoBandsAgree() {
        Filter filter = new EmbossFilter();
        Random rnd = new Random(SEED + 1);
        for (int c = 0; c < 6; c++) {
            int w = 50 + rnd.nextInt(200);
            int h = 40 + rnd.nextInt(200);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = rnd.nextBoolean() ? null : TestRasters.randomRegion(rnd, w, h);
            FilterParams params = filter.descriptor().params(Map.of("rounding", rnd.nextBoolean() ? "floor" : "xv"));
            String what = "seed " + (SEED + 1) + " case " + c + ": " + w + "x" + h + " region " + region + " " + params;
            ImplementationEquivalence.check(filter, src, region, params, what);
        }
    }
}
