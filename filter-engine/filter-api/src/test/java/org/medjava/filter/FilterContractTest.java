package org.medjava.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class FilterContractTest {
    /** Inverts its region; enforces the contract like every plugin does. */
    static final class Invert implements Filter {
        final FilterDescriptor descriptor = FilterDescriptor.builder("invert")
                .param(ParamSpec.oddInteger("n", 3, 1, 9, "unused")).build();

        public FilterDescriptor descriptor() {
            return descriptor;
        }

        public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
            Filter.requireContract(this, src, dst, r, p);
            for (int y = r.y(); y < r.endY(); y++) {
                for (int x = r.x(); x < r.endX(); x++) {
                    dst.setRgb(x, y, ~src.rgbAt(x, y) & 0xFFFFFF);
                }
            }
        }
    }

    final Invert invert = new Invert();

    @Test
    void runCopiesClipsAndLeavesTheSourceAlone() {
        Raster src = new Raster(3, 2);
        Raster out = Filter.run(invert, src, Region.of(2, 1, 5, 5), invert.descriptor().defaults(),
                Implementation.OPTIMIZED);
        assertThat(out.rgbAt(2, 1)).isEqualTo(0xFFFFFF);
        assertThat(out.rgbAt(1, 1)).isZero();
        assertThat(src.rgbAt(2, 1)).isZero();
        assertThat(Filter.run(invert, src, Region.of(9, 9, 1, 1), invert.descriptor().defaults(),
                Implementation.OPTIMIZED).sameContent(src)).as("empty region changes nothing").isTrue();
    }

    @Test
    void directCallsThatBreakTheContractAreRefusedWithTheReason() {
        Raster a = new Raster(3, 2);
        FilterParams foreign = FilterDescriptor.builder("other").build().params(Map.of());
        assertThatThrownBy(() -> invert.apply(a, a.copy(), a.bounds(), foreign, Implementation.OPTIMIZED))
                .hasMessageContaining("parameters of other given to invert");
        assertThatThrownBy(() -> invert.apply(a, new Raster(2, 2), a.bounds(), invert.descriptor().defaults(),
                Implementation.OPTIMIZED)).hasMessageContaining("sizes differ");
        assertThatThrownBy(() -> invert.apply(a, a.copy(), Region.of(1, 0, 3, 2), invert.descriptor().defaults(),
                Implementation.OPTIMIZED)).hasMessageContaining("not clipped to the 3x2 image");
    }

    @Test
    void parametersAreValidatedAgainstTheirRules() {
        assertThatThrownBy(() -> invert.descriptor().params(Map.of("n", "4")))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessage("invert: parameter n=\"4\" is invalid: n must be an odd integer from 1 to 9 (default 3); unused");
        assertThat(invert.descriptor().params(Map.of("n", " 5 ")).getInt("n")).isEqualTo(5);
    }
}
