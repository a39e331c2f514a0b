package org.medjava.plugin.spread;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
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

/**
 * Spec 2.8 rule by rule for every implementation. Small expected outputs are worked out by hand from the spec's
 * formulas and the XVR outputs (seed 1: 1804289383 846930886 1681692777 1714636915 …; seed 7: 1045618677
 * 1863967299 1272579899 461085871 21961325 1105564443 2138782586 68574097).
 */
class SpreadFilterTest {
    private final Filter filter = new SpreadFilter();

    private Raster spread(Raster src, Region region, String distance, int seed, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("distance", distance, "seed", Integer.toString(seed)));
        return Filter.run(filter, src, region, params, impl);
    }

    /** Pixels labelled 1, 2, 3, … in raster order (grey levels 10, 20, 30, …). */
    private static Raster labelled(int w, int h) {
        int[][] rows = new int[h][w];
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                rows[y][x] = 10 * (y * w + x + 1);
            }
        }
        return TestRasters.grey(rows);
    }

    /** The labels of a {@link #labelled} raster after filtering, in raster order. */
    private static int[] labels(Raster r) {
        int[] out = new int[r.width() * r.height()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (r.rgb()[3 * i] & 0xFF) / 10;
        }
        return out;
    }

    @Test
    void invalidValuesAreRejectedQuotingTheRule() {
        FilterDescriptor d = filter.descriptor();
        for (String bad : new String[] {"-1", "65536", "3x65536", "5x", "x5", "1x2x3", "five", ""}) {
            assertThatThrownBy(() -> d.params(Map.of("distance", bad)))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("spread: parameter distance=\"" + bad + "\" is invalid: "
                            + "distance must be \"N\" or \"AxB\" with each number from 0 to 65535 (default 5)");
        }
        for (String bad : new String[] {"-1", "2147483648", "1.5", "x"}) {
            assertThatThrownBy(() -> d.params(Map.of("seed", bad)))
                    .isInstanceOf(InvalidParameterException.class)
                    .hasMessageStartingWith("spread: parameter seed=\"" + bad + "\" is invalid: "
                            + "seed must be an integer from 0 to 2147483647 (default 1)");
        }
        assertThatThrownBy(() -> d.params(Map.of("seed-from-clock", "yes")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageStartingWith("spread: parameter seed-from-clock=\"yes\" is invalid: "
                        + "seed-from-clock must be true or false (default false)");
        assertThat(d.params(Map.of("seed-from-clock", "TRUE")).getBoolean("seed-from-clock")).isTrue();
    }

    /**
     * 2×1 image, box "1x0", seed 1. Pixel (0,0): x1 = 0 + 1804289383 mod 2 = 1, swap → [2 1]; R2 = 846930886 is
     * drawn although the y range has one value. Pixel (1,0): x1 = 0 + 1681692777 mod 2 = 1, itself → [2 1].
     * Had R2 been skipped, pixel (1,0) would use 846930886 mod 2 = 0 and swap back to [1 2].
     */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void everyPixelDrawsTwiceEvenWhenARangeHasOneValue(Implementation impl) {
        assertThat(labels(spread(labelled(2, 1), null, "1x0", 1, impl))).containsExactly(2, 1);
    }

    /**
     * 2×2 image [1 2; 3 4], seed 7. Pixel (0,0) draws x1 = 1045618677 mod 2 = 1. In diamond mode "1" that leaves
     * r = 0, so y1 = 0 whatever R2 is; in box mode "1x1", y1 = 1863967299 mod 2 = 1, a diagonal swap.
     * Diamond: (0,0)↔(1,0) [2 1; 3 4]; (1,0): x1 = 1, r = 1, y1 = 461085871 mod 2 = 1 → [2 4; 3 1];
     * (0,1): x1 = 1, r = 0, y1 = 1 → [2 4; 1 3]; (1,1): x1 = 0 (2138782586 even), r = 0 → [2 4; 3 1].
     * Box: (0,0)↔(1,1) [4 2; 3 1]; (1,0)↔(1,1) [4 1; 3 2]; (0,1)↔(1,1) [4 1; 2 3]; (1,1)↔(0,1) [4 1; 3 2].
     */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void diamondRestrictsTheRowRangeByWhatIsLeftOfTheRadius(Implementation impl) {
        assertThat(labels(spread(labelled(2, 2), null, "1", 7, impl))).containsExactly(2, 4, 3, 1);
        assertThat(labels(spread(labelled(2, 2), null, "1x1", 7, impl))).containsExactly(4, 1, 3, 2);
    }

    /** Targets are clipped to the region (columns 1..2 of a 4×3 image), not the image. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void targetsStayInsideTheRegion(Implementation impl) {
        int[] out = labels(spread(labelled(4, 3), Region.of(1, 0, 2, 3), "5", 12345, impl));
        assertThat(out).containsExactly(1, 10, 2, 4, 5, 7, 3, 8, 9, 11, 6, 12);
        Raster noise = TestRasters.noise(30, 20, 4);
        Region region = Region.of(7, 5, 9, 8);
        Raster spread = spread(noise, region, "4x6", 99, impl);
        for (int y = 0; y < noise.height(); y++) {
            for (int x = 0; x < noise.width(); x++) {
                if (!region.contains(x, y)) {
                    assertThat(spread.rgbAt(x, y)).as("(%d,%d)", x, y).isEqualTo(noise.rgbAt(x, y));
                }
            }
        }
        assertThat(pixels(spread, region)).isEqualTo(pixels(noise, region));
    }

    /** The output is a permutation of the input: the histogram (indeed the multiset of colours) is preserved. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void histogramIsPreserved(Implementation impl) {
        Raster src = TestRasters.noise(64, 48, 21);
        for (String distance : new String[] {"5", "1", "3x7", "0x2", "40"}) {
            Raster out = spread(src, null, distance, 3, impl);
            assertThat(out.sameContent(src)).as(distance).isFalse();
            assertThat(pixels(out, src.bounds())).as(distance).isEqualTo(pixels(src, src.bounds()));
        }
    }

    /** Box "Ax0" moves pixels within their row only, "0xB" within their column only. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void boxModeWithAZeroExtentMovesAlongOneAxisOnly(Implementation impl) {
        Raster src = TestRasters.noise(20, 15, 8);
        Raster rows = spread(src, null, "6x0", 5, impl);
        Raster cols = spread(src, null, "0x6", 5, impl);
        for (int y = 0; y < src.height(); y++) {
            assertThat(pixels(rows, Region.of(0, y, 20, 1))).isEqualTo(pixels(src, Region.of(0, y, 20, 1)));
        }
        for (int x = 0; x < src.width(); x++) {
            assertThat(pixels(cols, Region.of(x, 0, 1, 15))).isEqualTo(pixels(src, Region.of(x, 0, 1, 15)));
        }
        assertThat(rows.sameContent(src)).isFalse();
        assertThat(cols.sameContent(src)).isFalse();
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void zeroDistanceDoesNothing(Implementation impl) {
        Raster src = TestRasters.noise(9, 7, 1);
        assertThat(spread(src, null, "0", 1, impl).rgb()).isEqualTo(src.rgb());
        assertThat(spread(src, null, "0x0", 1, impl).rgb()).isEqualTo(src.rgb());
    }

    /** Swaps accumulate: with radius 1, a pixel can end up much farther than 1 from where it started. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void swapsAccumulateSoPixelsCanTravelFartherThanTheRadius(Implementation impl) {
        int[] out = labels(spread(labelled(20, 1), null, "1", 1, impl));
        int farthest = 0;
        for (int i = 0; i < out.length; i++) {
            farthest = Math.max(farthest, Math.abs(out[i] - 1 - i));
        }
        assertThat(farthest).isGreaterThan(1);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void seedZeroIsSeedOneAndOtherSeedsDiffer(Implementation impl) {
        Raster src = TestRasters.noise(25, 19, 2);
        Raster one = spread(src, null, "5", 1, impl);
        assertThat(spread(src, null, "5", 0, impl).rgb()).isEqualTo(one.rgb());
        assertThat(spread(src, null, "5", 2, impl).rgb()).isNotEqualTo(one.rgb());
        assertThat(Filter.run(filter, src, null, filter.descriptor().defaults(), impl).rgb()).isEqualTo(one.rgb());
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void seedFromClockStillPermutes(Implementation impl) {
        Raster src = TestRasters.noise(25, 19, 2);
        Map<String, String> raw = new HashMap<>();
        raw.put("seed-from-clock", "true");
        Raster out = Filter.run(filter, src, null, filter.descriptor().params(raw), impl);
        assertThat(pixels(out, src.bounds())).isEqualTo(pixels(src, src.bounds()));
        assertThat(SpreadArgs.clockSeed()).isNotNegative();
    }

    /** The packed colours of the region, sorted. */
    private static int[] pixels(Raster r, Region region) {
        Region c = region.clip(r.width(), r.height());
        int[] out = new int[c.width() * c.height()];
        int i = 0;
        for (int y = c.y(); y < c.endY(); y++) {
            for (int x = c.x(); x < c.endX(); x++) {
                out[i++] = r.rgbAt(x, y);
            }
        }
        Arrays.sort(out);
        return out;
    }
}
