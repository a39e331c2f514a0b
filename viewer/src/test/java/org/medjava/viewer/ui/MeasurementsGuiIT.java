package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Point;
import java.awt.Toolkit;
import java.awt.datatransfer.DataFlavor;
import java.awt.event.KeyEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.image.DicomEdits;
import org.medjava.viewer.image.SyntheticDicom;
import org.medjava.viewer.measure.Measurement;
import org.medjava.viewer.measure.Orientation;
import org.medjava.viewer.model.WindowLevel;

/**
 * Issue 19 part 2 and 3 on the real window: ROIs on a synthetic CT with known Hounsfield units read back as the
 * viewer shows and copies them, a distance in mm, rotation that leaves the measurements alone, the preset box saying
 * "custom" after a drag, keys picking presets, an MR's percentile presets and a preset saved for MR.
 */
class MeasurementsGuiIT extends ViewerGuiFixture {
    /** 256×256, rows and columns 0.5 mm apart. SyntheticDicom: the square (65..127)² is stored 3000 = 1976 HU. */
    private static final int SIZE = 256;
    private static final String CT = "uploads/measure/ct-spacing.dcm";
    private static final String MR = "uploads/measure/mr.dcm";

    @Test
    void roisOnACtShowHounsfieldUnitsCopyAndSurviveRotation() throws Exception {
        putDicom(CT, DicomEdits.with(SyntheticDicom.ct(SIZE, "2.25.19190"), Map.of("PixelSpacing", "0.5\\0.5")));
        startViewerAsAdmin(null);
        viewer.openFromTree(CT);
        viewer.await("the CT is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        ImageView view = viewer.frame.imageView();

        // a rectangle inside the uniform square: exactly 1976 HU, SD 0
        viewer.window.toggleButton("tool-rectangle").click();
        viewer.dragOnImage(new Point(72, 72), new Point(118, 112));
        viewer.await("one ROI", () -> view.measurements().size() == 1);
        String rect = viewer.onEdt(() -> view.measurements().result(0).line());
        assertThat(rect).startsWith("Rectangle: mean 1976 HU, SD 0, min 1976, max 1976, area ").contains(" mm², ");
        assertThat(viewer.onEdt(() -> view.measurements().result(0).label())).contains("mean 1976 HU");
        // the area: pixels × 0.25 mm² is the drawn rectangle's to within a pixel's width around it
        assertThat(viewer.onEdt(() -> viewer.frame.statusBar().message())).isEqualTo(rect);

        // an ellipse on the gradient (stored 8x + 4y, HU = stored - 1024): the mean of exactly its pixels
        viewer.window.toggleButton("tool-ellipse").click();
        viewer.dragOnImage(new Point(150, 150), new Point(190, 180));
        viewer.await("two ROIs", () -> view.measurements().size() == 2);
        Measurement.Area ellipse = (Measurement.Area) viewer.onEdt(() -> view.measurements().get(1));
        double sum = 0;
        int n = 0;
        for (int y = 0; y < SIZE; y++) {
            for (int x = 0; x < SIZE; x++) {
                if (ellipse.containsPixel(x, y)) {
                    sum += x * 2048 / SIZE + y * 1024 / SIZE - 1024;
                    n++;
                }
            }
        }
        assertThat(n).isGreaterThan(500);
        String ellipseLine = viewer.onEdt(() -> view.measurements().result(1).line());
        assertThat(ellipseLine).startsWith("Ellipse: mean " + format(sum / n) + " HU, SD ")
                .contains(", " + n + " pixels");

        // a distance across 100 columns: 50 mm
        viewer.window.toggleButton("tool-distance").click();
        viewer.dragOnImage(new Point(20, 230), new Point(120, 230));
        viewer.await("a distance", () -> view.measurements().size() == 3);
        assertThat(viewer.onEdt(() -> view.measurements().result(2).line())).matches("Distance (49\\.\\d|50(\\.\\d)?) mm");

        // the list shows the same lines; Ctrl-C on it copies them
        var list = viewer.window.list("measurements");
        assertThat(list.contents()).hasSize(3);
        assertThat(list.contents()[0]).isEqualTo("1. " + rect);
        list.selectItem(0);
        viewer.robot.focusAndWaitForFocusGain(list.target());
        viewer.robot.pressKey(KeyEvent.VK_CONTROL);
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_C);
        viewer.robot.releaseKey(KeyEvent.VK_CONTROL);
        assertThat(viewer.onEdt(() -> ((MeasurementsPanel) viewer.window.panel("measurementsPanel").target()).text(false))).isEqualTo("1. " + rect + "\n");
        try {
            viewer.await("the clipboard holds the ROI", () -> clipboard().equals("1. " + rect + "\n"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the clipboard holds: " + clipboard(), e);
        }

        // turned right and flipped: the image coordinates, and so every value, stay
        viewer.window.button("rotateRightButton").click();
        viewer.window.button("flipHorizontalButton").click();
        viewer.await("turned", () -> view.orientation().equals(Orientation.IDENTITY.rotateRight().flipHorizontal()));
        assertThat(viewer.onEdt(() -> view.measurements().result(0).line())).isEqualTo(rect);
        assertThat(viewer.onEdt(() -> view.measurements().result(1).line())).isEqualTo(ellipseLine);
        assertThat(viewer.onEdt(() -> view.corner(3))).contains("rotated 90°");
        viewer.window.button("flipHorizontalButton").click(); // undone in the reverse order
        viewer.window.button("rotateLeftButton").click();
        viewer.await("upright", () -> view.orientation().equals(Orientation.IDENTITY));
        viewer.window.comboBox("presets").selectItem(Pattern.compile("CT abdomen.*"));
        viewer.await("abdomen window", () -> new Window(60, 400).equals(viewer.frame.document().window()));
        viewer.awaitIdle();
        viewer.screenshot("viewer-ct-hu-roi");
    }

    @Test
    void aDragShowsCustomAndDigitsPickPresets() throws Exception {
        putDicom(CT, DicomEdits.with(SyntheticDicom.ct(SIZE, "2.25.19191"), Map.of("PixelSpacing", "0.5\\0.5")));
        startViewerAsAdmin(null);
        viewer.openFromTree(CT);
        viewer.await("the CT is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        var presets = viewer.window.comboBox("presets");
        assertThat(viewer.onEdt(() -> presets.target().getSelectedItem().toString())).startsWith("File 1");

        viewer.window.toggleButton("tool-window_level").click();
        viewer.dragOnImage(new Point(100, 100), new Point(160, 140));
        viewer.await("the box says custom", () -> presets.target().getSelectedItem().toString().startsWith("custom"));
        Window dragged = viewer.onEdt(() -> viewer.frame.document().window());
        assertThat(dragged).isNotEqualTo(new Window(40, 400));
        assertThat(viewer.onEdt(() -> presets.target().getSelectedItem().toString()))
                .isEqualTo("custom (" + WindowLevel.format(dragged) + ")");

        // keys on the image: 4 is the fourth entry (File 1, Full range, CT soft tissue, CT lung)
        viewer.robot.focusAndWaitForFocusGain(viewer.frame.imageView());
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_4);
        viewer.await("the lung window", () -> new Window(-600, 1500).equals(viewer.frame.document().window()));
        viewer.await("custom is gone", () -> {
            for (int i = 0; i < presets.target().getItemCount(); i++) {
                if (presets.target().getItemAt(i).toString().startsWith("custom")) {
                    return false;
                }
            }
            return presets.target().getSelectedItem().toString().startsWith("CT lung");
        });
    }

    @Test
    void anMrGetsPercentilePresetsAndAPresetSavedForMr() throws Exception {
        putDicom(MR, DicomEdits.with(SyntheticDicom.ct(128, "2.25.19192"), Map.of("Modality", "MR",
                "SOPClassUID", "1.2.840.10008.5.1.4.1.1.4")));
        startViewerAsAdmin(null);
        viewer.openFromTree(MR);
        viewer.await("the MR is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        var presets = viewer.window.comboBox("presets");
        viewer.await("MR presets", () -> java.util.Arrays.stream(presets.contents())
                .anyMatch(s -> s.startsWith("MR 1–99 % percentile")));
        assertThat(presets.contents()).noneMatch(s -> s.startsWith("CT "));
        assertThat(viewer.onEdt(() -> viewer.frame.imageView().measurements().measurer().values().unit())).isEmpty();

        viewer.window.menuItem("viewMenu").click();
        viewer.window.menuItem("savePresetItem").click();
        DialogFixture ask = viewer.dialogTitled("Save window as preset");
        ask.textBox().setText("T2 test");
        viewer.clickButton(ask, "OK");
        viewer.await("the saved preset is offered", () -> java.util.Arrays.stream(presets.contents())
                .anyMatch(s -> s.startsWith("My: T2 test")));
        Path saved = Path.of(System.getProperty("medjava.viewer.home"), "presets.properties");
        assertThat(Files.readString(saved)).contains("MR.1.name=T2 test");
    }

    private static String clipboard() {
        try {
            return (String) Toolkit.getDefaultToolkit().getSystemClipboard().getData(DataFlavor.stringFlavor);
        } catch (Exception e) {
            return "(unreadable: " + e + ")";
        }
    }

    private static String format(double v) {
        double r = Math.round(v * 10) / 10.0;
        return r == Math.rint(r) ? Long.toString((long) r) : String.format(java.util.Locale.ROOT, "%.1f", r);
    }
}
