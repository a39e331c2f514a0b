package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The grey half of the Filter contract: the default refusal, run's checks, requireContract. */
class Gray16ContractTest {
    /** An 8-bit-only filter, as every plugin built for API 1.0 is. */
    final FilterContractTest.Invert rgbOnly = new FilterContractTest.Invert();

    /** Inverts grey values within their range: u' = range − u. */
    static final class GreyInvert implements Filter {
        final FilterDescriptor descriptor = FilterDescriptor.builder("grey-invert").build();

        public FilterDescriptor descriptor() {
            return descriptor;
        }

        public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
        }

        @Override
        public boolean supportsGray16() {
            return true;
        }

        @Override
        public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region r, FilterParams p, Implementation i) {
            Filter.requireContract(this, src, dst, r, p);
            for (int y = r.y(); y < r.endY(); y++) {
                for (int x = r.x(); x < r.endX(); x++) {
                    int i0 = y * src.width() + x;
                    dst.words()[i0] = GrayRaster16.word(src.range() - src.offsetValue(i0), src.minValue());
                }
            }
        }
    }

    final GreyInvert grey = new GreyInvert();

    @Test
    void filtersWithoutGreyKernelsRefuseNamingFilterAndData() {
        GrayRaster16 src = new GrayRaster16(2, 2, 12, true);
        assertThat(rgbOnly.supportsGray16()).isFalse();
        assertThatThrownBy(() -> rgbOnly.applyGray16(src, src.copy(), src.bounds(),
                rgbOnly.descriptor().defaults(), Implementation.OPTIMIZED))
                .isInstanceOf(UnsupportedDataException.class)
                .hasMessage("invert cannot filter 12-bit signed grey data: invert filters 8-bit RGB only");
        assertThatThrownBy(() -> Filter.run(rgbOnly, src, null, rgbOnly.descriptor().defaults(),
                Implementation.OPTIMIZED)).isInstanceOf(UnsupportedDataException.class);
        UnsupportedDataException e = UnsupportedDataException.of(grey, "32-bit float grey");
        assertThat(e).hasMessage("grey-invert cannot filter 32-bit float grey data: grey-invert filters 8-bit RGB "
                + "and 1..16-bit signed or unsigned grey only");
        assertThat(e.filterId()).isEqualTo("grey-invert");
        assertThat(e.data()).isEqualTo("32-bit float grey");
    }

    @Test
    void runCopiesClipsAndKeepsTheFormat() {
        GrayRaster16 src = new GrayRaster16(3, 2, 16, true);
        src.setValue(2, 1, -32768);
        GrayRaster16 out = Filter.run(grey, src, Region.of(2, 1, 9, 9), grey.descriptor().defaults(),
                Implementation.STRAIGHTFORWARD);
        assertThat(out.valueAt(2, 1)).isEqualTo(32767);
        assertThat(out.valueAt(1, 1)).isZero();
        assertThat(src.valueAt(2, 1)).as("source untouched").isEqualTo(-32768);
        assertThat(out.signed()).isTrue();
        assertThat(out.bitsStored()).isEqualTo(16);
        assertThat(Filter.run(grey, src, Region.of(5, 5, 1, 1), grey.descriptor().defaults(),
                Implementation.OPTIMIZED).sameContent(src)).as("empty region changes nothing").isTrue();
    }

    @Test
    void runRefusesValuesOutsideTheRangeAndForeignParameters() {
        GrayRaster16 bad = new GrayRaster16(2, 1, 10, false, new short[] {0, 1024});
        assertThatThrownBy(() -> Filter.run(grey, bad, null, grey.descriptor().defaults(),
                Implementation.OPTIMIZED)).hasMessageStartingWith("grey value 1024 at (1,0) is outside the 10-bit "
                + "unsigned range 0..1023");
        GrayRaster16 ok = new GrayRaster16(2, 1, 10, false);
        assertThatThrownBy(() -> Filter.run(grey, ok, null, rgbOnly.descriptor().defaults(),
                Implementation.OPTIMIZED)).hasMessage("parameters of invert given to grey-invert");
    }

    @Test
    void directCallsThatBreakTheContractAreRefused() {
        GrayRaster16 a = new GrayRaster16(3, 2, 12, false);
        FilterParams p = grey.descriptor().defaults();
        assertThatThrownBy(() -> grey.applyGray16(a, new GrayRaster16(3, 2, 12, true), a.bounds(), p,
                Implementation.OPTIMIZED)).hasMessageContaining("formats differ");
        assertThatThrownBy(() -> grey.applyGray16(a, a.copy(), Region.of(1, 0, 3, 2), p, Implementation.OPTIMIZED))
                .hasMessageContaining("not clipped to the 3x2 image");
    }
}
