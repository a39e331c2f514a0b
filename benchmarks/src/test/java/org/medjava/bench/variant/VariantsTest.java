package org.medjava.bench.variant;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.opencv.core.Mat;

/** Every variant the benchmark can create really filters; the bit-exact ones agree with the Java straightforward port. */
class VariantsTest {
    private static final ImageSize SIZE = new ImageSize(40, 24);

    @ParameterizedTest
    @ValueSource(strings = {"blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize", "spread"})
    void bitExactVariantsAgree(String filter) {
        Raster src = TestImages.noise(SIZE);
        byte[] reference = null;
        for (Impl impl : Impl.values()) {
            if (impl == Impl.OPENCV || !impl.supports(filter)) { // the vectorized C: no kernel for every filter yet
                continue;
            }
            Raster dst = new Raster(SIZE.width(), SIZE.height());
            try (FilterVariant variant = impl.create(filter, src, dst)) {
                assertThat(variant.run()).isSameAs(dst);
            }
            if (reference == null) {
                reference = dst.rgb();
                assertThat(reference).as("%s changes the image", filter).isNotEqualTo(src.rgb());
            } else {
                assertThat(dst.rgb()).as("%s %s", filter, impl.id()).isEqualTo(reference);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blur", "despeckle", "edge-detect", "emboss", "pixelize"})
    void openCvCounterpartsProduceAnImageOfTheSameSize(String filter) {
        Raster src = TestImages.noise(SIZE);
        try (FilterVariant variant = Impl.OPENCV.create(filter, src, new Raster(SIZE.width(), SIZE.height()))) {
            Mat out = (Mat) variant.run();
            assertThat(out.rows()).isEqualTo(SIZE.height());
            assertThat(out.cols()).isEqualTo(SIZE.width());
            byte[] bytes = new byte[3 * SIZE.width() * SIZE.height()];
            out.get(0, 0, bytes);
            assertThat(bytes).isNotEqualTo(src.rgb());
        }
    }

    @Test
    void openCvHasNoCounterpartOfSharpenOilPaintOrSpread() {
        assertThat(Impl.OPENCV.supports("sharpen")).isFalse();
        assertThat(Impl.OPENCV.supports("oil-paint")).isFalse();
        assertThat(Impl.OPENCV.supports("spread")).isFalse();
        assertThat(Impl.C_OPTIMIZED_O2.supports("spread")).isTrue();
    }

    /** Blur was the first vectorized kernel; a filter without one is refused by name, not with a bare MJ_ERR_ARG. */
    @Test
    void vectorizedCRunsWhereItHasAKernelAndSaysSoWhereNot() {
        assertThat(Impl.C_VECTORIZED.supports("blur")).isTrue();
        assertThat(VectorizedKernels.level()).isIn("avx512", "avx2", "scalar");
        assertThat(Impl.C_VECTORIZED.title(VectorizedKernels.level())).startsWith("C vectorized (").endsWith(
                ", -O2 + intrinsics)");
        for (String filter : JavaFilters.ids()) {
            if (!Impl.C_VECTORIZED.supports(filter)) {
                Raster src = TestImages.noise(SIZE);
                try (FilterVariant v = Impl.C_VECTORIZED.create(filter, src, new Raster(SIZE.width(), SIZE.height()))) {
                    org.assertj.core.api.Assertions.assertThatThrownBy(v::run)
                            .isInstanceOf(UnsupportedOperationException.class)
                            .hasMessage(filter + ": no vectorized variant yet");
                }
            }
        }
    }

    /** What the 16-bit benchmark times before it times anything: every bit-exact path gives the same words. */
    @ParameterizedTest
    @ValueSource(strings = {"blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint", "pixelize", "spread"})
    void bitExactGray16VariantsAgree(String filter) {
        for (GrayFormat format : new GrayFormat[] {GrayFormat.U16, GrayFormat.S16}) {
            GrayRaster16 src = TestImages.ct(SIZE, format);
            short[] reference = null;
            for (Impl impl : Impl.values()) {
                if (impl == Impl.OPENCV || impl == Impl.C_VECTORIZED && !impl.supportsGray16(filter, format)) {
                    continue;
                }
                assertThat(impl.supportsGray16(filter, format)).isTrue();
                GrayRaster16 dst = new GrayRaster16(SIZE.width(), SIZE.height(), 16, format.signed());
                try (FilterVariant variant = impl.createGray16(filter, src, dst)) {
                    assertThat(variant.run()).isSameAs(dst);
                }
                if (reference == null) {
                    reference = dst.words();
                    assertThat(reference).as("%s changes the image", filter).isNotEqualTo(src.words());
                } else {
                    assertThat(dst.words()).as("%s %s %s", filter, format, impl.id()).isEqualTo(reference);
                }
            }
        }
    }

    /**
     * The OpenCV counterparts the report calls equivalent agree with xv inside the image (one pixel from the border)
     * within one grey level; the comparable one (edge-detect) still produces an image of the right size and format.
     */
    @ParameterizedTest
    @ValueSource(strings = {"blur", "sharpen", "despeckle", "edge-detect", "emboss", "pixelize"})
    void openCvGray16CounterpartsMatchXvInTheInterior(String filter) {
        ImageSize size = new ImageSize(64, 48);
        for (GrayFormat format : new GrayFormat[] {GrayFormat.U16, GrayFormat.S16}) {
            if (!Impl.OPENCV.supportsGray16(filter, format)) {
                assertThat(filter + " " + format).isEqualTo("despeckle s16");
                continue;
            }
            GrayRaster16 src = TestImages.ct(size, format);
            Filter xv = JavaFilters.get(filter);
            GrayRaster16 expected = Filter.run(xv, src, null, xv.descriptor().defaults(), Implementation.OPTIMIZED);
            GrayRaster16 dst = new GrayRaster16(size.width(), size.height(), 16, format.signed());
            try (FilterVariant variant = Impl.OPENCV.createGray16(filter, src, dst)) {
                Mat out = (Mat) variant.run();
                assertThat(out.rows()).isEqualTo(size.height());
                assertThat(out.cols()).isEqualTo(size.width());
                short[] words = OpenCvGray16Variant.words(out);
                assertThat(words).isNotEqualTo(src.words());
                if (!OpenCvGray16Variant.EQUIVALENT.contains(filter)) {
                    continue;
                }
                int worst = 0;
                for (int y = 1; y < size.height() - 1; y++) {
                    for (int x = 1; x < size.width() - 1; x++) {
                        int i = y * size.width() + x;
                        worst = Math.max(worst, Math.abs(GrayRaster16.value(words[i], format.signed())
                                - GrayRaster16.value(expected.words()[i], format.signed())));
                    }
                }
                assertThat(worst).as("%s %s: largest interior difference from xv", filter, format).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void openCvHasNo16BitCounterpartOfOilPaintSpreadOrASignedMedian() {
        assertThat(Impl.OPENCV.supportsGray16("oil-paint", GrayFormat.U16)).isFalse();
        assertThat(Impl.OPENCV.supportsGray16("spread", GrayFormat.S16)).isFalse();
        assertThat(Impl.OPENCV.supportsGray16("despeckle", GrayFormat.U16)).isTrue();
        assertThat(Impl.OPENCV.supportsGray16("despeckle", GrayFormat.S16)).isFalse();
        assertThat(Impl.OPENCV.supportsGray16("sharpen", GrayFormat.S16)).isTrue();
    }
}
