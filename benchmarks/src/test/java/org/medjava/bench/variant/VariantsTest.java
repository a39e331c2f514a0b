package org.medjava.bench.variant;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.bench.ImageSize;
import org.medjava.bench.TestImages;
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
            if (impl == Impl.OPENCV) {
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
}
