package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The viewer opens what image-codec decodes (DecodedPixelsTest checks the pixels against pydicom and DCMTK): JPEG-LS
 * shows the pixels of its uncompressed original, 12-bit JPEG its 12-bit stored values, frame after frame.
 */
class OpenedImageCodecsTest {

    @Test
    void jpegLsOpensAsItsUncompressedOriginal() throws IOException {
        OpenedImage jls = Samples.open("dicom/MR_small_jpeg_ls_lossless.dcm");
        OpenedImage original = Samples.open("dicom/MR_small.dcm");
        assertThat(jls.isGreyDicom()).isTrue();
        assertThat(jls.dicom().storedValues()).containsExactly(original.dicom().storedValues());
        assertThat(jls.toRaster(null).sameContent(original.toRaster(null))).isTrue();
    }

    @Test
    void twelveBitJpegOpensWithItsStoredValues() throws IOException {
        OpenedImage jpeg = Samples.open("dicom/JPEG-lossy.dcm");
        assertThat(jpeg.dicom().bitsStored()).isEqualTo(12);
        java.util.IntSummaryStatistics values = java.util.Arrays.stream(jpeg.dicom().storedValues()).summaryStatistics();
        assertThat(values.getMin()).isNotNegative();
        assertThat(values.getMax()).isBetween(256, 4095); // more than 8 bits, within 12
        assertThat(jpeg.width()).isEqualTo(256);
        assertThat(jpeg.height()).isEqualTo(1024);
    }
}
