package org.medjava.plugin.pixelize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.7 rule by rule; the shared grey suite runs in the SuiteTest. */
class PixelizeGray16Test {
    private final Filter filter = new PixelizeFilter();

    private GrayRaster16 pixelize(GrayRaster16 src, Region region, String block, Implementation impl) {
        return Filter.run(filter, src, region, filter.descriptor().params(Map.of("block", block)), impl);
    }

    /** Means are floors of the signed values: −3 and −2 give −3; the centred grid leaves partial blocks. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void blockMeansFloorOnSignedData(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(12, true, new int[][] {{-3, -2, 2047, -2048, 5}});
        // sw = 5, A = 2: nw = 3, excess 1: the left overhang is 0, so the blocks are [0,2), [2,4), [4,5)
        assertThat(GrayRasters.values(pixelize(src, null, "2x1", impl)))
                .isEqualTo(new int[][] {{-3, -3, -1, -1, 5}});
    }

    /** Block sums exceed 2^32 (90000 × 65535) and a block taller than 2^31 / R takes 64-bit column sums. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void blockSumsAre64Bit(Implementation impl) {
        GrayRaster16 max = new GrayRaster16(300, 300, 16, false);
        Arrays.fill(max.words(), (short) 0xFFFF);
        assertThat(pixelize(max, null, "300", impl).sameContent(max)).isTrue();
        GrayRaster16 tall = new GrayRaster16(2, 40000, 16, false);
        for (int i = 0; i < tall.words().length; i += 2) {
            tall.words()[i] = (short) 0xFFFF;
        }
        assertThat(pixelize(tall, null, "2x40000", impl).words()).containsOnly((short) 32767);
    }
}
