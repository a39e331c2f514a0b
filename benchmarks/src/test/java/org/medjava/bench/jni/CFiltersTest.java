package org.medjava.bench.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
import org.medjava.bench.variant.JavaFilters;
import org.medjava.filter.Filter;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import java.util.stream.Stream;

/** The JNI bridge gives the C ports the Java arrays themselves: their output must equal the Java ports' byte for byte. */
class CFiltersTest {

    static Stream<Arguments> cases() {
        return Stream.of(CBuild.values()).flatMap(build -> JavaFilters.ids().stream()
                .flatMap(id -> Stream.of(CFilters.STRAIGHTFORWARD, CFilters.OPTIMIZED)
                        .map(impl -> Arguments.of(build, id, impl))));
    }

    @ParameterizedTest(name = "{0} {1} impl {2}")
    @MethodSource("cases")
    void sameBytesAsJava(CBuild build, String filterId, int impl) {
        Raster src = TestImages.noise(new ImageSize(37, 23));
        Filter filter = JavaFilters.get(filterId);
        Raster expected = Filter.run(filter, src, null, filter.descriptor().defaults(), Implementation.OPTIMIZED);

        Raster dst = src.copy();
        try (CFilters.Prepared prepared = CFilters.of(build).prepare(filterId, "")) {
            prepared.run(impl, src, dst);
        }
        assertThat(dst.rgb()).isEqualTo(expected.rgb());
        assertThat(src.rgb()).isEqualTo(TestImages.noise(new ImageSize(37, 23)).rgb());
    }

    static Stream<Arguments> grayCases() {
        return cases().flatMap(a -> Stream.of("u16", "s16", "u12", "s10")
                .map(format -> Arguments.of(a.get()[0], a.get()[1], a.get()[2], format)));
    }

    /** The grey ports through JNI (short[] pinned, mj_run_gray16) give the Java grey kernels' words. */
    @ParameterizedTest(name = "{0} {1} impl {2} {3}")
    @MethodSource("grayCases")
    void sameGrayWordsAsJava(CBuild build, String filterId, int impl, String formatName) {
        GrayFormat format = GrayFormat.parse(formatName);
        GrayRaster16 src = TestImages.ct(new ImageSize(37, 23), format);
        Filter filter = JavaFilters.get(filterId);
        GrayRaster16 expected = Filter.run(filter, src, null, filter.descriptor().defaults(),
                Implementation.OPTIMIZED);

        GrayRaster16 dst = src.copy();
        try (CFilters.Prepared prepared = CFilters.of(build).prepare(filterId, "")) {
            prepared.runGray16(impl, src, dst);
        }
        assertThat(dst.words()).isEqualTo(expected.words());
        assertThat(src.words()).isEqualTo(TestImages.ct(new ImageSize(37, 23), format).words());
    }

    @Test
    void grayFormatMismatchIsRefused() {
        try (CFilters.Prepared prepared = CFilters.of(CBuild.O2).prepare("blur", "")) {
            assertThatThrownBy(() -> prepared.runGray16(CFilters.OPTIMIZED, new GrayRaster16(4, 4, 16, false),
                    new GrayRaster16(4, 4, 16, true))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void bothBuildsSayHowTheyWereCompiled() {
        assertThat(CFilters.of(CBuild.O2).buildInfo()).contains("gcc").contains("-O2 -ffp-contract=off");
        assertThat(CFilters.of(CBuild.NATIVE).buildInfo()).contains("-O3 -march=native -ffp-contract=off");
    }

    @Test
    void badParametersCarryTheCMessage() {
        assertThatThrownBy(() -> CFilters.of(CBuild.O2).prepare("blur", "n=4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("n must be an odd integer");
        assertThatThrownBy(() -> CFilters.of(CBuild.O2).prepare("no-such-filter", ""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sizeMismatchIsRefused() {
        try (CFilters.Prepared prepared = CFilters.of(CBuild.O2).prepare("blur", "")) {
            assertThatThrownBy(() -> prepared.run(CFilters.OPTIMIZED, new Raster(4, 4), new Raster(4, 5)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
