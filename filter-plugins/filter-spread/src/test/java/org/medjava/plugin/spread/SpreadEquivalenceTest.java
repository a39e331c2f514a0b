package org.medjava.plugin.spread;

import org.medjava.filter.testkit.ImplementationEquivalence;
import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** STRAIGHTFORWARD == OPTIMIZED == PARALLEL byte for byte on random images, regions, distances and seeds. */
class SpreadEquivalenceTest {
    private static final long SEED = 0x5B7EADL;
    private static final int CASES = 1000;

    @Test
    void allImplementationsAgreeOnRandomCases() {
        Filter filter = new SpreadFilter();
        SplittableRandom rnd = new SplittableRandom(SEED);
        int changed = 0;
        for (int i = 0; i < CASES; i++) {
            int w = 1 + rnd.nextInt(70);
            int h = 1 + rnd.nextInt(50);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = TestRasters.randomRegion(rnd, w, h);
            String distance = randomDistance(rnd);
            int seed = rnd.nextInt(4) == 0 ? rnd.nextInt(3) : rnd.nextInt(Integer.MAX_VALUE);
            FilterParams params = filter.descriptor().params(
                    Map.of("distance", distance, "seed", Integer.toString(seed)));
            String what = "seed " + SEED + " case " + i + ": " + w + "x" + h + " region " + region + " " + params;
            if (ImplementationEquivalence.check(filter, src, region, params, what)) {
                changed++;
            }
        }
        // the cases must exercise the filter, not mostly compare unchanged copies
        assertThat(changed).as("cases that changed the image").isGreaterThan(CASES / 2);
    }

    @Test
    void largerImagesAgree() {
        Filter filter = new SpreadFilter();
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        for (int i = 0; i < 20; i++) {
            int w = 100 + rnd.nextInt(400);
            int h = 100 + rnd.nextInt(400);
            Raster src = TestRasters.noise(w, h, rnd.nextLong());
            Region region = TestRasters.randomRegion(rnd, w, h);
            String distance = randomDistance(rnd);
            FilterParams params = filter.descriptor().params(
                    Map.of("distance", distance, "seed", Integer.toString(rnd.nextInt(Integer.MAX_VALUE))));
            String what = "seed " + (SEED + 1) + " case " + i + ": " + w + "x" + h + " region " + region + " "
                    + params;
            Raster expected = Filter.run(filter, src, region, params, Implementation.STRAIGHTFORWARD);
            Raster actual = Filter.run(filter, src, region, params, Implementation.OPTIMIZED);
            assertThat(actual.rgb()).as(what).isEqualTo(expected.rgb());
        }
    }

    private static String randomDistance(SplittableRandom rnd) {
        switch (rnd.nextInt(10)) {
            case 0:
                return rnd.nextBoolean() ? "0" : "0x0";
            case 1:
                return Integer.toString(rnd.nextInt(65536));
            case 2:
                return rnd.nextInt(65536) + "x" + rnd.nextInt(65536);
            case 3:
            case 4:
                return rnd.nextInt(12) + (rnd.nextBoolean() ? "x" : "X") + rnd.nextInt(12);
            default:
                return Integer.toString(rnd.nextInt(1, 20));
        }
    }
}
