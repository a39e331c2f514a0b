package org.medjava.plugin.blur;

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

/** STRAIGHTFORWARD == OPTIMIZED == PARALLEL byte for byte on random images, regions and mask sizes. */
class BlurEquivalenceTest {
    private static final long SEED = 0x5EED_B1A2L;
    private static final int CASES = 800;

    @Test
    void allImplementationsAgreeOnRandomCases() {
        Filter filter = new BlurFilter();
        SplittableRandom rnd = new SplittableRandom(SEED);
        int changed = 0;
        for (int i = 0; i < CASES; i++) {
            int w = 1 + rnd.nextInt(70);
            int h = 1 + rnd.nextInt(50);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = TestRasters.randomRegion(rnd, w, h);
            int n = randomMask(rnd);
            FilterParams params = filter.descriptor().params(Map.of("n", Integer.toString(n)));
            String what = "seed " + SEED + " case " + i + ": " + w + "x" + h + " region " + region + " n=" + n;
            if (ImplementationEquivalence.check(filter, src, region, params, what)) {
                changed++;
            }
        }
        // the cases must exercise the filter, not mostly compare unchanged copies
        assertThat(changed).as("cases that changed the image").isGreaterThan(CASES / 2);
    }

    /** Bigger images, so that parallel bands really split, against the optimized port. */
    @Test
    void parallelBandsAgreeOnLargerImages() {
        Filter filter = new BlurFilter();
        SplittableRandom rnd = new SplittableRandom(SEED + 1);
        for (int i = 0; i < 12; i++) {
            int w = 100 + rnd.nextInt(300);
            int h = 100 + rnd.nextInt(300);
            Raster src = TestRasters.random(rnd, w, h);
            Region region = TestRasters.randomRegion(rnd, w, h);
            int n = 2 * rnd.nextInt(12) + 1;
            FilterParams params = filter.descriptor().params(Map.of("n", Integer.toString(n)));
            String what = "seed " + (SEED + 1) + " case " + i + ": " + w + "x" + h + " region " + region + " n=" + n;
            Raster expected = Filter.run(filter, src, region, params, Implementation.OPTIMIZED);
            Raster actual = Filter.run(filter, src, region, params, Implementation.PARALLEL);
            assertThat(actual.rgb()).as(what).isEqualTo(expected.rgb());
        }
    }

    private static int randomMask(SplittableRandom rnd) {
        switch (rnd.nextInt(10)) {
            case 0:
                return 2 * rnd.nextInt(128) + 1; // anything up to 255
            case 1:
                return 1;
            default:
                return 2 * rnd.nextInt(1, 6) + 1; // 3..11
        }
    }
}
