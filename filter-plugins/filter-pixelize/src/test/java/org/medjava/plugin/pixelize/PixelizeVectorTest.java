package org.medjava.plugin.pixelize;

import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.VectorKernelCases;

/**
 * The Vector API and scalar kernels of {@link PixelizeOptimized} against the straightforward port in one JVM (the
 * tests run with jdk.incubator.vector), and the reciprocal division of its fast path for every block size.
 */
class PixelizeVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        VectorKernelCases.of(4, 300, 120, 40).forEach(c -> {
            int a = 1 + c.rnd().nextInt(c.index() % 4 == 0 ? 60 : 9);
            int b = 1 + c.rnd().nextInt(c.index() % 5 == 0 ? 40 : 9);
            c.assertKernelsAgree(a + "x" + b, dst -> PixelizeStraightforward.apply(c.src(), dst, c.region(), a, b),
                    (dst, vector) -> PixelizeOptimized.apply(c.src(), dst, c.region(), a, b, false, vector));
        });
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
