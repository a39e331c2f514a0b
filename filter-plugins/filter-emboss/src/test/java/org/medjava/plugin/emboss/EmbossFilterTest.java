package org.medjava.plugin.emboss;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
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

/** Spec 2.5 rule by rule, with small hand-computed cases; every implementation must pass every test. */
class EmbossFilterTest {
    private final Filter filter = new EmbossFilter();

    private Raster run(Raster src, Region region, String rounding, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("rounding", rounding));
        return Filter.run(filter, src, region, params, impl);
    }

    /** Output centre of a 3x3 image whose pixels are all 0 except {@code (x,y) = packed}. */
    private int centreWith(int x, int y, int packed, String rounding, Implementation impl) {
        Raster src = new Raster(3, 3);
        src.setRgb(x, y, packed);
        return run(src, null, rounding, impl).rgbAt(1, 1);
    }

    @Test
    void parameterValidationQuotesTheRule() {
        FilterDescriptor d = filter.descriptor();
        assertThatThrownBy(() -> d.params(Map.of("rounding", "round")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("emboss: parameter rounding=\"round\" is invalid: rounding must be one of xv, floor (default xv)");
        assertThatThrownBy(() -> d.params(Map.of("p", "3"))).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("unknown parameter p");
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void flatAreasBecomeGrey128AndTheFrameEnds128(Implementation impl) {
        Raster src = TestRasters.filled(6, 5, 0x3C9AF0);
        Region region = Region.of(1, 1, 4, 3);
        Raster out = run(src, region, "xv", impl);
        for (int y = 1; y <= 3; y++) {
            for (int x = 1; x <= 4; x++) {
                assertThat(out.rgbAt(x, y)).isEqualTo(0x808080);
            }
        }
        assertThat(TestRasters.changedOutside(src, out, region)).isNull();
        // noise: the frame is still 128 whatever the input
        Raster noisy = run(TestRasters.noise(new Random(3), 7, 6), null, "xv", impl);
        for (int x = 0; x < 7; x++) {
            assertThat(noisy.rgbAt(x, 0)).isEqualTo(0x808080);
            assertThat(noisy.rgbAt(x, 5)).isEqualTo(0x808080);
        }
        for (int y = 0; y < 6; y++) {
            assertThat(noisy.rgbAt(0, y)).isEqualTo(0x808080);
            assertThat(noisy.rgbAt(6, y)).isEqualTo(0x808080);
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void regionsWithoutInteriorAreFilledWith128(Implementation impl) {
        Raster src = TestRasters.noise(new Random(4), 8, 8);
        for (Region region : List.of(Region.of(0, 0, 2, 8), Region.of(3, 3, 5, 1), Region.of(7, 7, 1, 1))) {
            Raster out = run(src, region, "xv", impl);
            for (int y = region.y(); y < region.endY(); y++) {
                for (int x = region.x(); x < region.endX(); x++) {
                    assertThat(out.rgbAt(x, y)).isEqualTo(0x808080);
                }
            }
            assertThat(TestRasters.changedOutside(src, out, region)).isNull();
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void kernelWeightsAreMinus2Minus1ZeroMinus1ZeroPlus1ZeroPlus1Plus2(Implementation impl) {
        // a=10 b=20 c=250 / d=30 e=99 f=70 / g=250 h=90 i=100:
        // S = 2i + h + f - d - b - 2a = 200 + 90 + 70 - 30 - 20 - 20 = 290 -> 290/8 = 36 -> 164
        Raster src = TestRasters.grey(3, 3, 10, 20, 250, 30, 99, 70, 250, 90, 100);
        assertThat(run(src, null, "xv", impl).rgbAt(1, 1)).isEqualTo(164 * 0x010101);
        // one pixel at a time
        assertThat(centreWith(2, 2, 0x282828, "xv", impl)).isEqualTo(138 * 0x010101); // 2*40 = 80 -> +10
        assertThat(centreWith(1, 2, 0x282828, "xv", impl)).isEqualTo(133 * 0x010101); // 40 -> +5
        assertThat(centreWith(2, 1, 0x282828, "xv", impl)).isEqualTo(133 * 0x010101);
        assertThat(centreWith(0, 1, 0x282828, "xv", impl)).isEqualTo(123 * 0x010101); // -40 -> -5
        assertThat(centreWith(1, 0, 0x282828, "xv", impl)).isEqualTo(123 * 0x010101);
        assertThat(centreWith(0, 0, 0x282828, "xv", impl)).isEqualTo(118 * 0x010101); // -80 -> -10
        assertThat(centreWith(2, 0, 0xFFFFFF, "xv", impl)).isEqualTo(0x808080); // weight 0
        assertThat(centreWith(0, 2, 0xFFFFFF, "xv", impl)).isEqualTo(0x808080);
        assertThat(centreWith(1, 1, 0xFFFFFF, "xv", impl)).isEqualTo(0x808080);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void deadZoneMinus7ToPlus7Gives128(Implementation impl) {
        assertThat(centreWith(2, 2, 0x030303, "xv", impl)).isEqualTo(0x808080); // S = 6
        assertThat(centreWith(1, 2, 0x070707, "xv", impl)).isEqualTo(0x808080); // S = 7
        assertThat(centreWith(2, 2, 0x040404, "xv", impl)).isEqualTo(0x818181); // S = 8 -> 129
        assertThat(centreWith(0, 0, 0x030303, "xv", impl)).isEqualTo(0x808080); // S = -6
        assertThat(centreWith(0, 1, 0x070707, "xv", impl)).isEqualTo(0x808080); // S = -7
        assertThat(centreWith(0, 0, 0x040404, "xv", impl)).isEqualTo(0x7F7F7F); // S = -8 -> 127
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void negativeSumsTruncateTowardZero(Implementation impl) {
        assertThat(centreWith(1, 0, 0x090909, "xv", impl)).isEqualTo(0x7F7F7F); // S = -9 -> -1 -> 127
        assertThat(centreWith(1, 0, 0x0F0F0F, "xv", impl)).isEqualTo(0x7F7F7F); // S = -15 -> -1 -> 127
        assertThat(centreWith(1, 0, 0x101010, "xv", impl)).isEqualTo(0x7E7E7E); // S = -16 -> -2 -> 126
        assertThat(centreWith(1, 2, 0x090909, "xv", impl)).isEqualTo(0x818181); // S = +9 -> +1 -> 129
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void floorRoundingHasBinsOfEqualWidth(Implementation impl) {
        assertThat(centreWith(1, 0, 0x090909, "floor", impl)).isEqualTo(0x7E7E7E); // floor(-9/8) = -2 -> 126
        assertThat(centreWith(0, 0, 0x030303, "floor", impl)).isEqualTo(0x7F7F7F); // floor(-6/8) = -1 -> 127
        assertThat(centreWith(1, 0, 0x080808, "floor", impl)).isEqualTo(0x7F7F7F); // floor(-8/8) = -1 -> 127
        assertThat(centreWith(2, 2, 0x030303, "floor", impl)).isEqualTo(0x808080); // floor(6/8) = 0
        assertThat(centreWith(1, 2, 0x090909, "floor", impl)).isEqualTo(0x818181); // floor(9/8) = 1
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void extremeSumsStayInRange(Implementation impl) {
        // S = +1020 -> 127 -> 255; S = -1020 -> -127 -> 1 (xv) or -128 -> 0 (floor)
        Raster up = TestRasters.grey(3, 3, 0, 0, 0, 0, 0, 255, 0, 255, 255);
        Raster down = TestRasters.grey(3, 3, 255, 255, 0, 255, 0, 0, 0, 0, 0);
        assertThat(run(up, null, "xv", impl).rgbAt(1, 1)).isEqualTo(0xFFFFFF);
        assertThat(run(up, null, "floor", impl).rgbAt(1, 1)).isEqualTo(0xFFFFFF);
        assertThat(run(down, null, "xv", impl).rgbAt(1, 1)).isEqualTo(0x010101);
        assertThat(run(down, null, "floor", impl).rgbAt(1, 1)).isEqualTo(0);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void monoOfTheTruncatedChannels(Implementation impl) {
        // R: P(+1,+1) = 40 -> S = 80 -> 138; G: P(0,-1) = 17 -> S = -17 -> -2 -> 126; B: P(+1,0) = 15 -> 129
        // MONO(138,126,129) = (1518 + 2016 + 645) >> 5 = 4179 >> 5 = 130
        Raster src = new Raster(3, 3);
        src.setRgb(2, 2, 0x280000);
        src.setRgb(1, 0, 0x001100);
        src.setRgb(2, 1, 0x00000F);
        assertThat(run(src, null, "xv", impl).rgbAt(1, 1)).isEqualTo(130 * 0x010101);
        // G: S = -1 truncates to 0 before MONO: MONO(128,128,128) = 128 (MONO of 128, 127.875, 128 would be 127)
        assertThat(centreWith(1, 0, 0x000100, "xv", impl)).isEqualTo(0x808080);
        // floor: G -> 127, MONO(128,127,128) = 4080 >> 5 = 127
        assertThat(centreWith(1, 0, 0x000100, "floor", impl)).isEqualTo(0x7F7F7F);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void onlyTheRegionIsReadAndWritten(Implementation impl) {
        Raster a = TestRasters.noise(new Random(6), 12, 10);
        Raster b = a.copy();
        Region region = Region.of(2, 3, 6, 5);
        for (int y = 0; y < 10; y++) {
            for (int x = 0; x < 12; x++) {
                if (!region.contains(x, y)) {
                    b.setRgb(x, y, 0xFFFFFF);
                }
            }
        }
        Raster outA = run(a, region, "xv", impl);
        Raster outB = run(b, region, "xv", impl);
        assertThat(TestRasters.changedOutside(a, outA, region)).isNull();
        for (int y = region.y(); y < region.endY(); y++) {
            for (int x = region.x(); x < region.endX(); x++) {
                assertThat(outA.rgbAt(x, y)).isEqualTo(outB.rgbAt(x, y));
            }
        }
    }
}
