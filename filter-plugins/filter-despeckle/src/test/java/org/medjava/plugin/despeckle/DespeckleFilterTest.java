package org.medjava.plugin.despeckle;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** Spec 2.3 rule by rule, each on a small image with hand-computed values, for every implementation. */
class DespeckleFilterTest {
    private final Filter filter = new DespeckleFilter();

    private Raster despeckle(Raster src, Region region, int n, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("n", Integer.toString(n)));
        return Filter.run(filter, src, region, params, impl);
    }

    @Test
    void invalidMaskSizesAreRejectedQuotingTheRule() {
        FilterDescriptor d = filter.descriptor();
        for (String bad : new String[] {"2", "0", "-3", "257", "x", ""}) {
            assertThatThrownBy(() -> d.params(Map.of("n", bad)))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("despeckle: parameter n=\"" + bad + "\" is invalid: "
                            + "n must be an odd integer from 1 to 255 (default 3)");
        }
        assertThatThrownBy(() -> d.params(Map.of("m", "3"))).isInstanceOf(InvalidParameterException.class);
    }

    /** Each channel takes its own median, so the centre becomes (5, 5, 2): a colour no input pixel has. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void channelsAreIndependent(Implementation impl) {
        Raster src = TestRasters.of(new int[][][] {
            {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}},
            {{5, 1, 2}, {3, 9, 4}, {6, 7, 8}},
            {{0, 0, 0}, {9, 9, 9}, {2, 2, 2}},
        });
        Raster out = despeckle(src, null, 3, impl);
        assertThat(out.rgbAt(1, 1)).isEqualTo(0x050502);
        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < 3; x++) {
                assertThat(src.rgbAt(x, y)).isNotEqualTo(0x050502);
            }
        }
    }

    /** Corner windows have 4 values, edge windows 6: the output is the floored mean of the two middle ones. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void evenCountsGiveTheFlooredMeanOfTheTwoMiddleValues(Implementation impl) {
        Raster two = TestRasters.grey(new int[][] {{10, 200}, {31, 20}});
        // every window holds all four: 10 20 31 200 -> (20 + 31) / 2 = 25.5 -> 25
        assertThat(TestRasters.channel(despeckle(two, null, 3, impl), 0)).isEqualTo(new int[][] {{25, 25}, {25, 25}});
        Raster three = TestRasters.grey(new int[][] {{0, 50, 100}, {1, 51, 255}, {3, 3, 3}});
        int[][] out = TestRasters.channel(despeckle(three, null, 3, impl), 0);
        assertThat(out[0][0]).isEqualTo((1 + 50) / 2); // 0 1 50 51
        assertThat(out[0][1]).isEqualTo((50 + 51) / 2); // 0 1 50 51 100 255
        assertThat(out[1][0]).isEqualTo((3 + 3) / 2); // 0 1 3 3 50 51
        assertThat(out[1][1]).isEqualTo(3); // 9 values: 0 1 3 3 [3] 50 51 100 255
        assertThat(out[2][2]).isEqualTo((3 + 51) / 2); // 3 3 51 255
    }

    /** n = 5 on v = 10y + x: window counts 9, 12, 15, 16, 20 and 25 at the places the spec names. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void maskFiveCountsIncludeTwelveSixteenAndTwenty(Implementation impl) {
        int[][] rows = new int[5][5];
        for (int y = 0; y < 5; y++) {
            for (int x = 0; x < 5; x++) {
                rows[y][x] = 10 * y + x;
            }
        }
        int[][] out = TestRasters.channel(despeckle(TestRasters.grey(rows), null, 5, impl), 0);
        assertThat(out[0][0]).isEqualTo(11); // 9: 0 1 2 10 [11] 12 20 21 22
        assertThat(out[0][1]).isEqualTo((11 + 12) / 2); // 12: 0-3, 10-13, 20-23
        assertThat(out[1][0]).isEqualTo((12 + 20) / 2); // 12: 0-2, 10-12, 20-22, 30-32
        assertThat(out[1][1]).isEqualTo((13 + 20) / 2); // 16: 0-3, 10-13, 20-23, 30-33
        assertThat(out[1][2]).isEqualTo((14 + 20) / 2); // 20: 0-4, 10-14, 20-24, 30-34
        assertThat(out[0][2]).isEqualTo(12); // 15: 0-4, 10-14, 20-24
        assertThat(out[2][2]).isEqualTo(22); // 25: all
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void aSpeckleInAFlatAreaIsRemoved(Implementation impl) {
        int[][] rows = new int[6][7];
        for (int[] r : rows) {
            java.util.Arrays.fill(r, 80);
        }
        rows[2][3] = 255;
        rows[4][1] = 0;
        Raster out = despeckle(TestRasters.grey(rows), null, 3, impl);
        for (int c = 0; c < 3; c++) {
            for (int[] r : TestRasters.channel(out, c)) {
                assertThat(r).containsOnly(80);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void maskOneIsTheIdentity(Implementation impl) {
        Raster src = TestRasters.noise(13, 8, 5);
        assertThat(despeckle(src, null, 1, impl).rgb()).isEqualTo(src.rgb());
    }

    /** Windows clip to the region: black inside a white frame stays black, and the frame is untouched. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void neighbourhoodsClipToTheRegionAndOutsideIsUnchanged(Implementation impl) {
        Raster white = TestRasters.fill(new Raster(8, 7), Region.of(0, 0, 8, 7), 255);
        Region region = Region.of(2, 1, 4, 5);
        Raster src = TestRasters.fill(white, region, 0);
        assertThat(despeckle(src, region, 3, impl).rgb()).isEqualTo(src.rgb());
        assertThat(despeckle(src, region, 7, impl).rgb()).isEqualTo(src.rgb());
        Raster noise = TestRasters.noise(11, 9, 9);
        Raster out = despeckle(noise, region, 5, impl);
        for (int y = 0; y < noise.height(); y++) {
            for (int x = 0; x < noise.width(); x++) {
                if (!region.contains(x, y)) {
                    assertThat(out.rgbAt(x, y)).as("(%d,%d)", x, y).isEqualTo(noise.rgbAt(x, y));
                }
            }
        }
    }

    /** A 1-pixel-wide region: windows of 2 and 3 values along the column. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void thinRegionsUseTheirClippedWindows(Implementation impl) {
        Raster src = TestRasters.grey(new int[][] {{9, 0}, {30, 0}, {60, 0}, {1, 0}});
        Raster out = despeckle(src, Region.of(-2, 0, 3, 9), 3, impl); // clips to column 0
        assertThat(TestRasters.channel(out, 0)).isEqualTo(new int[][] {{19, 0}, {30, 0}, {30, 0}, {30, 0}});
    }
}
