package org.medjava.filter.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterParams;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * The grey (docs/xv-filters-16bit.md) test suite every plugin with grey kernels runs: implement this interface in a
 * test class (beside {@link FilterSuite}, which runs the grey golden cases too) and return the filter. All
 * implementations against each other on random images of every format, the extremes of every format, and the 8-bit
 * grey identity against the plugin's own 8-bit kernels.
 */
public interface Gray16Suite extends FilterSubject {

    @Test
    default void offersGreyKernels() {
        assertThat(filter().supportsGray16()).isTrue();
    }

    /** STRAIGHTFORWARD == OPTIMIZED == PARALLEL on random formats, images, regions and parameters. */
    @Test
    default void grayImplementationsAgreeOnRandomCases() {
        Filter filter = filter();
        long seed = 0x6A7_16L ^ filter.descriptor().id().hashCode();
        SplittableRandom rnd = new SplittableRandom(seed);
        int changed = 0;
        int cases = 400;
        for (int i = 0; i < cases; i++) {
            int[] format = GrayRasters.randomFormat(rnd);
            Map<String, String> raw = randomParams(rnd);
            int w = 1 + rnd.nextInt(Math.min(60, maxSide(raw)));
            int h = 1 + rnd.nextInt(Math.min(40, maxSide(raw)));
            GrayRaster16 src = GrayRasters.random(rnd, w, h, format[0], format[1] == 1);
            Region region = TestRasters.randomRegion(rnd, w, h);
            String what = "seed " + seed + " case " + i + ": " + src + " region " + region + " " + raw;
            if (check(filter, src, region, filter.descriptor().params(raw), what)) {
                changed++;
            }
        }
        assertThat(changed).as("cases that changed the image").isGreaterThan(cases / 3);
    }

    /** Bigger images, so that parallel bands really split. */
    @Test
    default void grayParallelBandsAgreeOnLargerImages() {
        Filter filter = filter();
        long seed = 0xBA4D5L ^ filter.descriptor().id().hashCode();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 6; i++) {
            int[] format = GrayRasters.randomFormat(rnd);
            int w = 150 + rnd.nextInt(250);
            int h = 150 + rnd.nextInt(250);
            GrayRaster16 src = GrayRasters.random(rnd, w, h, format[0], format[1] == 1);
            Region region = rnd.nextBoolean() ? null : TestRasters.randomRegion(rnd, w, h);
            FilterParams params = filter.descriptor().params(randomParams(rnd));
            GrayRaster16 expected = Filter.run(filter, src, region, params, Implementation.OPTIMIZED);
            GrayRaster16 actual = Filter.run(filter, src, region, params, Implementation.PARALLEL);
            assertThat(GrayRasters.firstDifference(expected, actual))
                    .as("seed %d case %d %s region %s %s", seed, i, src, region, params).isNull();
        }
    }

    /** Images at the ends of every format's range: outputs stay in range and all implementations agree. */
    @Test
    default void extremesOfEveryFormat() {
        Filter filter = filter();
        SplittableRandom rnd = new SplittableRandom(0xE87EL);
        GrayRasters.Kind[] kinds = {GrayRasters.Kind.EXTREMES, GrayRasters.Kind.BRIGHT_FRAME, GrayRasters.Kind.FLAT,
            GrayRasters.Kind.NOISE};
        for (int bits : new int[] {1, 2, 8, 12, 15, 16}) {
            for (boolean signed : new boolean[] {false, true}) {
                for (GrayRasters.Kind kind : kinds) {
                    GrayRaster16 src = GrayRasters.generate(kind, 9, 7, bits, signed, rnd.nextLong());
                    for (String fill : new String[] {null, "min", "max"}) {
                        if (fill != null) {
                            int v = fill.equals("min") ? src.minValue() : src.maxValue();
                            java.util.Arrays.fill(src.words(), (short) v);
                        }
                        for (Region region : new Region[] {null, Region.of(1, 1, 6, 5), Region.of(4, 3, 1, 1)}) {
                            FilterParams params = filter.descriptor().params(randomParams(rnd));
                            check(filter, src, region, params, src + " " + kind + " fill " + fill + " region "
                                    + region + " " + params);
                        }
                    }
                }
            }
        }
    }

    /**
     * The 8-bit grey identity (docs/xv-filters-16bit.md, section 1): on unsigned 8-bit grey data every
     * implementation gives exactly what the plugin's own 8-bit kernels give on the RGB image r = g = b = v.
     */
    @Test
    default void eightBitGreyIdentity() {
        Filter filter = filter();
        long seed = 0x8B17L ^ filter.descriptor().id().hashCode();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 150; i++) {
            Map<String, String> raw = randomParams(rnd);
            int w = 1 + rnd.nextInt(Math.min(40, maxSide(raw)));
            int h = 1 + rnd.nextInt(Math.min(30, maxSide(raw)));
            GrayRaster16 grey = GrayRasters.random(rnd, w, h, 8, false);
            Region region = TestRasters.randomRegion(rnd, w, h);
            FilterParams params = filter.descriptor().params(raw);
            Raster rgb = Filter.run(filter, GrayRasters.toGreyRgb(grey), region, params, Implementation.STRAIGHTFORWARD);
            GrayRaster16 expected = GrayRasters.fromRed(rgb);
            assertThat(GrayRasters.toGreyRgb(expected).rgb()).as("8-bit output of grey input is grey").isEqualTo(rgb.rgb());
            for (Implementation impl : Implementation.values()) {
                GrayRaster16 actual = Filter.run(filter, grey, region, params, impl);
                assertThat(GrayRasters.firstDifference(expected, actual))
                        .as("seed %d case %d %dx%d region %s %s %s", seed, i, w, h, region, params, impl).isNull();
            }
        }
    }

    /**
     * Runs the straightforward port, asserts it left everything outside the region and the input alone and wrote
     * only values inside the range, and that the optimized and parallel ports produce exactly the same words.
     *
     * @return whether the filter changed the image
     */
    static boolean check(Filter filter, GrayRaster16 src, Region region, FilterParams params, String what) {
        short[] before = src.words().clone();
        GrayRaster16 expected = Filter.run(filter, src, region, params, Implementation.STRAIGHTFORWARD);
        assertThat(GrayRasters.changedOutside(src, expected, region)).as(what).isNull();
        assertThat(expected.firstValueOutOfRange()).as("%s: output value out of range", what).isEqualTo(-1);
        for (Implementation impl : new Implementation[] {Implementation.OPTIMIZED, Implementation.PARALLEL}) {
            GrayRaster16 actual = Filter.run(filter, src, region, params, impl);
            assertThat(GrayRasters.firstDifference(expected, actual)).as(what + " " + impl).isNull();
        }
        assertThat(src.words()).as("%s: input modified", what).isEqualTo(before);
        return !expected.sameContent(src);
    }
}
