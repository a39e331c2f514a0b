package org.medjava.bench.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.medjava.filter.GrayRaster16;

class TestImagesTest {

    /** The first bytes c-reference's bench_harness generates (xorshift64, state 42), printed by a C program. */
    @Test
    void xorshiftNoiseIsTheCHarnessImage() {
        byte[] rgb = TestImages.xorshift(new ImageSize(2, 1)).rgb();
        assertThat(rgb).containsExactly(-107, -8, -47, 95, -117, 51);
    }

    @Test
    void noiseIsReproducibleAndUsesEveryByteValue() {
        byte[] a = TestImages.noise(new ImageSize(64, 64)).rgb();
        assertThat(a).isEqualTo(TestImages.noise(new ImageSize(64, 64)).rgb());
        boolean[] seen = new boolean[256];
        for (byte b : a) {
            seen[b & 0xFF] = true;
        }
        for (boolean s : seen) {
            assertThat(s).isTrue();
        }
    }

    @Test
    void ctSliceIsReproducibleAndLooksLikeCt() {
        GrayRaster16 s16 = TestImages.ct(new ImageSize(256, 256), GrayFormat.S16);
        GrayRaster16 u16 = TestImages.ct(new ImageSize(256, 256), GrayFormat.U16);
        assertThat(s16.words()).isEqualTo(TestImages.ct(new ImageSize(256, 256), GrayFormat.S16).words());
        assertThat(s16.valueAt(2, 2)).isBetween(-1060, -940); // air
        assertThat(s16.valueAt(128, 128)).isBetween(-40, 140); // heart
        assertThat(s16.valueAt(128, 197)).isGreaterThan(1000); // vertebra's cortical ring
        assertThat(s16.valueAt(128, 186)).isBetween(200, 400); // its cancellous bone
        assertThat(s16.valueAt(128 - 51, 120)).isLessThan(-700); // lung
        for (int i = 0; i < s16.words().length; i++) {
            assertThat(u16.words()[i] & 0xFFFF).isEqualTo(Math.max(0, s16.words()[i] + 1024)); // clamped at 0
        }
        GrayRaster16 u10 = TestImages.ct(new ImageSize(64, 64), GrayFormat.parse("u10"));
        assertThat(u10.firstValueOutOfRange()).isEqualTo(-1);
        assertThat(GrayFormat.parse("s16")).isEqualTo(GrayFormat.S16);
        assertThat(GrayFormat.S16.openCvDepthName()).isEqualTo("16S");
        assertThatThrownBy(() -> GrayFormat.parse("u17")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sizesParseAndPrintBothForms() {
        assertThat(ImageSize.parse("4096")).isEqualTo(new ImageSize(4096, 4096));
        assertThat(ImageSize.parse("3000x2000").toString()).isEqualTo("3000x2000");
        assertThat(ImageSize.parse("512").label()).isEqualTo("512²");
        assertThatThrownBy(() -> ImageSize.parse("12y4")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("N or WxH");
    }
}
