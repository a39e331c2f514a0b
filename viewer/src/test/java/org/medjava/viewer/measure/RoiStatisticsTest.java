package org.medjava.viewer.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.viewer.image.DicomEdits;
import org.medjava.viewer.image.SyntheticDicom;

class RoiStatisticsTest {

    /** 4×3 stored values 0..11, row by row. */
    private static ModalityValues counting(double slope, double intercept) {
        return new ModalityValues(4, 3, i -> i, slope, intercept, "HU", "counting");
    }

    @Test
    void aRectangleCountsThePixelsWhoseCentresItCoversAndRescalesExactly() {
        // pixels (1..2, 0..1): stored 1, 2, 5, 6; HU = 2 * v - 1000
        Measurement.Area roi = (Measurement.Area) Measurement.of(Measurement.Kind.RECTANGLE, 2.9, 1.6, 0.6, 0.2);
        RoiStatistics s = RoiStatistics.of(counting(2, -1000), roi);
        assertThat(s.pixels()).isEqualTo(4);
        assertThat(s.mean()).isEqualTo(2 * 3.5 - 1000);
        assertThat(s.min()).isEqualTo(-998);
        assertThat(s.max()).isEqualTo(-988);
        // sample SD of 1, 2, 5, 6 is sqrt(17/3); the slope scales it
        assertThat(s.sd()).isCloseTo(2 * Math.sqrt(17.0 / 3), within(1e-12));
    }

    @Test
    void aNegativeSlopeSwapsMinAndMaxAndKeepsTheSdPositive() {
        RoiStatistics s = RoiStatistics.of(counting(-1, 0),
                (Measurement.Area) Measurement.of(Measurement.Kind.RECTANGLE, 0, 0, 4, 1));
        assertThat(s.pixels()).isEqualTo(4); // the first row
        assertThat(s.min()).isEqualTo(-3);
        assertThat(s.max()).isEqualTo(0);
        assertThat(s.sd()).isCloseTo(Math.sqrt(5.0 / 3), within(1e-12));
    }

    @Test
    void anEllipseTakesOnlyTheCentresInsideIt() {
        // the ellipse inscribed in [0,4]x[0,3]: centre (2, 1.5), radii 2 and 1.5. Corner pixel centres (0.5, 0.5)
        // lie outside: ((0.5-2)/2)^2 + ((0.5-1.5)/1.5)^2 = 0.5625 + 0.444 > 1
        Measurement.Area roi = (Measurement.Area) Measurement.of(Measurement.Kind.ELLIPSE, 0, 0, 4, 3);
        RoiStatistics s = RoiStatistics.of(counting(1, 0), roi);
        assertThat(s.pixels()).isEqualTo(8); // the middle row (4), and the two middle pixels of the top and bottom rows
        assertThat(s.mean()).isEqualTo((1 + 2 + 4 + 5 + 6 + 7 + 9 + 10) / 8.0);
        assertThat(roi.pixelArea()).isCloseTo(Math.PI * 3, within(1e-12));
    }

    @Test
    void anRoiOutsideTheImageCoversNothing() {
        RoiStatistics s = RoiStatistics.of(counting(1, 0),
                (Measurement.Area) Measurement.of(Measurement.Kind.RECTANGLE, 10, 10, 20, 20));
        assertThat(s.pixels()).isZero();
        assertThat(s.mean()).isNaN();
    }

    @Test
    void aCtIsMeasuredInHounsfieldUnitsOnItsStoredValuesAndFilteredValuesWhenGiven() throws Exception {
        // SyntheticDicom's square: stored 3000, rescale -1024 -> 1976 HU, uniform
        DicomImage ct = DicomCodec.read(SyntheticDicom.ct(64, "2.25.4242"), 0, Raster.MAX_PIXELS);
        Measurement.Area inSquare = (Measurement.Area) Measurement.of(Measurement.Kind.RECTANGLE, 20, 20, 28, 28);
        ModalityValues own = ModalityValues.of(ct);
        assertThat(own.unit()).isEqualTo("HU");
        RoiStatistics s = RoiStatistics.of(own, inSquare);
        assertThat(s.pixels()).isEqualTo(64);
        assertThat(s.mean()).isEqualTo(1976);
        assertThat(s.sd()).isZero();
        assertThat(s.min()).isEqualTo(1976);
        assertThat(s.max()).isEqualTo(1976);

        GrayRaster16 filtered = ct.grayRaster();
        filtered.setValue(20, 20, 3100); // one pixel of the ROI changed by a "filter": +100 HU
        RoiStatistics after = RoiStatistics.of(ModalityValues.of(ct, filtered), inSquare);
        assertThat(after.mean()).isEqualTo(1976 + 100 / 64.0);
        assertThat(after.max()).isEqualTo(2076);
        assertThat(after.min()).isEqualTo(1976);
    }

    @Test
    void aMeasurerSaysTheUnitsAndTheAreaInSquareMillimetres() throws Exception {
        byte[] file = DicomEdits.with(SyntheticDicom.ct(64, "2.25.4243"), Map.of("PixelSpacing", "0.5\\0.25"));
        DicomImage ct = DicomCodec.read(file, 0, Raster.MAX_PIXELS);
        Measurer m = new Measurer(ModalityValues.of(ct), PixelSpacing.of(ct));
        Measurer.Result r = m.measure(Measurement.of(Measurement.Kind.RECTANGLE, 20, 20, 28, 28));
        // 8×8 pixels of 0.5 mm × 0.25 mm
        assertThat(r.line()).isEqualTo("Rectangle: mean 1976 HU, SD 0, min 1976, max 1976, area 8 mm², 64 pixels");
        assertThat(r.label()).contains("mean 1976 HU");
    }

    @Test
    void eightBitValuesSaySoAndUseTheGreyLevel() {
        Raster r = new Raster(2, 1, new byte[] {10, 10, 10, (byte) 200, 100, 0});
        ModalityValues v = ModalityValues.of(r);
        assertThat(v.value(0, 0)).isEqualTo(10);
        assertThat(v.value(1, 0)).isEqualTo(100);
        Measurer.Result res = new Measurer(v, null).measure(Measurement.of(Measurement.Kind.RECTANGLE, 0, 0, 2, 1));
        assertThat(res.line()).contains("mean 55 grey level (8-bit display)").contains("not modality values")
                .contains("area 2 px²").contains("no pixel spacing");
    }
}
