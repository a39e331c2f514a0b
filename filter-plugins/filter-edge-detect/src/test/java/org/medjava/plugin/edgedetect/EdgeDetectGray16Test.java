package org.medjava.plugin.edgedetect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.4 rule by rule; the shared grey suite runs in the SuiteTest. */
class EdgeDetectGray16Test {
    private final Filter filter = new EdgeDetectFilter();

    private GrayRaster16 edges(GrayRaster16 src, Region region, String frame, Implementation impl) {
        return Filter.run(filter, src, region, filter.descriptor().params(Map.of("frame", frame)), impl);
    }

    /**
     * D4: on a flat signed image the interior has no edge and becomes min (−32768, not 0); the frame keeps its
     * input (u = 32768), which is maxv, and is stretched by 65535 / 32768 to 65535, that is max.
     */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void noEdgeIsTheBottomOfTheRange(Implementation impl) {
        GrayRaster16 flat = new GrayRaster16(4, 4, 16, true); // all 0
        GrayRaster16 out = edges(flat, null, "xv", impl);
        assertThat(GrayRasters.values(out)).isEqualTo(new int[][] {
            {32767, 32767, 32767, 32767},
            {32767, -32768, -32768, 32767},
            {32767, -32768, -32768, 32767},
            {32767, 32767, 32767, 32767}});
    }

    /** D5: a faint edge (E = 30 on 12 bits) with a black frame is stretched by 4095 / 30 to the top of the range. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void theStretchUsesTheRangeOfTheFormat(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(12, false, new int[][] {{0, 7, 30}, {0, 7, 30}, {0, 7, 30}});
        assertThat(GrayRasters.values(edges(src, null, "black", impl)))
                .isEqualTo(new int[][] {{0, 0, 0}, {0, 4095, 0}, {0, 0, 0}});
        GrayRaster16 signed = GrayRasters.of(12, true, new int[][] {{-2048, 7, 30}, {-2048, 7, 30}, {-2048, 7, 30}});
        // Gx = 3·(30 + 2048), E = 2078; black frame: maxv = 2078, so E becomes 4095, v = 2047
        assertThat(GrayRasters.values(edges(signed, null, "black", impl)))
                .isEqualTo(new int[][] {{-2048, -2048, -2048}, {-2048, 2047, -2048}, {-2048, -2048, -2048}});
    }

    /** u · R exceeds 2^31 on 16 bits: 65533 · 65535 / 65534 must be 65533, not an overflowed product. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void theStretchIsComputedIn64Bits(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(16, false, new int[][] {{65533, 65534, 3}});
        assertThat(GrayRasters.values(edges(src, Region.of(0, 0, 2, 1), "xv", impl)))
                .isEqualTo(new int[][] {{65533, 65535, 3}});
    }

    /** maxv = 0 (a black frame around a flat interior) rescales nothing. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void maxvZeroRescalesNothing(Implementation impl) {
        GrayRaster16 src = new GrayRaster16(5, 4, 10, true);
        java.util.Arrays.fill(src.words(), (short) 77);
        GrayRaster16 out = edges(src, null, "black", impl);
        assertThat(out.words()).containsOnly((short) -512);
    }
}
