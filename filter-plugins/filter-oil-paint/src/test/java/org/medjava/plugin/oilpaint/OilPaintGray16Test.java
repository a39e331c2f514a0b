package org.medjava.plugin.oilpaint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.6 rule by rule; the shared grey suite runs in the SuiteTest. */
class OilPaintGray16Test {
    private final Filter filter = new OilPaintFilter();

    private GrayRaster16 oil(GrayRaster16 src, Map<String, String> params, Implementation impl) {
        return Filter.run(filter, src, null, filter.descriptor().params(params), impl);
    }

    /**
     * D7: n=1 (adjusted to 2) gives the window [x−1, x] × [y−1, y]. At (1,1) the cells are A, B, B, A: both occur
     * twice and A occurs first, so A wins (counting while walking would pick B, the first to reach 2).
     */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void tiesGoToTheValueThatOccursFirst(Implementation impl) {
        int a = -32768;
        int b = 32767;
        GrayRaster16 src = GrayRasters.of(16, true, new int[][] {{a, b}, {b, a}});
        assertThat(oil(src, Map.of("n", "1"), impl).valueAt(1, 1)).isEqualTo(a);
        GrayRaster16 flipped = GrayRasters.of(16, false, new int[][] {{65535, 0}, {0, 65535}});
        assertThat(oil(flipped, Map.of("n", "1"), impl).valueAt(1, 1)).isEqualTo(65535);
    }

    /** The most frequent value wins over earlier ones, at both ends of the range. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void theMostFrequentValueIsCopiedVerbatim(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(12, true, new int[][] {{5, 2047, 2047}, {-2048, 2047, 6}, {7, 8, 9}});
        assertThat(oil(src, Map.of("n", "3", "window", "centred"), impl).valueAt(1, 1)).isEqualTo(2047);
    }

    /** All values distinct (16-bit noise): the default window makes the filter a translation by (+2, +2). */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void distinctValuesTranslateByTwo(Implementation impl) {
        GrayRaster16 src = new GrayRaster16(9, 7, 16, false);
        for (int i = 0; i < src.words().length; i++) {
            src.words()[i] = (short) (1000 * i + 7);
        }
        GrayRaster16 out = oil(src, Map.of(), impl);
        for (int y = 2; y < 7; y++) {
            for (int x = 2; x < 9; x++) {
                assertThat(out.valueAt(x, y)).isEqualTo(src.valueAt(x - 2, y - 2));
            }
        }
        assertThat(out.valueAt(0, 0)).isEqualTo(src.valueAt(0, 0));
        assertThat(out.valueAt(5, 1)).isEqualTo(src.valueAt(3, 0));
    }
}
