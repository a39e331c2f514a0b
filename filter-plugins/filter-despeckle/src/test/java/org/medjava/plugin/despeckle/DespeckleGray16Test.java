package org.medjava.plugin.despeckle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.3 rule by rule; the shared grey suite runs in the SuiteTest. */
class DespeckleGray16Test {
    private final Filter filter = new DespeckleFilter();

    private GrayRaster16 despeckle(GrayRaster16 src, Region region, int n, Implementation impl) {
        return Filter.run(filter, src, region, filter.descriptor().params(Map.of("n", Integer.toString(n))), impl);
    }

    /** D3: four values −3, −3, −2, −2 give floor(−2.5) = −3, not −2 (truncation toward zero). */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void evenCountsFloorTowardMinusInfinityOnSignedData(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(16, true, new int[][] {{-3, -2}, {-2, -3}});
        assertThat(GrayRasters.values(despeckle(src, null, 3, impl))).isEqualTo(new int[][] {{-3, -3}, {-3, -3}});
        for (int n : new int[] {5, 7}) {
            assertThat(GrayRasters.values(despeckle(src, null, n, impl))).isEqualTo(new int[][] {{-3, -3}, {-3, -3}});
        }
        GrayRaster16 u = GrayRasters.of(16, false, new int[][] {{65535, 65534}, {0, 65535}});
        // sorted 0, 65534, 65535, 65535: floor((65534 + 65535) / 2) = 65534, the sum exceeds 16 bits
        assertThat(GrayRasters.values(despeckle(u, null, 3, impl))).isEqualTo(new int[][] {{65534, 65534},
            {65534, 65534}});
    }

    /** A lone extreme in the interior is removed; the median of 9 is a value of the window. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void speckleAtEitherEndOfTheRangeIsRemoved(Implementation impl) {
        int[][] rows = new int[5][5];
        for (int[] row : rows) {
            java.util.Arrays.fill(row, 100);
        }
        rows[2][2] = 2047;
        rows[1][3] = -2048;
        GrayRaster16 src = GrayRasters.of(12, true, rows);
        for (int n : new int[] {3, 5}) {
            GrayRaster16 out = despeckle(src, null, n, impl);
            assertThat(out.valueAt(2, 2)).isEqualTo(100);
            assertThat(out.valueAt(3, 1)).isEqualTo(100);
        }
    }

    /** Odd counts at the border (3 values in a 1-wide region) take the middle value. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void thinRegionsUseClippedWindows(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(16, false, new int[][] {{9, 1}, {65535, 1}, {3, 1}, {4, 1}});
        GrayRaster16 out = despeckle(src, Region.of(0, 0, 1, 4), 3, impl);
        // windows: {9,65535} → 32772; {9,65535,3} → 9; {65535,3,4} → 4; {3,4} → 3
        assertThat(GrayRasters.values(out)).isEqualTo(new int[][] {{32772, 1}, {9, 1}, {4, 1}, {3, 1}});
    }
}
