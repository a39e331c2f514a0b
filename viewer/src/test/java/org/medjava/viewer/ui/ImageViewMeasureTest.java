package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.Point;
import java.awt.event.InputEvent;
import java.awt.event.MouseEvent;
import java.awt.geom.Point2D;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import org.junit.jupiter.api.Test;
import org.medjava.viewer.measure.Measurement;
import org.medjava.viewer.measure.Measurer;
import org.medjava.viewer.measure.ModalityValues;
import org.medjava.viewer.measure.Orientation;
import org.medjava.viewer.measure.PixelSpacing;

/** The image view's measurement tools and view transforms, driven by mouse events without a screen. */
class ImageViewMeasureTest {

    private static ImageView view(int w, int h) {
        ImageView view = new ImageView();
        view.setSize(400, 300);
        BufferedImage image = new BufferedImage(w, h, BufferedImage.TYPE_BYTE_GRAY);
        byte[] grey = ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < grey.length; i++) {
            grey[i] = (byte) (i % w);
        }
        view.setImage(image, false);
        return view;
    }

    private static void drag(ImageView view, Point from, Point to) {
        long t = System.currentTimeMillis();
        view.dispatchEvent(new MouseEvent(view, MouseEvent.MOUSE_PRESSED, t, InputEvent.BUTTON1_DOWN_MASK, from.x,
                from.y, 1, false, MouseEvent.BUTTON1));
        view.dispatchEvent(new MouseEvent(view, MouseEvent.MOUSE_DRAGGED, t + 1, InputEvent.BUTTON1_DOWN_MASK, to.x,
                to.y, 0, false, MouseEvent.NOBUTTON));
        view.dispatchEvent(new MouseEvent(view, MouseEvent.MOUSE_RELEASED, t + 2, 0, to.x, to.y, 1, false,
                MouseEvent.BUTTON1));
    }

    @Test
    void aDistanceDrawnOnARotatedZoomedViewIsMeasuredInImageCoordinates() {
        ImageView view = view(100, 50);
        view.setMeasurerSource(() -> new Measurer(null, new PixelSpacing(2.0, 0.5, null)));
        view.rotateRight();
        view.zoom(1.7);
        assertThat(view.orientation()).isEqualTo(Orientation.IDENTITY.rotateRight());
        view.setMeasureTool(Measurement.Kind.DISTANCE);
        // from image pixel (10, 5) down 30 rows: on the turned view that is a horizontal line
        Point a = view.viewPoint(10.5, 5.5);
        Point b = view.viewPoint(10.5, 35.5);
        assertThat(a.y).isCloseTo(b.y, within(1));
        drag(view, a, b);
        assertThat(view.measurements().size()).isEqualTo(1);
        Measurement m = view.measurements().get(0);
        assertThat(m.x0()).isCloseTo(10.5, within(0.5));
        assertThat(m.y1() - m.y0()).isCloseTo(30, within(0.6));
        // 30 rows of 2 mm
        assertThat(view.measurements().result(0).line()).matches("Distance (59\\.\\d|60(\\.\\d)?) mm");
        Point2D back = view.imagePoint(a.x, a.y);
        assertThat(back.getX()).isCloseTo(10.5, within(0.5));
        assertThat(back.getY()).isCloseTo(5.5, within(0.5));
    }

    @Test
    void anRoiIsRecomputedWhenTheValuesChangeAndClearedForANewImage() {
        ImageView view = view(100, 50);
        int[] stored = new int[100 * 50];
        java.util.Arrays.fill(stored, 1040); // 16 HU at slope 1, intercept -1024
        ModalityValues[] values = {new ModalityValues(100, 50, i -> stored[i], 1, -1024, "HU", stored)};
        view.setMeasurerSource(() -> new Measurer(values[0], null));
        view.setImage(view.image(), true);
        view.flipHorizontal();
        view.setMeasureTool(Measurement.Kind.ELLIPSE);
        drag(view, view.viewPoint(20, 10), view.viewPoint(40, 30));
        assertThat(view.measurements().result(0).line()).startsWith("Ellipse: mean 16 HU, SD 0, min 16, max 16");
        // a filter changed the values: the same ROI, measured again
        int[] filtered = new int[100 * 50];
        java.util.Arrays.fill(filtered, 1064);
        values[0] = new ModalityValues(100, 50, i -> filtered[i], 1, -1024, "HU", filtered);
        view.setImage(view.image(), true);
        assertThat(view.measurements().result(0).line()).startsWith("Ellipse: mean 40 HU");
        view.setImage(new BufferedImage(10, 10, BufferedImage.TYPE_BYTE_GRAY), false);
        assertThat(view.measurements().size()).isZero();
        assertThat(view.orientation()).isEqualTo(Orientation.IDENTITY);
    }

    @Test
    void theSelectToolStillSelectsImagePixelsOnATurnedView() {
        ImageView view = view(100, 50);
        view.setTool(ImageView.Tool.SELECT);
        view.rotateLeft();
        drag(view, view.viewPoint(10, 10), view.viewPoint(30, 20));
        assertThat(view.selection()).isNotNull();
        assertThat(view.selection().x()).isBetween(9, 10);
        assertThat(view.selection().y()).isBetween(9, 10);
        assertThat(view.selection().width()).isBetween(19, 21);
        assertThat(view.selection().height()).isBetween(9, 11);
    }

    @Test
    void invertFlipsGreyAndColour() {
        BufferedImage grey = new BufferedImage(2, 1, BufferedImage.TYPE_BYTE_GRAY);
        grey.getRaster().setSample(0, 0, 0, 10);
        grey.getRaster().setSample(1, 0, 0, 255);
        BufferedImage g = ImageView.invert(grey);
        assertThat(g.getRaster().getSample(0, 0, 0)).isEqualTo(245);
        assertThat(g.getRaster().getSample(1, 0, 0)).isZero();
        BufferedImage rgb = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        rgb.setRGB(0, 0, 0x102030);
        assertThat(ImageView.invert(rgb).getRGB(0, 0) & 0xFFFFFF).isEqualTo(0xEFDFCF);
    }
}
