package org.medjava.filter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** The check behind every plugin's randomized equivalence test: all implementations agree byte for byte. */
public final class ImplementationEquivalence {
    private ImplementationEquivalence() {
    }

    /**
     * Runs the straightforward port, asserts it changed nothing outside the region, and asserts the optimized and
     * parallel ports produce exactly the same bytes.
     *
     * @param what describes the case (seed, case number, size, region, parameters) for failure messages
     * @return whether the filter changed the image at all, so a test can prove its cases exercise the filter
     */
    public static boolean check(Filter filter, Raster src, Region region, FilterParams params, String what) {
        Raster expected = Filter.run(filter, src, region, params, Implementation.STRAIGHTFORWARD);
        assertThat(TestRasters.changedOutside(src, expected, region)).as(what).isNull();
        for (Implementation impl : new Implementation[] {Implementation.OPTIMIZED, Implementation.PARALLEL}) {
            Raster actual = Filter.run(filter, src, region, params, impl);
            assertThat(TestRasters.firstDifference(expected, actual)).as(what + " " + impl).isNull();
        }
        return !expected.sameContent(src);
    }
}
