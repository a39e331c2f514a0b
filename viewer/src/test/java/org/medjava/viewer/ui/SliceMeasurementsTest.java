package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.SyntheticDicom;
import org.medjava.viewer.measure.Measurement;
import org.medjava.viewer.measure.Measurements;
import org.medjava.viewer.measure.Measurers;

/** ROIs belong to the slice they were drawn on: away on the next slice, back (re-measured) on return, none on a new image. */
class SliceMeasurementsTest {
    private static final String SERIES = "2.25.1929.2";

    private static ImageDocument slice(int instance) throws IOException {
        byte[] bytes = SyntheticDicom.stackCt(32, "2.25.1929", SERIES, instance, instance * 2.5);
        return new ImageDocument(OpenedImage.decode(new ImageOrigin.StoreFile("http://store", "s/" + instance + ".dcm",
                null), bytes), 1 << 24);
    }

    @Test
    void roisArePutAwayPerSliceAndBroughtBack() throws IOException {
        Measurements measurements = new Measurements();
        SliceMeasurements slices = new SliceMeasurements(measurements);
        ImageDocument first = slice(1);
        ImageDocument second = slice(2);
        slices.opened(first);
        measurements.setMeasurer(Measurers.of(first));
        // slice 1's bright square spans columns 11..17, rows 9..15 (stored 3000 = 1976 HU)
        measurements.add(Measurement.of(Measurement.Kind.RECTANGLE, 11, 10, 14, 14));
        String line = measurements.result(0).line();
        assertThat(line).startsWith("Rectangle: mean 1976 HU, SD 0");

        slices.sliceShown(second);
        assertThat(measurements.size()).isZero();
        assertThat(measurements.measurer().values()).isNotNull();

        slices.sliceShown(slice(1)); // the same SOP Instance, downloaded again
        assertThat(measurements.size()).isEqualTo(1);
        assertThat(measurements.result(0).line()).isEqualTo(line);

        slices.opened(second); // a new image or series: nothing carried over
        measurements.clear();
        slices.sliceShown(first);
        assertThat(measurements.size()).isZero();
    }
}
