package org.medjava.plugin.edgedetect;

import org.medjava.filter.testkit.TestRasters;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Random;
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

/** Spec 2.4 rule by rule, with small hand-computed cases; every implementation must pass every test. */
class EdgeDetectFilterTest {
    private final Filter filter = new EdgeDetectFilter();

    private Raster run(Raster src, Region region, String frame, Implementation impl) {
        FilterParams params = filter.descriptor().params(Map.of("frame", frame));
        return Filter.run(filter, src, region, params, impl);
    }

    @Test
    void parameterValidationQuotesTheRule() {
        FilterDescriptor d = filter.descriptor();
        assertThatThrownBy(() -> d.params(Map.of("frame", "white")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("edge-detect: parameter frame=\"white\" is invalid: frame must be one of xv, black (default xv)");
        assertThatThrownBy(() -> d.params(Map.of("n", "3"))).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("unknown parameter n");
    }

    @Test
    void optimizedTableIsAThirdOfTheAbsoluteGradient() {
        // lanes carry G + 765 for G in -765..765
        for (int g = -765; g <= 765; g++) {
            assertThat(EdgeDetectOptimized.THIRD_OF_ABS[g + 765]).as("G=%d", g).isEqualTo(Math.abs(g) / 3);
        }
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void prewittMaxNormDivThreePerChannel(Implementation impl) {
        // 4x3, whole image. Pixel (1,1) sees columns 0..2 only. The white frame pixel (3,0) makes maxv = 255,
        // so step 3 changes nothing and (1,1) shows the raw magnitudes.
        // R: 10 20 30 / 40 50 60 / 70 80 90: Gx = 180-120 = 60, Gy = 240-60 = 180 -> 180/3 = 60
        // G: 200 0 0 in every row: Gx = 0-600 -> |-600| = 600, Gy = 0 -> 200
        // B: only (0,2) = 1: Gx = -1, Gy = +1 -> 1/3 = 0
        Raster src = TestRasters.of(4, 3,
                rgb(10, 200, 0), rgb(20, 0, 0), rgb(30, 0, 0), 0xFFFFFF,
                rgb(40, 200, 0), rgb(50, 0, 0), rgb(60, 0, 0), 0,
                rgb(70, 200, 1), rgb(80, 0, 0), rgb(90, 0, 0), 0);
        Raster out = run(src, null, "xv", impl);
        assertThat(out.rgbAt(1, 1)).isEqualTo(rgb(60, 200, 0));
        // the frame keeps its input (maxv = 255: no rescale)
        assertThat(out.rgbAt(0, 0)).isEqualTo(src.rgbAt(0, 0));
        assertThat(out.rgbAt(3, 0)).isEqualTo(0xFFFFFF);
        assertThat(out.rgbAt(2, 2)).isEqualTo(src.rgbAt(2, 2));
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void stretchUsesTheLargestLuminanceFrameIncluded(Implementation impl) {
        // grey 3x3 gradient: centre Gx = 60, Gy = 180 -> 60; maxv = 90 (a frame pixel), v -> v*255/90
        Raster src = TestRasters.grey(3, 3, 10, 20, 30, 40, 50, 60, 70, 80, 90);
        Raster out = run(src, null, "xv", impl);
        assertThat(greys(out)).containsExactly(28, 56, 85, 113, 170, 170, 198, 226, 255);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void oneBrightFramePixelCancelsTheStretch(Implementation impl) {
        // Interior row 2 has edges of 10 (from the 30 at (2,3)); maxv = 30 stretches them to 85.
        Raster dark = TestRasters.grey(5, 4,
                0, 0, 0, 0, 0,
                0, 0, 0, 0, 0,
                0, 0, 0, 0, 0,
                0, 0, 30, 0, 0);
        Raster out = run(dark, null, "xv", impl);
        assertThat(greys(out)).containsExactly(
                0, 0, 0, 0, 0,
                0, 0, 0, 0, 0,
                0, 85, 85, 85, 0,
                0, 0, 255, 0, 0);
        // One white frame pixel at (4,0): maxv = 255 and nothing is stretched (only (3,1) sees the pixel)
        Raster bright = dark.copy();
        bright.setRgb(4, 0, 0xFFFFFF);
        assertThat(greys(run(bright, null, "xv", impl))).containsExactly(
                0, 0, 0, 0, 255,
                0, 0, 0, 85, 0,
                0, 10, 10, 10, 0,
                0, 0, 30, 0, 0);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void channelsAboveMaxvClampTo255(Implementation impl) {
        // red frame pixel: MONO(255,0,0) = 2805 >> 5 = 87 = maxv; 255*255/87 = 747 -> 255.
        // centre: R Gx = Gy = -255 -> 85, MONO = 935 >> 5 = 29; 85*255/87 = 249
        Raster src = TestRasters.of(3, 3, 0xFF0000, 0, 0, 0, 0, 0, 0, 0, 0);
        Raster out = run(src, null, "xv", impl);
        assertThat(out.rgbAt(0, 0)).isEqualTo(0xFF0000);
        assertThat(out.rgbAt(1, 1)).isEqualTo(rgb(249, 0, 0));
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void maxvZeroMeansNoRescale(Implementation impl) {
        // MONO(2,0,1) = 27 >> 5 = 0: maxv = 0, so the frame keeps (2,0,1) and the centre is its edge value 0
        int c = rgb(2, 0, 1);
        Raster src = TestRasters.of(3, 3, c, c, c, c, rgb(9, 9, 9), c, c, c, c);
        Raster out = run(src, null, "xv", impl);
        assertThat(out.rgbAt(1, 1)).isZero();
        assertThat(out.rgbAt(0, 0)).isEqualTo(c);
        assertThat(out.rgbAt(2, 2)).isEqualTo(c);
        Raster black = TestRasters.filled(6, 5, 0);
        assertThat(run(black, null, "xv", impl).sameContent(black)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void blackFrameStretchesFromTheInteriorOnly(Implementation impl) {
        Raster bright = TestRasters.grey(5, 4,
                0, 0, 0, 0, 255,
                0, 0, 0, 0, 0,
                0, 0, 0, 0, 0,
                0, 0, 30, 0, 0);
        // frame -> 0; interior: (3,1) = 85, row 2 = 10; maxv = 85 -> 85 becomes 255, 10 becomes 30
        assertThat(greys(run(bright, null, "black", impl))).containsExactly(
                0, 0, 0, 0, 0,
                0, 0, 0, 255, 0,
                0, 30, 30, 30, 0,
                0, 0, 0, 0, 0);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void regionsWithoutInteriorAreRescaledInput(Implementation impl) {
        // 1 wide: everything is frame; xv: maxv = 40, v*255/40
        Raster src = TestRasters.grey(3, 3, 10, 1, 1, 20, 1, 1, 40, 1, 1);
        Region column = Region.of(0, 0, 1, 3);
        Raster out = run(src, column, "xv", impl);
        assertThat(greys(out)).containsExactly(63, 1, 1, 127, 1, 1, 255, 1, 1);
        // black: all frame, so all 0
        assertThat(greys(run(src, column, "black", impl))).containsExactly(0, 1, 1, 0, 1, 1, 0, 1, 1);
    }

    @ParameterizedTest
    @EnumSource(Implementation.class)
    void onlyTheRegionIsReadAndWritten(Implementation impl) {
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
        for (String frame : new String[] {"xv", "black"}) {
            Raster outA = run(a, region, frame, impl);
            Raster outB = run(b, region, frame, impl);
            assertThat(TestRasters.changedOutside(a, outA, region)).isNull();
            for (int y = region.y(); y < region.endY(); y++) {
                for (int x = region.x(); x < region.endX(); x++) {
                    assertThat(outA.rgbAt(x, y)).isEqualTo(outB.rgbAt(x, y));
                }
            }
        }
    }

    private static int rgb(int r, int g, int b) {
        return r << 16 | g << 8 | b;
    }

    /** The grey levels of a raster, row by row (fails if a pixel is not grey). */
    private static int[] greys(Raster r) {
        int[] v = new int[r.width() * r.height()];
        for (int i = 0; i < v.length; i++) {
            int p = r.rgbAt(i % r.width(), i / r.width());
            assertThat(p).as("pixel %d is grey", i).isEqualTo((p & 0xFF) * 0x010101);
            v[i] = p & 0xFF;
        }
        return v;
    }
}
