package org.medjava.plugin.sharpen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.2 rule by rule; the shared grey suite runs in the SuiteTest. */
class SharpenGray16Test {
    private final Filter filter = new SharpenFilter();

    private GrayRaster16 sharpen(GrayRaster16 src, Region region, int p, Implementation impl) {
        return Filter.run(filter, src, region, filter.descriptor().params(Map.of("p", Integer.toString(p))), impl);
    }

    private static int[][] ring(int centre, int around) {
        return new int[][] {{around, around, around}, {around, centre, around}, {around, around, around}};
    }

    /**
     * p=50, R=4095, centre 2000 among 1000s: v' = 2·(2000 − 10000/18) / 4095, so u' = floor(2888.9 + 0.5) = 2889;
     * the same offset values in signed data give 2889 − 2048.
     */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void valueIsOffsetValueOverTheRange(Implementation impl) {
        GrayRaster16 unsigned = GrayRasters.of(12, false, ring(2000, 1000));
        assertThat(sharpen(unsigned, null, 50, impl).valueAt(1, 1)).isEqualTo(2889);
        GrayRaster16 signed = GrayRasters.of(12, true, ring(2000 - 2048, 1000 - 2048));
        assertThat(sharpen(signed, null, 50, impl).valueAt(1, 1)).isEqualTo(2889 - 2048);
    }

    /** D2: the result is clamped to the format's own range, at both ends, signed or not. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void resultIsClampedToTheRangeOfTheFormat(Implementation impl) {
        GrayRaster16 bright = GrayRasters.of(16, false, ring(60000, 100));
        assertThat(sharpen(bright, null, 75, impl).valueAt(1, 1)).isEqualTo(65535);
        GrayRaster16 dark = GrayRasters.of(16, true, ring(-32000, 32767));
        assertThat(sharpen(dark, null, 75, impl).valueAt(1, 1)).isEqualTo(-32768);
        GrayRaster16 bits10 = GrayRasters.of(10, false, ring(1000, 10));
        assertThat(sharpen(bits10, null, 99, impl).valueAt(1, 1)).isEqualTo(1023);
    }

    /** The frame keeps its input, and regions narrower or shorter than 3 change nothing. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void onlyTheInteriorOfRegionsOfAtLeast3x3Changes(Implementation impl) {
        GrayRaster16 src = GrayRasters.generate(GrayRasters.Kind.NOISE, 9, 8, 16, true, 3);
        GrayRaster16 out = sharpen(src, Region.of(2, 1, 5, 5), 75, impl);
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 9; x++) {
                boolean interior = x >= 3 && x <= 5 && y >= 2 && y <= 4;
                if (!interior) {
                    assertThat(out.valueAt(x, y)).as("(%d,%d)", x, y).isEqualTo(src.valueAt(x, y));
                }
            }
        }
        assertThat(sharpen(src, Region.of(0, 0, 2, 8), 75, impl).sameContent(src)).isTrue();
        assertThat(sharpen(src, Region.of(0, 0, 9, 2), 75, impl).sameContent(src)).isTrue();
    }

    /** p=0: v' = Vc exactly, so every value survives the round trip u → u/R → floor(·R + 0.5). */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void pZeroIsTheIdentityOnEveryFormat(Implementation impl) {
        for (int bits : new int[] {1, 7, 12, 16}) {
            for (boolean signed : new boolean[] {false, true}) {
                GrayRaster16 src = GrayRasters.generate(GrayRasters.Kind.NOISE, 12, 10, bits, signed, bits);
                assertThat(sharpen(src, null, 0, impl).sameContent(src)).as("%d %b", bits, signed).isTrue();
            }
        }
    }
}
