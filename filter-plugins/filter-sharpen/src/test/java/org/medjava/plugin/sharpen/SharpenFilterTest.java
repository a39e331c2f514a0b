package org.medjava.plugin.sharpen;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Random;
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

/** Spec 2.2 rule by rule, with small hand-computed cases; every implementation must pass every test. */
class SharpenFilterTest {
    private final Filter filter = new SharpenFilter();

    private Raster run(Raster src, Region region, int p, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("p", Integer.toString(p)));
        return Filter.run(filter, src, region, params, impl);
    }

    @Test
    void parameterValidationQuotesTheRule() {
        FilterDescriptor d = filter.descriptor();
        assertThatThrownBy(() -> d.params(Map.of("p", "100")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("sharpen: parameter p=\"100\" is invalid: p must be an integer from 0 to 99 (default 75)");
        assertThatThrownBy(() -> d.params(Map.of("p", "-1"))).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("from 0 to 99");
        assertThatThrownBy(() -> d.params(Map.of("p", "abc"))).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("p=\"abc\"");
        assertThatThrownBy(() -> d.params(Map.of("n", "3"))).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("unknown parameter n");
        assertThat(d.params(Map.of("p", "0")).getInt("p")).isZero();
        assertThat(d.params(Map.of("p", "99")).getInt("p")).isEqualTo(99);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void frameKeepsItsInputValues(Implementation impl) {
        Raster src = TestRasters.noise(new Random(1), 7, 6);
        Region region = Region.of(1, 1, 5, 4);
        Raster out = run(src, region, 75, impl);
        for (int y = 1; y <= 4; y++) {
            for (int x = 1; x <= 5; x++) {
                if (x == 1 || x == 5 || y == 1 || y == 4) {
                    assertThat(out.rgbAt(x, y)).as("frame pixel (%d,%d)", x, y).isEqualTo(src.rgbAt(x, y));
                }
            }
        }
        assertThat(TestRasters.changedOutside(src, out, region)).isNull();
        assertThat(out.sameContent(src)).as("the interior changes").isFalse();
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void regionsNarrowerOrShorterThanThreeChangeNothing(Implementation impl) {
        Raster src = TestRasters.noise(new Random(2), 9, 9);
        for (Region region : List.of(Region.of(0, 0, 2, 9), Region.of(0, 0, 9, 2), Region.of(3, 3, 1, 1),
                Region.of(2, 0, 2, 2), Region.of(0, 4, 9, 1))) {
            assertThat(run(src, region, 75, impl).sameContent(src)).as("region %s", region).isTrue();
        }
        assertThat(run(TestRasters.noise(new Random(3), 2, 9), null, 99, impl).sameContent(
                TestRasters.noise(new Random(3), 2, 9))).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void pZeroGivesBackTheInput(Implementation impl) {
        // f = 0, g = 1: v' = (Vc - 0/9) / 1 = Vc, and xv's rgb→hsv→rgb round trip is exact for every colour
        // (checked once for all 2^24 colours while writing this test)
        Raster src = TestRasters.noise(new Random(4), 20, 15);
        assertThat(run(src, null, 0, impl).sameContent(src)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void flatGreyAreasStayUnchangedForEveryP(Implementation impl) {
        for (int p : new int[] {1, 50, 75, 99}) {
            for (int level : new int[] {0, 1, 77, 128, 254, 255}) {
                Raster src = TestRasters.filled(5, 5, level * 0x010101);
                assertThat(run(src, null, p, impl).sameContent(src)).as("p=%d level=%d", p, level).isTrue();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void p75IsFourVMinusThreeMean(Implementation impl) {
        // grey 3x3, neighbours 90, centre 100: mean = 820/9 = 91.11, 4*100 - 3*91.11 = 126.67 -> 127
        assertThat(centre(run(TestRasters.grey(3, 3, 90, 90, 90, 90, 100, 90, 90, 90, 90), null, 75, impl)))
                .isEqualTo(127 * 0x010101);
        // neighbours 99, centre 100: mean = 892/9 = 99.11, 400 - 297.33 = 102.67 -> 103
        assertThat(centre(run(TestRasters.grey(3, 3, 99, 99, 99, 99, 100, 99, 99, 99, 99), null, 75, impl)))
                .isEqualTo(103 * 0x010101);
        // neighbours 40, centre 100: 400 - 3*(420/9) = 260 -> clamped to v' = 1 -> 255
        assertThat(centre(run(TestRasters.grey(3, 3, 40, 40, 40, 40, 100, 40, 40, 40, 40), null, 75, impl)))
                .isEqualTo(0xFFFFFF);
        // neighbours 90, centre 60: 240 - 3*(780/9) = -20 -> clamped to v' = 0 -> 0
        assertThat(centre(run(TestRasters.grey(3, 3, 90, 90, 90, 90, 60, 90, 90, 90, 90), null, 75, impl)))
                .isEqualTo(0);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void generalPUsesTheSpecFormula(Implementation impl) {
        // p = 50: v' = (Vc - 0.5*S/9) / 0.5 = 2Vc - mean; neighbours 60, centre 100: 200 - 580/9 = 135.56 -> 136
        assertThat(centre(run(TestRasters.grey(3, 3, 60, 60, 60, 60, 100, 60, 60, 60, 60), null, 50, impl)))
                .isEqualTo(136 * 0x010101);
        // p = 20: v' = (Vc - 0.2*mean) / 0.8; same pixels: (100 - 0.2*64.44) / 0.8 = 108.89 -> 109
        assertThat(centre(run(TestRasters.grey(3, 3, 60, 60, 60, 60, 100, 60, 60, 60, 60), null, 20, impl)))
                .isEqualTo(109 * 0x010101);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void hueAndSaturationAreKeptInEverySector(Implementation impl) {
        // Centre colours with Sat = 0.75 in four hue sectors, grey neighbours 180. p = 75:
        // v' = 4*200/255 - 3*(8*180+200)/(9*255) = 253.33/255; fr = 1/3 or 2/3 so the other channels are
        // v'*0.25 = 63.33 -> 63 and v'*0.5 = 126.67 -> 127.
        int n = 180 * 0x010101;
        int[][] cases = {
            {0xC86432, 0xFD7F3F}, // (200,100,50): H = 20,  j = 0 -> (v, T, P) = (253, 127, 63)
            {0x32C864, 0x3FFD7F}, // (50,200,100): H = 140, j = 2 -> (P, v, T) = (63, 253, 127)
            {0x6432C8, 0x7F3FFD}, // (100,50,200): H = 260, j = 4 -> (T, P, v) = (127, 63, 253)
            {0xC83264, 0xFD3F7F}, // (200,50,100): H = 340, j = 5 -> (v, P, Q) = (253, 63, 127)
            {0x64C832, 0x7FFD3F}, // (100,200,50): H = 100, j = 1 -> (Q, v, P) = (127, 253, 63)
            {0x3264C8, 0x3F7FFD}, // (50,100,200): H = 220, j = 3 -> (P, Q, v) = (63, 127, 253)
        };
        for (int[] c : cases) {
            Raster src = TestRasters.of(3, 3, n, n, n, n, c[0], n, n, n, n);
            assertThat(Integer.toHexString(centre(run(src, null, 75, impl))))
                    .as("centre %06x", c[0]).isEqualTo(Integer.toHexString(c[1]));
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void brightnessClampedToOneKeepsTheHue(Implementation impl) {
        // (200,100,50) on black: S = Vc, v' = (Vc - 0.75*Vc/9)/0.25 = 11/3 Vc > 1 -> 1. Sat = 0.75,
        // H = 20.000000000000004, fr = 0.33333333333333337, T = 1 - 0.75*(1 - fr) = 0.5 exactly, P = 0.25:
        // (v, T, P) = (floor(255.5), floor(128.0), floor(64.25)) = (255, 128, 64)
        Raster src = TestRasters.of(3, 3, 0, 0, 0, 0, 0xC86432, 0, 0, 0, 0);
        assertThat(Integer.toHexString(centre(run(src, null, 75, impl)))).isEqualTo("ff8040");
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void greyPixelsStayGrey(Implementation impl) {
        // Sat = 0 -> H = -1 -> r = g = b = v'
        Random rnd = new Random(5);
        Raster src = new Raster(16, 12);
        for (int y = 0; y < 12; y++) {
            for (int x = 0; x < 16; x++) {
                src.setRgb(x, y, (x + y) % 3 == 0 ? rnd.nextInt(256) * 0x010101 : rnd.nextInt(1 << 24));
            }
        }
        Raster out = run(src, null, 75, impl);
        for (int y = 0; y < 12; y++) {
            for (int x = 0; x < 16; x++) {
                int in = src.rgbAt(x, y);
                if (in == (in & 0xFF) * 0x010101) {
                    int o = out.rgbAt(x, y);
                    assertThat(o).as("(%d,%d)", x, y).isEqualTo((o & 0xFF) * 0x010101);
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void windowReadsOnlyTheRegion(Implementation impl) {
        // changing pixels outside the region must not change the result inside it
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
        Raster outA = run(a, region, 75, impl);
        Raster outB = run(b, region, 75, impl);
        for (int y = region.y(); y < region.endY(); y++) {
            for (int x = region.x(); x < region.endX(); x++) {
                assertThat(outA.rgbAt(x, y)).isEqualTo(outB.rgbAt(x, y));
            }
        }
    }

    private static int centre(Raster r) {
        return r.rgbAt(r.width() / 2, r.height() / 2);
    }
}
