package org.medjava.plugin.pixelize;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Extent;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** Spec 2.7 rule by rule, each on a small image with hand-computed values, for every implementation. */
class PixelizeFilterTest {
    private final Filter filter = new PixelizeFilter();

    private Raster pixelize(Raster src, Region region, String block, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("block", block));
        return Filter.run(filter, src, region, params, impl);
    }

    /** A one-row grey image. */
    private static Raster row(int... values) {
        return TestRasters.grey(new int[][] {values});
    }

    /** A one-column grey image. */
    private static Raster column(int... values) {
        int[][] rows = new int[values.length][1];
        for (int i = 0; i < values.length; i++) {
            rows[i][0] = values[i];
        }
        return TestRasters.grey(rows);
    }

    @Test
    void blockAcceptsNAndAxBWithEitherX() {
        FilterDescriptor d = filter.descriptor();
        assertThat(d.params(Map.of("block", "7")).getExtent("block")).isEqualTo(new Extent(7, 7, false));
        assertThat(d.params(Map.of("block", "3x5")).getExtent("block")).isEqualTo(new Extent(3, 5, true));
        assertThat(d.params(Map.of("block", "3X5")).getExtent("block")).isEqualTo(new Extent(3, 5, true));
        assertThat(d.params(Map.of("block", "65535x1")).getExtent("block")).isEqualTo(new Extent(65535, 1, true));
    }

    @Test
    void invalidBlocksAreRejectedQuotingTheRule() {
        FilterDescriptor d = filter.descriptor();
        for (String bad : new String[] {"0", "0x4", "4x0", "65536", "1x65536", "-4", "4x", "x4", "4*4", "a", ""}) {
            assertThatThrownBy(() -> d.params(Map.of("block", bad)))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("pixelize: parameter block=\"" + bad + "\" is invalid: "
                            + "block must be \"N\" or \"AxB\" with each number from 1 to 65535 (default 4)");
        }
    }

    /** 9 columns, A = 4: nw = 3, excess 3, floor(3/2) = 1 column overhangs on the left, 2 on the right. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void gridIsCentredLeftGetsTheFloorOfTheOverhang(Implementation impl) {
        Raster out = pixelize(row(0, 10, 20, 30, 40, 50, 60, 70, 80), null, "4x1", impl);
        // blocks [-1,3) [3,7) [7,11): in region 0-2, 3-6, 7-8
        assertThat(TestRasters.channel(out, 0)[0]).containsExactly(10, 10, 10, 45, 45, 45, 45, 75, 75);
        // 10 columns: excess 2, one column on each side
        Raster ten = pixelize(row(0, 10, 20, 30, 40, 50, 60, 70, 80, 90), null, "4x1", impl);
        assertThat(TestRasters.channel(ten, 0)[0]).containsExactly(10, 10, 10, 45, 45, 45, 45, 80, 80, 80);
    }

    /** Vertically the top gets the floor and the bottom the ceiling of the excess. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void gridIsCentredTopGetsTheFloorOfTheOverhang(Implementation impl) {
        Raster out = pixelize(column(0, 10, 20, 30, 40, 50, 60, 70, 80), null, "1x4", impl);
        int[][] c = TestRasters.channel(out, 0);
        assertThat(new int[] {c[0][0], c[1][0], c[2][0], c[3][0], c[4][0], c[5][0], c[6][0], c[7][0], c[8][0]})
                .containsExactly(10, 10, 10, 45, 45, 45, 45, 75, 75);
    }

    /** 5×5 with 2×2 blocks: excess 1, nothing on the left/top, one on the right/bottom; partial blocks. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void partialBlocksAverageOnlyTheirInRegionPixels(Implementation impl) {
        int[][] rows = {
            {0, 2, 4, 6, 8},
            {1, 3, 5, 7, 9},
            {10, 20, 30, 40, 50},
            {11, 21, 31, 41, 51},
            {100, 101, 200, 201, 255},
        };
        int[][] out = TestRasters.channel(pixelize(TestRasters.grey(rows), null, "2", impl), 0);
        assertThat(out).isEqualTo(new int[][] {
            {1, 1, 5, 5, 8},       // (0+2+1+3)/4 = 1.5, (4+6+5+7)/4 = 5.5, (8+9)/2 = 8.5
            {1, 1, 5, 5, 8},
            {15, 15, 35, 35, 50},  // (10+20+11+21)/4 = 15.5, 35.5, (50+51)/2 = 50.5
            {15, 15, 35, 35, 50},
            {100, 100, 200, 200, 255},
        });
    }

    /** Each channel is averaged on its own. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void channelsAreAveragedSeparately(Implementation impl) {
        Raster src = TestRasters.of(new int[][][] {{{0, 255}}, {{100, 101}}, {{7, 0}}});
        Raster out = pixelize(src, null, "2x1", impl);
        assertThat(out.rgbAt(0, 0)).isEqualTo(127 << 16 | 100 << 8 | 3);
        assertThat(out.rgbAt(1, 0)).isEqualTo(127 << 16 | 100 << 8 | 3);
    }

    /**
     * Region columns 3..7, A = 4: excess 3, the left block overhangs by 1 (x0 = 2). xv would sum pixels 2,3,4 for
     * it (shifted left by sx − x0); ports use the intended in-region pixels 3,4,5.
     */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void leftOverhangUsesTheIntendedMeanNotXvsShiftedPixels(Implementation impl) {
        Raster src = row(255, 255, 255, 10, 20, 31, 100, 50);
        Raster out = pixelize(src, Region.of(3, 0, 5, 1), "4x1", impl);
        assertThat(TestRasters.channel(out, 0)[0]).containsExactly(255, 255, 255, 20, 20, 20, 75, 75);
    }

    /** A block bigger than the region makes the region one block: its floor mean everywhere. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void blockLargerThanTheRegionAveragesTheWholeRegion(Implementation impl) {
        Raster src = TestRasters.grey(new int[][] {{9, 9, 9, 9}, {9, 1, 2, 9}, {9, 4, 6, 9}, {9, 9, 9, 9}});
        int[][] out = TestRasters.channel(pixelize(src, Region.of(1, 1, 2, 2), "65535", impl), 0);
        assertThat(out).isEqualTo(new int[][] {{9, 9, 9, 9}, {9, 3, 3, 9}, {9, 3, 3, 9}, {9, 9, 9, 9}});
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void oneByOneBlocksAreTheIdentity(Implementation impl) {
        Raster src = TestRasters.noise(10, 7, 11);
        assertThat(pixelize(src, null, "1", impl).rgb()).isEqualTo(src.rgb());
        assertThat(pixelize(src, null, "1x1", impl).rgb()).isEqualTo(src.rgb());
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void pixelsOutsideTheRegionAreUnchanged(Implementation impl) {
        Raster src = TestRasters.noise(16, 12, 3);
        Region region = Region.of(5, 3, 7, 6);
        Raster out = pixelize(src, region, "3x2", impl);
        for (int y = 0; y < src.height(); y++) {
            for (int x = 0; x < src.width(); x++) {
                if (!region.contains(x, y)) {
                    assertThat(out.rgbAt(x, y)).as("(%d,%d)", x, y).isEqualTo(src.rgbAt(x, y));
                }
            }
        }
        // default 4x4 on a 8x8 image: four 4x4 blocks exactly
        Raster even = pixelize(TestRasters.noise(8, 8, 1), null, "4", impl);
        assertThat(even.rgbAt(0, 0)).isEqualTo(even.rgbAt(3, 3));
        assertThat(even.rgbAt(4, 4)).isEqualTo(even.rgbAt(7, 7));
    }
}
