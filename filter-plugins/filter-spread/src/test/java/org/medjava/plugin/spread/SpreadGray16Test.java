package org.medjava.plugin.spread;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.8 rule by rule; the shared grey suite runs in the SuiteTest. */
class SpreadGray16Test {
    private final Filter filter = new SpreadFilter();

    /** Whole words move: the output is a permutation of the input, extremes of both signednesses included. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void theHistogramIsPreserved(Implementation impl) {
        for (boolean signed : new boolean[] {false, true}) {
            GrayRaster16 src = GrayRasters.generate(GrayRasters.Kind.EXTREMES, 23, 17, 16, signed, 9);
            GrayRaster16 out = Filter.run(filter, src, Region.of(2, 3, 15, 11),
                    filter.descriptor().params(Map.of("distance", "4", "seed", "77")), impl);
            short[] a = src.words().clone();
            short[] b = out.words().clone();
            Arrays.sort(a);
            Arrays.sort(b);
            assertThat(b).isEqualTo(a);
            assertThat(out.sameContent(src)).isFalse();
        }
    }

    /** For a given seed and region the permutation is the one the 8-bit filter applies. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void thePermutationIsTheEightBitOne(Implementation impl) {
        int w = 40;
        int h = 30;
        GrayRaster16 grey = new GrayRaster16(w, h, 16, false);
        Raster rgb = new Raster(w, h);
        for (int i = 0; i < w * h; i++) {
            grey.words()[i] = (short) i;
            rgb.setRgb(i % w, i / w, i);
        }
        for (String distance : new String[] {"5", "3x7", "0x2"}) {
            var params = filter.descriptor().params(Map.of("distance", distance, "seed", "2026"));
            GrayRaster16 g = Filter.run(filter, grey, Region.of(3, 2, 30, 25), params, impl);
            Raster r = Filter.run(filter, rgb, Region.of(3, 2, 30, 25), params, impl);
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    assertThat(g.valueAt(x, y)).as("(%d,%d) %s", x, y, distance).isEqualTo(r.rgbAt(x, y));
                }
            }
        }
    }
}
