package org.medjava.plugin.blur;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** Spec 2.1 rule by rule, each on a small image with hand-computed values, for every implementation. */
class BlurFilterTest {
    private final Filter filter = new BlurFilter();

    private Raster blur(Raster src, Region region, int n, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("n", Integer.toString(n)));
        return Filter.run(filter, src, region, params, impl);
    }

    @Test
    void invalidMaskSizesAreRejectedQuotingTheRule() {
        FilterDescriptor d = filter.descriptor();
        for (String bad : new String[] {"4", "0", "-1", "257", "256", "abc", "", "3.0"}) {
            assertThatThrownBy(() -> d.params(Map.of("n", bad)))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("blur: parameter n=\"" + bad + "\" is invalid: "
                            + "n must be an odd integer from 1 to 255 (default 3)");
        }
        assertThatThrownBy(() -> d.params(Map.of("size", "3")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("unknown parameter size");
        assertThat(d.params(Map.of("n", "255")).getInt("n")).isEqualTo(255);
        assertThat(d.params(Map.of("n", " 1 ")).getInt("n")).isEqualTo(1);
    }

    /** One bright pixel in the middle of a 3×3 image is in every window: 252/9, 252/6, 252/4. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void countsAreNineSixAndFourAtInteriorEdgeAndCorner(Implementation impl) {
        Raster src = TestRasters.of(new int[][][] {
            {{0, 0, 0}, {0, 252, 0}, {0, 0, 0}},
            {{7, 7, 7}, {7, 7, 7}, {7, 7, 7}},
            {{255, 255, 255}, {255, 255, 255}, {255, 255, 255}},
        });
        Raster out = blur(src, null, 3, impl);
        assertThat(TestRasters.channel(out, 0)).isEqualTo(new int[][] {{63, 42, 63}, {42, 28, 42}, {63, 42, 63}});
        assertThat(TestRasters.channel(out, 1)).isEqualTo(new int[][] {{7, 7, 7}, {7, 7, 7}, {7, 7, 7}});
        assertThat(TestRasters.channel(out, 2))
                .isEqualTo(new int[][] {{255, 255, 255}, {255, 255, 255}, {255, 255, 255}});
    }

    /** 100/9 = 11.1, 100/6 = 16.7, 100/4 = 25: the mean is floored, never rounded. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void resultIsTheFloorOfTheMean(Implementation impl) {
        Raster src = TestRasters.grey(new int[][] {{0, 0, 0}, {0, 100, 0}, {0, 0, 0}});
        Raster out = blur(src, null, 3, impl);
        assertThat(TestRasters.channel(out, 0)).isEqualTo(new int[][] {{25, 16, 25}, {16, 11, 16}, {25, 16, 25}});
        // 2+2+2+1 = 7 over 4 values: 1.75 floors to 1 (rounding would give 2)
        Raster two = TestRasters.grey(new int[][] {{2, 2}, {2, 1}});
        assertThat(TestRasters.channel(blur(two, null, 3, impl), 0)).isEqualTo(new int[][] {{1, 1}, {1, 1}});
    }

    /** n=5: counts 9 at the corner, 12 next to it, 15 at the edge centre, 25 in the middle of a 5×5 image. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void maskFiveCountsClipToTheRegion(Implementation impl) {
        int[][] rows = new int[5][5];
        rows[2][2] = 225;
        Raster out = blur(TestRasters.grey(rows), null, 5, impl);
        int[][] r = TestRasters.channel(out, 0);
        assertThat(r[0][0]).isEqualTo(225 / 9);
        assertThat(r[0][1]).isEqualTo(225 / 12); // 18.75 -> 18
        assertThat(r[0][2]).isEqualTo(225 / 15);
        assertThat(r[1][1]).isEqualTo(225 / 16);
        assertThat(r[2][2]).isEqualTo(225 / 25);
        assertThat(r[2][4]).isEqualTo(225 / 15);
        assertThat(r[4][4]).isEqualTo(225 / 9);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void maskOneIsTheIdentity(Implementation impl) {
        Raster src = TestRasters.noise(17, 11, 42);
        assertThat(blur(src, null, 1, impl).rgb()).isEqualTo(src.rgb());
        assertThat(blur(src, Region.of(3, 2, 5, 5), 1, impl).rgb()).isEqualTo(src.rgb());
    }

    /** Inside a black region framed by white, no white leaks in: windows clip to the region, not the image. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void neighbourhoodsClipToTheRegionNotTheImage(Implementation impl) {
        Raster white = TestRasters.fill(new Raster(7, 6), Region.of(0, 0, 7, 6), 255);
        Region region = Region.of(2, 1, 3, 4);
        Raster src = TestRasters.fill(white, region, 0);
        Raster out = blur(src, region, 3, impl);
        assertThat(out.rgb()).isEqualTo(src.rgb());
        // and with n much larger than the region: the mean of the region only
        Raster ramp = TestRasters.grey(new int[][] {{200, 200, 200, 200}, {200, 10, 20, 200}, {200, 30, 41, 200}});
        Raster big = blur(ramp, Region.of(1, 1, 2, 2), 255, impl);
        assertThat(TestRasters.channel(big, 0))
                .isEqualTo(new int[][] {{200, 200, 200, 200}, {200, 25, 25, 200}, {200, 25, 25, 200}});
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void pixelsOutsideTheRegionAreUnchanged(Implementation impl) {
        Raster src = TestRasters.noise(12, 9, 7);
        Region region = Region.of(3, 2, 4, 5);
        Raster out = blur(src, region, 3, impl);
        for (int y = 0; y < src.height(); y++) {
            for (int x = 0; x < src.width(); x++) {
                if (!region.contains(x, y)) {
                    assertThat(out.rgbAt(x, y)).as("(%d,%d)", x, y).isEqualTo(src.rgbAt(x, y));
                }
            }
        }
        assertThat(out.sameContent(src)).isFalse();
    }

    /** A region reaching outside the image is clipped first; a 1-wide region blurs along the column only. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void regionOutsideTheImageIsClippedAndThinRegionsWork(Implementation impl) {
        Raster src = TestRasters.grey(new int[][] {{9, 0}, {30, 0}, {60, 0}});
        Raster out = blur(src, Region.of(-4, -1, 5, 10), 3, impl); // clips to column 0
        assertThat(TestRasters.channel(out, 0)).isEqualTo(new int[][] {{19, 0}, {33, 0}, {45, 0}});
        Raster row = TestRasters.grey(new int[][] {{9, 30, 60, 1}});
        assertThat(TestRasters.channel(blur(row, null, 3, impl), 0)).isEqualTo(new int[][] {{19, 33, 30, 30}});
        Raster none = blur(src, Region.of(5, 5, 3, 3), 3, impl); // empty after clipping
        assertThat(none.rgb()).isEqualTo(src.rgb());
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void inputIsNeverModified(Implementation impl) {
        Raster src = TestRasters.noise(9, 9, 3);
        byte[] before = src.rgb().clone();
        blur(src, null, 5, impl);
        assertThat(src.rgb()).isEqualTo(before);
    }
}
