package org.medjava.plugin.blur;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Region;
import org.medjava.filter.testkit.GrayRasters;

/** docs/xv-filters-16bit.md 2.1 rule by rule; the shared grey suite runs in the SuiteTest. */
class BlurGray16Test {
    private final Filter filter = new BlurFilter();

    private GrayRaster16 blur(GrayRaster16 src, Region region, int n, Implementation impl) {
        return Filter.run(filter, src, region, filter.descriptor().params(Map.of("n", Integer.toString(n))), impl);
    }

    /** −3 and −2 average to −2.5: the floor is −3 (truncation toward zero would give −2). */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void signedMeansAreFlooredTowardMinusInfinity(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(16, true, new int[][] {{-3, -2}});
        assertThat(GrayRasters.values(blur(src, null, 3, impl))).isEqualTo(new int[][] {{-3, -3}});
        GrayRaster16 s12 = GrayRasters.of(12, true, new int[][] {{-2048, 2047, 0}});
        // (−2048 + 2047) / 2 = −0.5 → −1; (−2048 + 2047 + 0) / 3 = −1/3 → −1; (2047 + 0) / 2 = 1023.5 → 1023
        assertThat(GrayRasters.values(blur(s12, null, 3, impl))).isEqualTo(new int[][] {{-1, -1, 1023}});
    }

    /** Counts 9, 6 and 4 as in 8-bit, on the top of the 16-bit unsigned range. */
    @ParameterizedTest
    @EnumSource(Implementation.class)
    void countsClipToTheRegionAtTheTopOfTheRange(Implementation impl) {
        GrayRaster16 src = GrayRasters.of(16, false, new int[][] {{0, 0, 0}, {0, 65535, 0}, {0, 0, 0}});
        assertThat(GrayRasters.values(blur(src, null, 3, impl)))
                .isEqualTo(new int[][] {{16383, 10922, 16383}, {10922, 7281, 10922}, {16383, 10922, 16383}});
    }

    /** A 200×200 window of 65535 sums to 2 621 400 000 > 2^31: the sums must be 64-bit. */
    @ParameterizedTest
    @EnumSource(value = Implementation.class, names = {"OPTIMIZED", "PARALLEL"})
    void sumsBeyond31BitsAreExact(Implementation impl) {
        GrayRaster16 max = new GrayRaster16(200, 200, 16, false);
        Arrays.fill(max.words(), (short) 0xFFFF);
        assertThat(blur(max, null, 255, impl).sameContent(max)).isTrue();
        GrayRaster16 signedMax = new GrayRaster16(200, 200, 16, true);
        Arrays.fill(signedMax.words(), Short.MAX_VALUE);
        assertThat(blur(signedMax, null, 255, impl).sameContent(signedMax)).isTrue();
        // one zero in the corner: the centre window holds all 40000 pixels
        max.setValue(0, 0, 0);
        assertThat(blur(max, null, 255, impl).valueAt(100, 100)).isEqualTo((int) (65535L * 39999 / 40000));
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void maskOneIsTheIdentity(Implementation impl) {
        GrayRaster16 src = GrayRasters.generate(GrayRasters.Kind.NOISE, 13, 9, 12, true, 5);
        assertThat(blur(src, null, 1, impl).sameContent(src)).isTrue();
    }

    /** The interior's multiply-and-shift division equals division for every count the kernel meets. */
    @Test
    void interiorDivisionIsExact() {
        SplittableRandom rnd = new SplittableRandom(16);
        int checked = 0;
        for (int n = 3; n <= 255; n += 2) {
            for (int rows = 1; rows <= n; rows++) {
                int d = rows * n;
                long maxX = 65535L * d;
                LongDivision div = LongDivision.of(d, maxX);
                if (d <= 46000) {
                    assertThat(div).as("d=%d", d).isNotNull();
                }
                if (div == null) {
                    continue;
                }
                for (int k = 0; k < 20; k++) {
                    long q = rnd.nextLong(65536);
                    for (long x : new long[] {q * d, Math.min(maxX, q * d + d - 1), maxX, rnd.nextLong(maxX + 1)}) {
                        assertThat(div.divide(x)).as("%d / %d", x, d).isEqualTo(x / d);
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(100_000);
    }
}
