package org.medjava.plugin.edgedetect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.medjava.filter.VectorSupport;
import org.medjava.filter.testkit.VectorKernelCases;

/**
 * The Vector API and the scalar kernels of {@link EdgeDetectOptimized} against the straightforward port in one JVM
 * (the tests run with jdk.incubator.vector), on widths around the vector length, noise and few-valued images (so
 * that the rescale of step 3 runs with many maxima), both frame modes.
 */
class EdgeDetectVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        VectorKernelCases.of(91, 300, 110, 30).fewValuedEveryThird().forEach(c -> {
            boolean black = c.index() % 2 == 1;
            c.assertKernelsAgree("black=" + black,
                    dst -> EdgeDetectStraightforward.apply(c.src(), dst, c.region(), black),
                    (dst, vector) -> EdgeDetectOptimized.apply(c.src(), dst, c.region(), black, vector));
        });
    }

    @Test
    void theRescaleIsExactForEveryValueAndMaximum() {
        assumeTrue(VectorSupport.AVAILABLE, "vectors narrower than " + VectorSupport.MIN_BITS + " bits: scalar only");
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
