package org.medjava.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

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
    void sizesParseAndPrintBothForms() {
        assertThat(ImageSize.parse("4096")).isEqualTo(new ImageSize(4096, 4096));
        assertThat(ImageSize.parse("3000x2000").toString()).isEqualTo("3000x2000");
        assertThat(ImageSize.parse("512").label()).isEqualTo("512²");
        assertThatThrownBy(() -> ImageSize.parse("12y4")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("N or WxH");
    }
}
