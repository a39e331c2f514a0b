package org.medjava.viewer.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.geom.Point2D;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.Raster;
import org.medjava.viewer.image.DicomEdits;
import org.medjava.viewer.image.SyntheticDicom;

class GeometryTest {

    @Test
    void distanceUsesRowSpacingVerticallyAndColumnSpacingHorizontally() {
        PixelSpacing s = new PixelSpacing(2.0, 0.5, null); // rows 2 mm apart, columns 0.5 mm apart
        assertThat(s.length(10, 0)).isEqualTo(5.0);
        assertThat(s.length(0, 10)).isEqualTo(20.0);
        assertThat(s.length(8, 3)).isCloseTo(Math.hypot(4, 6), within(1e-12));
        Measurer m = new Measurer(null, s);
        assertThat(m.measure(Measurement.of(Measurement.Kind.DISTANCE, 0, 0, 8, 3)).line())
                .isEqualTo("Distance 7.2 mm");
        assertThat(new Measurer(null, null).measure(Measurement.of(Measurement.Kind.DISTANCE, 0, 0, 3, 4)).line())
                .isEqualTo("Distance 5 px (no pixel spacing: pixels)");
    }

    @Test
    void pixelSpacingComesFromTheFileAndImagerPixelSpacingOnlyForRadiographsSayingSo() throws Exception {
        byte[] ct = SyntheticDicom.ct(16, "2.25.77");
        assertThat(PixelSpacing.of(read(ct))).isNull();
        assertThat(PixelSpacing.of(read(DicomEdits.with(ct, Map.of("PixelSpacing", "0.7\\0.6")))))
                .isEqualTo(new PixelSpacing(0.7, 0.6, null));
        // a CT's ImagerPixelSpacing is not a patient-plane size: pixels
        assertThat(PixelSpacing.of(read(DicomEdits.with(ct, Map.of("ImagerPixelSpacing", "0.1\\0.1"))))).isNull();
        PixelSpacing dx = PixelSpacing.of(read(DicomEdits.with(ct, Map.of("Modality", "DX",
                "ImagerPixelSpacing", "0.143\\0.15"))));
        assertThat(dx).isEqualTo(new PixelSpacing(0.143, 0.15, PixelSpacing.AT_DETECTOR));
        assertThat(new Measurer(null, dx).measure(Measurement.of(Measurement.Kind.DISTANCE, 0, 0, 100, 0)).line())
                .isEqualTo("Distance 15 mm (" + PixelSpacing.AT_DETECTOR + ")");
        assertThat(PixelSpacing.parse("0\\1", null)).isNull();
        assertThat(PixelSpacing.parse("abc", null)).isNull();
    }

    @Test
    void rotationsAndFlipsMapImagePointsAndBack() {
        int w = 4;
        int h = 2;
        Orientation right = Orientation.IDENTITY.rotateRight();
        assertThat(right.displayWidth(w, h)).isEqualTo(2);
        assertThat(right.displayHeight(w, h)).isEqualTo(4);
        // turned right: the image's top-left corner goes to the top-right, its top-right to the bottom-right
        assertThat(right.toDisplay(0, 0, w, h)).isEqualTo(new Point2D.Double(2, 0));
        assertThat(right.toDisplay(4, 0, w, h)).isEqualTo(new Point2D.Double(2, 4));
        Orientation left = Orientation.IDENTITY.rotateLeft();
        assertThat(left.toDisplay(0, 0, w, h)).isEqualTo(new Point2D.Double(0, 4));
        assertThat(Orientation.IDENTITY.flipHorizontal().toDisplay(1, 0.5, w, h))
                .isEqualTo(new Point2D.Double(3, 0.5));
        assertThat(Orientation.IDENTITY.flipVertical().toDisplay(1, 0.5, w, h)).isEqualTo(new Point2D.Double(1, 1.5));
        assertThat(right.rotateLeft()).isEqualTo(Orientation.IDENTITY);
        assertThat(right.rotateRight().rotateRight()).isEqualTo(left); // three quarter turns right
        assertThat(Orientation.IDENTITY.flipHorizontal().flipVertical())
                .isEqualTo(Orientation.IDENTITY.rotateRight().rotateRight());
        for (Orientation o : new Orientation[] {right, left, right.flipHorizontal(), left.flipVertical(),
                Orientation.IDENTITY.flipHorizontal()}) {
            Point2D d = o.toDisplay(3.25, 1.5, w, h);
            assertThat(o.toImage(d.getX(), d.getY(), w, h)).isEqualTo(new Point2D.Double(3.25, 1.5));
            // the affine form and the point form agree
            assertThat(o.toDisplay(w, h).transform(new Point2D.Double(3.25, 1.5), null)).isEqualTo(d);
        }
        assertThat(Orientation.IDENTITY.describe()).isEmpty();
        assertThat(right.describe()).isEqualTo("rotated 90° right");
        assertThat(Orientation.IDENTITY.flipHorizontal().describe()).isEqualTo("flipped");
    }

    @Test
    void aMeasurementDrawnOnATurnedViewIsTheSameInImageCoordinates() {
        // a distance drawn between two displayed points of an image turned right: its length in mm depends only on
        // the image points, so it is the same as drawing it upright
        Orientation right = Orientation.IDENTITY.rotateRight();
        int w = 100;
        int h = 50;
        Point2D a = right.toImage(10, 20, w, h);
        Point2D b = right.toImage(40, 20, w, h); // 30 display pixels across = 30 image rows down
        Measurement m = Measurement.of(Measurement.Kind.DISTANCE, a.getX(), a.getY(), b.getX(), b.getY());
        assertThat(Math.abs(m.x1() - m.x0())).isZero();
        assertThat(Math.abs(m.y1() - m.y0())).isEqualTo(30);
        assertThat(new Measurer(null, new PixelSpacing(2, 0.5, null)).measure(m).label()).isEqualTo("60 mm");
    }

    private static DicomImage read(byte[] file) throws Exception {
        return DicomCodec.read(file, 0, Raster.MAX_PIXELS);
    }
}
