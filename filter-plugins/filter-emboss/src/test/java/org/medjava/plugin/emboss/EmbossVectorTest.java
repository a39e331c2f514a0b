package org.medjava.plugin.emboss;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.TestRasters;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API and the scalar kernels of {@link EmbossOptimized} against the straightforward port in one JVM
 * (the tests run with jdk.incubator.vector), on widths around the vector length, noise and few-valued images, both
 * roundings.
 */
class EmbossVectorTest {

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
            boolean floor = i % 2 == 1;
            Raster expected = src.copy();
            EmbossStraightforward.apply(src, expected, region, floor);
            for (boolean vector : new boolean[] {true, false}) {
                Raster actual = src.copy();
                EmbossOptimized.rows(src, actual, region, floor, region.y(), region.endY(), vector);
                assertThat(actual.rgb()).as("case %d %dx%d %s floor=%b vector=%b", i, w, h, region, floor, vector)
                        .isEqualTo(expected.rgb());
            }
        }
    }
}
