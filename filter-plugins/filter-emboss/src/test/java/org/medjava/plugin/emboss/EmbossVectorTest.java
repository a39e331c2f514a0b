package org.medjava.plugin.emboss;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.VectorKernelCases;

/**
 * The Vector API and the scalar kernels of {@link EmbossOptimized} against the straightforward port in one JVM
 * (the tests run with jdk.incubator.vector), on widths around the vector length, noise and few-valued images, both
 * roundings, MONO by lane shuffles and through the scratch row (the machine picks one; both are tested).
 */
class EmbossVectorTest {

    @ParameterizedTest(name = "MONO by lane shuffles: {0}")
    @ValueSource(booleans = {true, false})
    void vectorAndScalarKernelsMatchTheStraightforwardPort(boolean shuffles) {
        VectorKernelCases.of(91, 300, 110, 30).fewValuedEveryThird().forEach(c -> {
            boolean floor = c.index() % 2 == 1;
            Region region = c.region();
            c.assertKernelsAgree("floor=" + floor, dst -> EmbossStraightforward.apply(c.src(), dst, region, floor),
                    (dst, vector) -> EmbossOptimized.rows(c.src(), dst, region, floor, region.y(), region.endY(),
                            vector, vector && shuffles));
        });
    }
}
