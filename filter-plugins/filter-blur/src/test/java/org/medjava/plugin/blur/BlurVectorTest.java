package org.medjava.plugin.blur;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.TestRasters;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API kernels and the scalar kernels of {@link BlurOptimized} against the straightforward port, in one
 * JVM (the tests run with jdk.incubator.vector, so the default path is the vector one), on widths around the
 * vector length, and the 32-bit reciprocals the vector interior relies on.
 */
class BlurVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        assertThat(VectorSupport.AVAILABLE).as("tests run with --add-modules jdk.incubator.vector").isTrue();
        SplittableRandom rnd = new SplittableRandom(77);
        for (int i = 0; i < 300; i++) {
            int w = 1 + rnd.nextInt(90);
            int h = 1 + rnd.nextInt(40);
            Raster src = TestRasters.random(rnd, w, h);
            Region random = TestRasters.randomRegion(rnd, w, h); // null: the whole image
            Region region = random == null ? src.bounds() : random.clip(w, h);
            if (region.isEmpty()) {
                continue;
            }
            int n = 2 * rnd.nextInt(7) + 1;
            Raster expected = src.copy();
            BlurStraightforward.apply(src, expected, region, n);
            for (boolean vector : new boolean[] {true, false}) {
                Raster actual = src.copy();
                BlurOptimized.apply(src, actual, region, n, false, vector);
                assertThat(actual.rgb()).as("case %d %dx%d %s n=%d vector=%b", i, w, h, region, n, vector)
                        .isEqualTo(expected.rgb());
            }
        }
    }

    @Test
    void reciprocalsAreExactForEveryCountTheVectorKernelMeets() {
        int n = BlurOptimized.MAX_VECTOR_N;
        for (int rows = 1; rows <= n; rows++) {
            int d = rows * n;
            IntDivision div = IntDivision.of(d, 255L * d);
            assertThat(div).as("d=%d", d).isNotNull();
            for (int x = 0; x <= 255 * d; x++) {
                if (div.divide(x) != x / d) {
                    throw new AssertionError("d=" + d + " x=" + x);
                }
            }
        }
        for (int small = 1; small < n; small += 2) {
            for (int rows = 1; rows <= small; rows++) {
                int d = rows * small;
                IntDivision div = IntDivision.of(d, 255L * d);
                for (int x = 0; x <= 255 * d; x++) {
                    assertThat(div.divide(x)).isEqualTo(x / d);
                }
            }
        }
    }
}
