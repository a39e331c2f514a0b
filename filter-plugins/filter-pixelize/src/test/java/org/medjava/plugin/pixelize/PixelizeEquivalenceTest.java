package org.medjava.plugin.pixelize;

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

/** STRAIGHTFORWARD == OPTIMIZED == PARALLEL byte for byte on random images, regions and block sizes. */
class PixelizeEquivalenceTest {
    private static final long SEED = 0x91C5L;
    private static final int CASES = 800;

    @Test
    void allImplementationsAgreeOnRandomCases() {
        Filter filter = new PixelizeFilter();
        SplittableRandom rnd = new SplittableRandom(SEED);
        int changed = 0;
        for (int i = 0; i < CASES; i++) {
            int w = 1 + rnd.nextInt(70);
            int h = 1 + rnd.nextInt(50);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = TestRasters.randomRegion(rnd, w, h);
            String block = randomBlock(rnd);
            FilterParams params = filter.descriptor().params(Map.of("block", block));
            String what = "seed " + SEED + " case " + i + ": " + w + "x" + h + " region " + region + " block=" + block;
            if (ImplementationEquivalence.check(filter, src, region, params, what)) {
                changed++;
            }
        }
        // the cases must exercise the filter, not mostly compare unchanged copies
        assertThat(changed).as("cases that changed the image").isGreaterThan(CASES / 2);
    }

    /** Bigger images, so that parallel bands really split. */
    @Test
    void parallelBandsAgreeOnLargerImages() {
        Filter filter = new PixelizeFilter();
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        for (int i = 0; i < 20; i++) {
            int w = 100 + rnd.nextInt(400);
            int h = 100 + rnd.nextInt(400);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = TestRasters.randomRegion(rnd, w, h);
            String block = randomBlock(rnd);
            FilterParams params = filter.descriptor().params(Map.of("block", block));
            String what = "seed " + (SEED + 1) + " case " + i + ": " + w + "x" + h + " region " + region
                    + " block=" + block;
            Raster expected = Filter.run(filter, src, region, params, Implementation.STRAIGHTFORWARD);
            Raster actual = Filter.run(filter, src, region, params, Implementation.PARALLEL);
            assertThat(actual.rgb()).as(what).isEqualTo(expected.rgb());
        }
    }

    private static String randomBlock(SplittableRandom rnd) {
        switch (rnd.nextInt(8)) {
            case 0:
                return Integer.toString(1 + rnd.nextInt(100));
            case 1:
                return (1 + rnd.nextInt(80)) + "x" + (1 + rnd.nextInt(60));
            case 2:
                return rnd.nextBoolean() ? "65535" : "1x65535";
            case 3:
            case 4:
                return (1 + rnd.nextInt(8)) + (rnd.nextBoolean() ? "x" : "X") + (1 + rnd.nextInt(8));
            default:
                return Integer.toString(1 + rnd.nextInt(8));
        }
    }
}
