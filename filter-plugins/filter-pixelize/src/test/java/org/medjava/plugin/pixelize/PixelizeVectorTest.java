package org.medjava.plugin.pixelize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.TestRasters;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API and scalar kernels of {@link PixelizeOptimized} against the straightforward port in one JVM (the
 * tests run with jdk.incubator.vector), and the reciprocal division of its fast path for every block size.
 */
class PixelizeVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        assertThat(VectorSupport.AVAILABLE).as("tests run with --add-modules jdk.incubator.vector").isTrue();
        SplittableRandom rnd = new SplittableRandom(4);
        for (int i = 0; i < 300; i++) {
            int w = 1 + rnd.nextInt(120);
            int h = 1 + rnd.nextInt(40);
            Raster src = TestRasters.random(rnd, w, h);
            Region random = TestRasters.randomRegion(rnd, w, h); // null: the whole image
            Region region = random == null ? src.bounds() : random.clip(w, h);
            if (region.isEmpty()) {
                continue;
            }
            int a = 1 + rnd.nextInt(i % 4 == 0 ? 60 : 9);
            int b = 1 + rnd.nextInt(i % 5 == 0 ? 40 : 9);
            Raster expected = src.copy();
            PixelizeStraightforward.apply(src, expected, region, a, b);
            for (boolean vector : new boolean[] {true, false}) {
                Raster actual = src.copy();
                PixelizeOptimized.apply(src, actual, region, a, b, false, vector);
                assertThat(actual.rgb()).as("case %d %dx%d %s %dx%d vector=%b", i, w, h, region, a, b, vector)
                        .isEqualTo(expected.rgb());
            }
        }
    }

    /**
     * Both sides are non-decreasing in x, so agreeing at both ends of every quotient's run {@code [q·d, q·d+d−1]}
     * means agreeing for every sum 0..255·d; every block size of the fast path (1..255²) is checked.
     */
    @Test
    void reciprocalDivisionIsExactForEveryBlockOfTheFastPath() {
        for (int d = 1; d <= PixelizeOptimized.MAX_FAST_COUNT; d++) {
            long m = PixelizeOptimized.reciprocal(d);
            for (int q = 0; q <= 255; q++) {
                int lo = q * d;
                int hi = q * d + d - 1;
                if (PixelizeOptimized.divide(lo, m) != q || (q < 255 && PixelizeOptimized.divide(hi, m) != q)) {
                    throw new AssertionError("d=" + d + " q=" + q);
                }
            }
        }
    }
}
