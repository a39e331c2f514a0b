package org.medjava.store.core.render;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.medjava.filter.Raster;

/** Fitting an image into a thumbnail's viewport. */
class ThumbnailTest {

    @Test
    void keepsTheAspectRatio() {
        assertThat(Thumbnail.fittedSize(512, 512, 128, 128)).containsExactly(128, 128);
        assertThat(Thumbnail.fittedSize(1760, 880, 128, 128)).containsExactly(128, 64);
        assertThat(Thumbnail.fittedSize(100, 400, 128, 128)).containsExactly(32, 128);
        assertThat(Thumbnail.fittedSize(64, 64, 128, 32)).containsExactly(32, 32);
        assertThat(Thumbnail.fittedSize(64, 64, 256, 256)).containsExactly(256, 256);
        assertThat(Thumbnail.fittedSize(1000, 1, 10, 10)).containsExactly(10, 1);
    }

    @Test
    void averagesWhatItReduces() {
        Raster checker = new Raster(4, 2);
        for (int y = 0; y < 2; y++) {
            for (int x = 0; x < 4; x++) {
                checker.setRgb(x, y, (x + y) % 2 == 0 ? 0xFFFFFF : 0x000000);
            }
        }
        Raster small = Thumbnail.fit(checker, 2, 2);
        assertThat(small.width()).isEqualTo(2);
        assertThat(small.height()).isEqualTo(1);
        assertThat(small.rgbAt(0, 0) & 0xFF).isEqualTo(128); // two white, two black
        assertThat(small.rgbAt(1, 0) & 0xFF).isEqualTo(128);
    }

    @Test
    void enlargesByRepeatingPixelsAndLeavesAFittingImageAlone() {
        Raster one = new Raster(1, 1);
        one.setRgb(0, 0, 0x102030);
        Raster big = Thumbnail.fit(one, 3, 3);
        assertThat(big.width()).isEqualTo(3);
        assertThat(big.rgbAt(2, 2)).isEqualTo(0x102030);
        Raster same = new Raster(8, 4);
        assertThat(Thumbnail.fit(same, 8, 8)).isSameAs(same);
    }

    @Test
    void aGreyImageIsFittedToTheSameBytesAsItsRgb() {
        java.util.Random random = new java.util.Random(5);
        int[][] cases = {{512, 512, 128, 128}, {7, 5, 3, 3}, {300, 97, 128, 128}, {10, 10, 64, 64}, {1, 9, 4, 4},
            {64, 64, 64, 64}};
        for (int[] c : cases) {
            byte[] grey = new byte[c[0] * c[1]];
            random.nextBytes(grey);
            byte[] rgb = new byte[3 * grey.length];
            for (int p = 0; p < grey.length; p++) {
                rgb[3 * p] = grey[p];
                rgb[3 * p + 1] = grey[p];
                rgb[3 * p + 2] = grey[p];
            }
            Raster fitted = Thumbnail.fit(new Raster(c[0], c[1], rgb), c[2], c[3]);
            Raster fromGrey = Thumbnail.fitGrey(grey, c[0], c[1], c[2], c[3]);
            assertThat(fromGrey.width()).isEqualTo(fitted.width());
            assertThat(fromGrey.height()).isEqualTo(fitted.height());
            assertThat(fromGrey.rgb()).as(java.util.Arrays.toString(c)).isEqualTo(fitted.rgb());
        }
    }
}
