package org.medjava.plugin.oilpaint;

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
class OilPaintEquivalenceTest {
    private static final long SEED = 0x011_2024L;
    private static final int CASES = 2000;

    private static void check(Filter filter, String what, Raster src, Region region, FilterParams params) {
        ImplementationEquivalence.check(filter, src, region, params, what);
    }

    @Test
    void allImplementationsAgree() {
        Filter filter = new OilPaintFilter();
        Random rnd = new Random(SEED);
        for (int c = 0; c < CASES; c++) {
            int n = rnd.nextInt(3) > 0 ? 1 + rnd.nextInt(8) : 1 + rnd.nextInt(31);
            // the straightforward port is O(n^4) per pixel: keep large windows on small images
            int max = n > 8 ? 24 : 70;
            int w = TestRasters.randomSize(rnd, max);
            int h = TestRasters.randomSize(rnd, Math.min(max, 50));
            Raster src = TestRasters.random(rnd, w, h);
            Region region = TestRasters.randomRegion(rnd, w, h);
            String window = rnd.nextInt(3) == 0 ? "centred" : "xv";
            FilterParams params = filter.descriptor().params(Map.of("n", Integer.toString(n), "window", window));
            check(filter, "seed " + SEED + " case " + c + ": " + w + "x" + h + " region " + region + " " + params,
                    src, region, params);
        }
    }

    @Test
    void largerImagesSplitIntoBandsAgree() {
        Filter filter = new OilPaintFilter();
        Random rnd = new Random(SEED + 1);
        for (int c = 0; c < 8; c++) {
            int w = 50 + rnd.nextInt(150);
            int h = 40 + rnd.nextInt(150);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = rnd.nextBoolean() ? null : TestRasters.randomRegion(rnd, w, h);
            int n = 1 + rnd.nextInt(8);
            String window = rnd.nextBoolean() ? "centred" : "xv";
            FilterParams params = filter.descriptor().params(Map.of("n", Integer.toString(n), "window", window));
            check(filter, "seed " + (SEED + 1) + " case " + c + ": " + w + "x" + h + " region " + region + " "
                    + params, src, region, params);
        }
    }
}
