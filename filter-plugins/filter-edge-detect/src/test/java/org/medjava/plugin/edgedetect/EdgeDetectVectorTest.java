package org.medjava.plugin.edgedetect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.TestRasters;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API and the scalar kernels of {@link EdgeDetectOptimized} against the straightforward port in one JVM
 * (the tests run with jdk.incubator.vector), on widths around the vector length, noise and few-valued images (so
 * that the rescale of step 3 runs with many maxima), both frame modes.
 */
class EdgeDetectVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        assertThat(VectorSupport.AVAILABLE).as("tests run with --add-modules jdk.incubator.vector").isTrue();
        SplittableRandom rnd = new SplittableRandom(91);
        for (int i = 0; i < 300; i++) {
            int w = 1 + rnd.nextInt(110);
            int h = 1 + rnd.nextInt(30);
            Raster src = TestRasters.random(rnd, w, h);
            if (i % 3 == 0) {
                byte[] rgb = src.rgb();
                for (int k = 0; k < rgb.length; k++) {
                    rgb[k] = (byte) (rnd.nextInt(4) * 85 - (rnd.nextBoolean() ? 0 : 1)); // 0,84,85,169,170,254,255…
                }
            }
            Region random = TestRasters.randomRegion(rnd, w, h); // null: the whole image
            Region region = random == null ? src.bounds() : random.clip(w, h);
            if (region.isEmpty()) {
                continue;
            }
            boolean black = i % 2 == 1;
            Raster expected = src.copy();
            EdgeDetectStraightforward.apply(src, expected, region, black);
            for (boolean vector : new boolean[] {true, false}) {
                Raster actual = src.copy();
                EdgeDetectOptimized.apply(src, actual, region, black, vector);
                assertThat(actual.rgb()).as("case %d %dx%d %s black=%b vector=%b", i, w, h, region, black, vector)
                        .isEqualTo(expected.rgb());
            }
        }
    }

    @Test
    void theRescaleIsExactForEveryValueAndMaximum() {
        for (int maxv = 1; maxv < 255; maxv++) {
            byte[] row = new byte[256 + 37];
            for (int v = 0; v < row.length; v++) {
                row[v] = (byte) v;
            }
            EdgeDetectVector.stretch(row, 0, row.length, maxv);
            for (int v = 0; v < row.length; v++) {
                assertThat(row[v] & 0xFF).as("v=%d maxv=%d", v & 0xFF, maxv)
                        .isEqualTo(Math.min(255, (v & 0xFF) * 255 / maxv));
            }
        }
    }
}
