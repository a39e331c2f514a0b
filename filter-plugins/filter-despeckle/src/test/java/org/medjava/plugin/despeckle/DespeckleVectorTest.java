package org.medjava.plugin.despeckle;

import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.VectorKernelCases;

/**
 * The Vector API and the scalar kernels of {@link DespeckleOptimized} against the straightforward port in one JVM
 * (the tests run with jdk.incubator.vector), on widths around the vector length, noise and few-valued images (ties,
 * and values on both sides of 128 where the signed bias matters).
 */
class DespeckleVectorTest {

    @Test
    void vectorAndScalarKernelsMatchTheStraightforwardPort() {
        VectorKernelCases.of(91, 300, 110, 30).fewValuedEveryThird().forEach(c -> c.assertKernelsAgree("",
                dst -> DespeckleStraightforward.apply(c.src(), dst, c.region(), 3),
                (dst, vector) -> DespeckleOptimized.apply(c.src(), dst, c.region(), 3, false, vector)));
    }
}
