package org.medjava.plugin.sharpen;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.TestRasters;
import org.medjava.filter.testkit.VectorKernelCases;

/**
 * The Vector API kernel and the scalar kernel of {@link SharpenOptimized} against the straightforward port, in one
 * JVM (the tests run with jdk.incubator.vector), byte for byte: seeded noise, smooth, flat, posterized and palette
 * images (TestRasters' kinds), odd widths around the vector length, random regions, and every pixel colour that
 * steers a blend (grey, black, each channel the maximum, ties, hues next to 0/360 and each sector border).
 */
class SharpenVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        VectorKernelCases.of(2024, 600, 70, 30).forEach(c -> {
            int p = c.rnd().nextInt(4) == 0 ? new int[] {0, 1, 50, 75, 99}[c.rnd().nextInt(5)] : c.rnd().nextInt(100);
            check(c.description() + " p=" + p, c.src(), c.region(), p);
        });
    }

    /** Every colour whose channels come from a small set of levels, so ties and sector borders are all met. */
    @Test
    void everyTieAndSectorBorderAgrees() {
        int[] levels = {0, 1, 2, 127, 128, 170, 254, 255};
        int n = levels.length * levels.length * levels.length;
        int w = 67; // an odd width: the last vector of each row is partly padding
        int h = (n + w - 1) / w + 2;
        Raster src = new Raster(w, h);
        byte[] px = src.rgb();
        SplittableRandom rnd = new SplittableRandom(5);
        for (int k = 0; k < w * h; k++) {
            int c = k % n;
            px[3 * k] = (byte) levels[c / (levels.length * levels.length)];
            px[3 * k + 1] = (byte) levels[c / levels.length % levels.length];
            px[3 * k + 2] = (byte) levels[c % levels.length];
            if (rnd.nextInt(4) == 0) { // and some neighbours of random brightness
                px[3 * k + rnd.nextInt(3)] = (byte) rnd.nextInt(256);
            }
        }
        for (int p : new int[] {0, 1, 33, 75, 99}) {
            check("levels p=" + p, src, src.bounds(), p);
        }
    }

    @Test
    void noiseAtWidthsAroundTheVectorLength() {
        for (int w = 3; w <= 40; w++) {
            Raster src = TestRasters.noise(w, 5, w);
            check("noise " + w + "x5", src, src.bounds(), 75);
        }
    }

    private static void check(String what, Raster src, Region region, int p) {
        VectorKernelCases.assertAgree(what, src, dst -> SharpenStraightforward.apply(src, dst, region, p),
                (dst, vector) -> SharpenOptimized.apply(src, dst, region, p, vector));
    }
}
