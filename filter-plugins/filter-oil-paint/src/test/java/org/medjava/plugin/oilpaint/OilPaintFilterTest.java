package org.medjava.plugin.oilpaint;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

/** Spec 2.6 rule by rule, with small hand-computed cases; every implementation must pass every test. */
class OilPaintFilterTest {
    private static final int A = 0x102030;
    private static final int B = 0x302010;
    private static final int Z = 0xABCDEF;

    private final Filter filter = new OilPaintFilter();

    private Raster run(Raster src, Region region, int n, String window, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("n", Integer.toString(n), "window", window));
        return Filter.run(filter, src, region, params, impl);
    }

    /** A w x h image whose pixels all have different colours (none equal to A, B or Z). */
    private static Raster distinct(int w, int h) {
        Raster r = new Raster(w, h);
        for (int i = 0; i < w * h; i++) {
            r.setRgb(i % w, i / w, (i * 0x9E3779B1 >>> 8) | 0x010000 * (i & 1)); // distinct 24-bit values
        }
        return r;
    }

    @Test
    void distinctHelperReallyIsDistinct() {
        Raster r = distinct(40, 40);
        assertThat(java.util.stream.IntStream.range(0, 1600).map(i -> r.rgbAt(i % 40, i / 40)).distinct().count())
                .isEqualTo(1600);
    }

    @Test
    void parameterValidationQuotesTheRule() {
        FilterDescriptor d = filter.descriptor();
        assertThatThrownBy(() -> d.params(Map.of("n", "32")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("oil-paint: parameter n=\"32\" is invalid: n must be an integer from 1 to 31 (default 3)");
        assertThatThrownBy(() -> d.params(Map.of("n", "0"))).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("from 1 to 31");
        assertThatThrownBy(() -> d.params(Map.of("window", "center")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("oil-paint: parameter window=\"center\" is invalid: window must be one of xv, centred (default xv)");
        assertThat(d.params(Map.of("n", "4")).getInt("n")).isEqualTo(4); // even n is allowed
    }

    @Test
    void windowsFollowXvsAdjustment() {
        // xv: odd n -> n+1, h = n' div 2, [x-h, x+h-1]
        assertWindow(Window.of(3, false), -2, 1);
        assertWindow(Window.of(4, false), -2, 1);
        assertWindow(Window.of(1, false), -1, 0);
        assertWindow(Window.of(2, false), -1, 0);
        assertWindow(Window.of(5, false), -3, 2);
        assertWindow(Window.of(31, false), -16, 15);
        // centred: h = n div 2, [x-h, x+h], no adjustment
        assertWindow(Window.of(1, true), 0, 0);
        assertWindow(Window.of(3, true), -1, 1);
        assertWindow(Window.of(4, true), -2, 2);
        assertWindow(Window.of(31, true), -15, 15);
    }

    private static void assertWindow(Window w, int lo, int hi) {
        assertThat(new int[] {w.lo, w.hi, w.size}).containsExactly(lo, hi, hi - lo + 1);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void distinctColoursTranslateByTwoTwoClampedAtTopAndLeft(Implementation impl) {
        Raster src = distinct(9, 7);
        Raster out = run(src, null, 3, "xv", impl);
        for (int y = 0; y < 7; y++) {
            for (int x = 0; x < 9; x++) {
                assertThat(out.rgbAt(x, y)).as("(%d,%d)", x, y)
                        .isEqualTo(src.rgbAt(Math.max(x - 2, 0), Math.max(y - 2, 0)));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void oddNBecomesNPlusOne(Implementation impl) {
        Raster src = distinct(10, 9);
        // n = 1 and 2: 2x2 window [x-1, x]: translation by (+1,+1); n = 5 and 6: 6x6 [x-3, x+2]: (+3,+3);
        // n = 7: 8x8, (+4,+4) (the large-window code path)
        int[][] nShift = {{1, 1}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {6, 3}, {7, 4}, {8, 4}};
        for (int[] ns : nShift) {
            Raster out = run(src, null, ns[0], "xv", impl);
            for (int y = 0; y < 9; y++) {
                for (int x = 0; x < 10; x++) {
                    assertThat(out.rgbAt(x, y)).as("n=%d (%d,%d)", ns[0], x, y)
                            .isEqualTo(src.rgbAt(Math.max(x - ns[1], 0), Math.max(y - ns[1], 0)));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void largestMaskTranslatesBySixteen(Implementation impl) {
        // n = 31 -> 32x32 window [x-16, x+15]
        Raster src = distinct(24, 20);
        Raster out = run(src, null, 31, "xv", impl);
        for (int y = 0; y < 20; y++) {
            for (int x = 0; x < 24; x++) {
                assertThat(out.rgbAt(x, y)).isEqualTo(src.rgbAt(Math.max(x - 16, 0), Math.max(y - 16, 0)));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void mostFrequentColourIsCopiedVerbatim(Implementation impl) {
        // pixel (2,2) of a 4x4 image: its window is the whole image. A three times, B twice (B first).
        Raster src = distinct(4, 4);
        src.setRgb(1, 0, B);
        src.setRgb(3, 1, A);
        src.setRgb(2, 2, B);
        src.setRgb(0, 3, A);
        src.setRgb(3, 3, A);
        assertThat(run(src, null, 3, "xv", impl).rgbAt(2, 2)).isEqualTo(A);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void tiesGoToTheEarliestFirstOccurrenceInRowMajorOrder(Implementation impl) {
        // B first at (3,0) (index 3), A first at (0,1) (index 4): B wins although A comes first by columns
        Raster src = distinct(4, 4);
        src.setRgb(3, 0, B);
        src.setRgb(0, 1, A);
        src.setRgb(1, 2, B);
        src.setRgb(3, 3, A);
        assertThat(run(src, null, 3, "xv", impl).rgbAt(2, 2)).isEqualTo(B);
        // A at indices 0 and 15, B at 1 and 2: A's first occurrence is earlier, so A wins
        Raster src2 = distinct(4, 4);
        src2.setRgb(0, 0, A);
        src2.setRgb(3, 3, A);
        src2.setRgb(1, 0, B);
        src2.setRgb(2, 0, B);
        assertThat(run(src2, null, 3, "xv", impl).rgbAt(2, 2)).isEqualTo(A);
        // three colours twice each: the first one seen wins
        Raster src3 = TestRasters.of(4, 4,
                1, 2, 3, 4,
                5, B, 6, A,
                7, Z, 8, 9,
                B, 10, Z, A);
        assertThat(run(src3, null, 3, "xv", impl).rgbAt(2, 2)).isEqualTo(B);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void coloursAreExactTriples(Implementation impl) {
        // (1,2,3), (3,2,1) and (2,2,2) have the same sum and MONO-ish values but are different colours
        Raster src = TestRasters.of(4, 4,
                0x010203, 0x030201, 0x020202, 0x030201,
                0x010203, 0x020202, 0x010203, 0x020202,
                0x020202, 0x030201, 0x000000, 0x0A0A0A,
                0x0B0B0B, 0x0C0C0C, 0x0D0D0D, 0x0E0E0E);
        // counts: 0x010203 3x (first at 0), 0x020202 4x (first at 2), 0x030201 3x -> 0x020202
        assertThat(run(src, null, 3, "xv", impl).rgbAt(2, 2)).isEqualTo(0x020202);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void cellsOutsideTheRegionAreSkipped(Implementation impl) {
        // outside: one colour everywhere; inside: distinct colours -> translation clamped to the region
        Raster src = TestRasters.filled(8, 8, Z);
        Raster inner = distinct(4, 4);
        for (int y = 0; y < 4; y++) {
            for (int x = 0; x < 4; x++) {
                src.setRgb(x + 2, y + 2, inner.rgbAt(x, y));
            }
        }
        Region region = Region.of(2, 2, 4, 4);
        Raster out = run(src, region, 3, "xv", impl);
        for (int y = 2; y < 6; y++) {
            for (int x = 2; x < 6; x++) {
                assertThat(out.rgbAt(x, y)).as("(%d,%d)", x, y)
                        .isEqualTo(src.rgbAt(Math.max(x - 2, 2), Math.max(y - 2, 2)));
            }
        }
        assertThat(TestRasters.changedOutside(src, out, region)).isNull();
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void clippedWindowsAtTheBorderStillFindTheMode(Implementation impl) {
        // pixel (0,0): window clipped to (0..1, 0..1); A at (1,0) and (1,1) beats the first cell (0,0)
        Raster src = distinct(5, 5);
        src.setRgb(1, 0, A);
        src.setRgb(1, 1, A);
        Raster out = run(src, null, 3, "xv", impl);
        assertThat(out.rgbAt(0, 0)).isEqualTo(A);
        assertThat(out.rgbAt(1, 1)).isEqualTo(A);
        // (4,4): window cols 2..4 (right edge reached at +1 = 5 which is outside), rows 2..4
        assertThat(out.rgbAt(4, 4)).isEqualTo(src.rgbAt(2, 2));
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void centredWindow(Implementation impl) {
        Raster src = distinct(7, 6);
        // n = 1 centred: 1x1, the identity
        assertThat(run(src, null, 1, "centred", impl).sameContent(src)).isTrue();
        // n = 3 centred: 3x3 [x-1, x+1]: distinct -> translation by (+1,+1)
        Raster out = run(src, null, 3, "centred", impl);
        for (int y = 0; y < 6; y++) {
            for (int x = 0; x < 7; x++) {
                assertThat(out.rgbAt(x, y)).isEqualTo(src.rgbAt(Math.max(x - 1, 0), Math.max(y - 1, 0)));
            }
        }
        // the centred window reaches to +1: A at (4,3) and (4,4) wins for (3,3); xv's [x-2, x+1] also has them,
        // but for (5,5) only the centred window has both (4,4) and (5,4)... check (4,4) with A below-right
        Raster rep = distinct(7, 6);
        rep.setRgb(5, 5, A);
        rep.setRgb(5, 4, A);
        assertThat(run(rep, null, 3, "centred", impl).rgbAt(4, 4)).isEqualTo(A);
        // xv n=3 window of (4,4) is cols 2..5, rows 2..5: also contains both
        assertThat(run(rep, null, 3, "xv", impl).rgbAt(4, 4)).isEqualTo(A);
        // xv n=1 window of (4,4) is cols 3..4, rows 3..4: neither -> first cell (3,3)
        assertThat(run(rep, null, 1, "xv", impl).rgbAt(4, 4)).isEqualTo(rep.rgbAt(3, 3));
        // n = 2 centred is also 3x3 (no adjustment of n)
        assertThat(run(rep, null, 2, "centred", impl).sameContent(run(rep, null, 3, "centred", impl))).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void flatImageStaysFlat(Implementation impl) {
        Raster src = TestRasters.filled(9, 8, Z);
        for (int n : new int[] {1, 3, 6, 7, 12}) {
            assertThat(run(src, null, n, "xv", impl).sameContent(src)).isTrue();
            assertThat(run(src, null, n, "centred", impl).sameContent(src)).isTrue();
        }
    }
}
