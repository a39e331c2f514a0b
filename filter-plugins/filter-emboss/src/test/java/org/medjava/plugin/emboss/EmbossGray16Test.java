package org.medjava.plugin.emboss;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.5 rule by rule; the shared grey suite runs in the SuiteTest. */
class EmbossGray16Test {
    private final Filter filter = new EmbossFilter();

    private GrayRaster16 emboss(GrayRaster16 src, Region region, String rounding, Implementation impl) {
        return Filter.run(filter, src, region, filter.descriptor().params(Map.of("rounding", rounding)), impl);
    }

    /** D6: the mid-grey is 2^(b−1) for unsigned data and 0 for signed data: flat images become exactly that. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void flatAreasBecomeTheMiddleOfTheRange(Implementation impl) {
        GrayRaster16 u12 = GrayRasters.generate(GrayRasters.Kind.FLAT, 6, 5, 12, false, 1);
        assertThat(emboss(u12, null, "xv", impl).words()).containsOnly((short) 2048);
        GrayRaster16 u16 = GrayRasters.generate(GrayRasters.Kind.FLAT, 6, 5, 16, false, 2);
        assertThat(emboss(u16, null, "xv", impl).words()).containsOnly((short) 32768);
        GrayRaster16 s16 = GrayRasters.generate(GrayRasters.Kind.FLAT, 6, 5, 16, true, 3);
        assertThat(emboss(s16, null, "floor", impl).words()).containsOnly((short) 0);
        GrayRaster16 s1 = GrayRasters.generate(GrayRasters.Kind.FLAT, 6, 5, 1, true, 4);
        assertThat(emboss(s1, null, "xv", impl).words()).containsOnly((short) 0);
    }

    /** The strongest responses, S = ±4R, land exactly on the ends of the range: the clamp never binds. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void extremeSlopesReachTheEndsOfTheRange(Implementation impl) {
        int lo = -32768;
        int hi = 32767;
        GrayRaster16 up = GrayRasters.of(16, true, new int[][] {{lo, lo, lo}, {lo, lo, hi}, {lo, hi, hi}});
        assertThat(emboss(up, null, "xv", impl).valueAt(1, 1)).isEqualTo(32767);
        assertThat(emboss(up, null, "floor", impl).valueAt(1, 1)).isEqualTo(32767);
        GrayRaster16 down = GrayRasters.of(16, true, new int[][] {{hi, hi, hi}, {hi, hi, lo}, {hi, lo, lo}});
        assertThat(emboss(down, null, "xv", impl).valueAt(1, 1)).as("xv: 1 above min").isEqualTo(-32767);
        assertThat(emboss(down, null, "floor", impl).valueAt(1, 1)).isEqualTo(-32768);
        assertThat(emboss(down, null, "xv", impl).valueAt(0, 0)).as("frame: mid-grey").isZero();
    }

    /** The divisor stays 8, so xv's dead zone is −7..+7 value units at every bit depth. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void theDeadZoneIsSevenUnits(Implementation impl) {
        // S = P(+1,0) − P(−1,0) with everything else equal: 7 and 8, −7 and −9
        int[][] seven = {{100, 100, 100}, {100, 100, 107}, {100, 100, 100}};
        int[][] eight = {{100, 100, 100}, {100, 100, 108}, {100, 100, 100}};
        int[][] minusNine = {{100, 100, 100}, {109, 100, 100}, {100, 100, 100}};
        assertThat(emboss(GrayRasters.of(12, false, seven), null, "xv", impl).valueAt(1, 1)).isEqualTo(2048);
        assertThat(emboss(GrayRasters.of(12, false, eight), null, "xv", impl).valueAt(1, 1)).isEqualTo(2049);
        assertThat(emboss(GrayRasters.of(12, false, minusNine), null, "xv", impl).valueAt(1, 1)).isEqualTo(2047);
        assertThat(emboss(GrayRasters.of(12, false, minusNine), null, "floor", impl).valueAt(1, 1)).isEqualTo(2046);
        assertThat(emboss(GrayRasters.of(12, false, seven), null, "floor", impl).valueAt(1, 1)).isEqualTo(2048);
    }
}
