package org.medjava.plugin.blur;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.VectorKernelCases;

/**
 * The Vector API kernels and the scalar kernels of {@link BlurOptimized} against the straightforward port, in one
 * JVM (the tests run with jdk.incubator.vector, so the default path is the vector one), on widths around the
 * vector length, and the 32-bit reciprocals the vector interior relies on.
 */
class BlurVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        VectorKernelCases.of(77, 300, 90, 40).forEach(c -> {
            int n = 2 * c.rnd().nextInt(7) + 1;
            c.assertKernelsAgree("n=" + n, dst -> BlurStraightforward.apply(c.src(), dst, c.region(), n),
                    (dst, vector) -> BlurOptimized.apply(c.src(), dst, c.region(), n, false, vector));
        });
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
