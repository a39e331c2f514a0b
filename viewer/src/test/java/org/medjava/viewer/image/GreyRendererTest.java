package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.Raster;

class GreyRendererTest {

    /** The display image must show exactly the grey levels the codec renders (and filters start from). */
    @ParameterizedTest
    @ValueSource(strings = {"dicom/CT_small.dcm", "dicom/MR_small.dcm", "dicom/liver_1frame.dcm"})
    void matchesTheCodecsRenderingForEveryWindow(String sample) throws IOException {
        DicomImage image = Samples.open(sample).dicom();
        double[] range = GreyRenderer.modalityRange(image);
        for (Window w : new Window[] {image.defaultWindow().orElseThrow(), new Window(40, 400), new Window(-600, 1500),
            Window.ofRange(range[0], range[1]), new Window(range[0], 1)}) {
            BufferedImage grey = GreyRenderer.render(image, w);
            byte[] levels = ((DataBufferByte) grey.getRaster().getDataBuffer()).getData();
            Raster expected = image.render(w);
            for (int p = 0; p < levels.length; p++) {
                if (levels[p] != expected.rgb()[3 * p]) {
                    throw new AssertionError(sample + " " + w + ": pixel " + p + " is " + (levels[p] & 0xFF)
                            + ", codec renders " + (expected.rgb()[3 * p] & 0xFF));
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dicom/CT_small.dcm", "dicom/MR_small.dcm"})
    void modalityRangeIsTheSmallestAndLargestRescaledValue(String sample) throws IOException {
        DicomImage image = Samples.open(sample).dicom();
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (int y = 0; y < image.height(); y++) {
            for (int x = 0; x < image.width(); x++) {
                min = Math.min(min, image.modalityValue(x, y));
                max = Math.max(max, image.modalityValue(x, y));
            }
        }
        assertThat(GreyRenderer.modalityRange(image)).containsExactly(min, max);
    }

    /** Filtered stored values (here: every value mirrored within its range) show as the codec renders them. */
    @ParameterizedTest
    @ValueSource(strings = {"dicom/CT_small.dcm", "dicom/MR_small.dcm"})
    void storedValuesRenderAsTheCodecRendersTheImageHoldingThem(String sample) throws IOException {
        DicomImage image = Samples.open(sample).dicom();
        org.medjava.filter.GrayRaster16 values = image.grayRaster();
        for (int y = 0; y < values.height(); y++) {
            for (int x = 0; x < values.width(); x++) {
                values.setValue(x, y, values.minValue() + values.maxValue() - values.valueAt(x, y));
            }
        }
        DicomImage holding = image.withStoredValues(values);
        for (Window w : new Window[] {new Window(40, 400), new Window(400, 1800), image.defaultWindow().orElseThrow()}) {
            byte[] levels = ((DataBufferByte) GreyRenderer.render(image, values, w).getRaster().getDataBuffer())
                    .getData();
            Raster expected = holding.render(w);
            for (int p = 0; p < levels.length; p++) {
                assertThat(levels[p]).as("%s %s pixel %d", sample, w, p).isEqualTo(expected.rgb()[3 * p]);
            }
        }
        assertThat(GreyRenderer.modalityRange(image, values)).containsExactly(GreyRenderer.modalityRange(holding));
    }
}
