package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Point;
import java.awt.image.BufferedImage;
import java.util.regex.Pattern;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.ArchiveLayout;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.image.GreyRenderer;
import org.medjava.viewer.image.SyntheticDicom;
import org.medjava.viewer.measure.Orientation;

/**
 * Issue 19 end to end on the real window and the shared test store: a synthetic 24-slice CT series is opened as a
 * stack, scrolled, read through a CT preset and a dragged window, measured (a rectangle in the bright square reads its
 * known 1976 HU), despeckled on its stored values, flicked before/after and shown side by side, and uploaded as derived
 * DICOM filed under dicom/{PatientID}/ in the source's study. On the way: measurements belong to their slice (gone on
 * the next, back on return) while rotation, zoom and window stay.
 */
class ReadingCtSeriesGuiIT extends ViewerGuiFixture {
    private static final String UIDS = "1.2.826.0.1.3680043.9.7421.29";
    private static final String SERIES = UIDS + ".2";
    private static final String DIR = "uploads/reading-ct-series/";
    private static final int SLICES = 24;
    private static final int SIZE = 128;

    @Test
    void aCtSeriesIsScrolledMeasuredFilteredComparedAndUploaded() throws Exception {
        for (int i = 1; i <= SLICES; i++) {
            putDicom(DIR + "ct-" + i + ".dcm", SyntheticDicom.stackCt(SIZE, UIDS, SERIES, i, i * 2.5));
        }
        startViewerAsAdmin(null);
        viewer.openFromTree(DIR + "ct-8.dcm");
        viewer.await("the series is a stack", () -> viewer.frame.seriesView().stack().count() == SLICES);
        StackController stack = viewer.frame.seriesView().stack();
        viewer.awaitIdle();
        int start = viewer.onEdt(stack::index);
        ImageView view = viewer.frame.imageView();

        // scroll to another slice
        viewer.robot.moveMouse(view);
        viewer.robot.rotateMouseWheel(view, 3);
        awaitShown(start + 3);
        int slice = start + 3;
        DicomImage source = viewer.onEdt(() -> viewer.frame.document().image().dicom());
        int instance = Integer.parseInt(DicomElements.value(source, "InstanceNumber").trim());
        assertThat(instance).isNotEqualTo(8);

        // a CT preset, then a window/level drag of the reader's own
        viewer.window.comboBox("presets").selectItem(Pattern.compile("CT abdomen.*"));
        viewer.await("the abdomen window", () -> new Window(60, 400).equals(viewer.frame.document().window()));
        viewer.window.toggleButton("tool-window_level").click();
        viewer.dragOnImage(new Point(20, 100), new Point(22, 101));
        viewer.await("a window of the reader's own", () -> !new Window(60, 400).equals(viewer.frame.document()
                .window()) && viewer.window.comboBox("presets").target().getSelectedItem().toString()
                .startsWith("custom"));
        Window window = viewer.onEdt(() -> viewer.frame.document().window());

        // a rectangle inside this slice's bright square (stored 3000 = 1976 HU; the square moves with z)
        int shift = Math.floorMod((int) (instance * 2.5) * 2, SIZE / 2);
        int left = SIZE / 4 + shift / 2 + 4;
        viewer.window.toggleButton("tool-rectangle").click();
        viewer.dragOnImage(new Point(left, SIZE / 4 + 4), new Point(left + 20, SIZE / 2 - 6));
        viewer.await("one ROI", () -> view.measurements().size() == 1);
        String roi = viewer.onEdt(() -> view.measurements().result(0).line());
        assertThat(roi).startsWith("Rectangle: mean 1976 HU, SD 0, min 1976, max 1976");

        // turned and zoomed: the next slice keeps the view but not this slice's ROI; coming back brings it back
        viewer.window.button("rotateRightButton").click();
        viewer.window.menuItem("zoomIn").click();
        Orientation turned = Orientation.IDENTITY.rotateRight();
        viewer.await("turned", () -> view.orientation().equals(turned));
        double scale = viewer.onEdt(view::scale);
        viewer.robot.moveMouse(view);
        viewer.robot.rotateMouseWheel(view, 1);
        awaitShown(slice + 1);
        viewer.await("the next slice has no ROI", () -> view.measurements().size() == 0);
        assertThat(viewer.onEdt(view::orientation)).isEqualTo(turned);
        assertThat(viewer.onEdt(view::scale)).isEqualTo(scale);
        assertThat(viewer.onEdt(() -> viewer.frame.document().window())).isEqualTo(window);
        viewer.robot.rotateMouseWheel(view, -1);
        awaitShown(slice);
        viewer.await("the ROI is back on its slice", () -> view.measurements().size() == 1);
        assertThat(viewer.onEdt(() -> view.measurements().result(0).line())).isEqualTo(roi);
        assertThat(viewer.onEdt(view::orientation)).isEqualTo(turned);
        viewer.window.button("rotateLeftButton").click();
        viewer.await("upright", () -> view.orientation().equals(Orientation.IDENTITY));

        // the bone window shows the square (white) against the gradient beside it (grey, at most 272 HU there)
        viewer.window.comboBox("presets").selectItem(Pattern.compile("CT bone.*"));
        Window bone = new Window(400, 1800);
        viewer.await("the bone window", () -> bone.equals(viewer.frame.document().window()));

        // despeckle on the stored values: the square's corners go (a 3×3 median)
        viewer.window.menuItem("filter-despeckle").click();
        DialogFixture params = viewer.dialog("filterParams");
        viewer.clickToClose(params, params.button("applyFilter"));
        viewer.await("despeckle applied on stored values", () -> viewer.frame.document().history().canUndo()
                && viewer.frame.document().state().stored() != null);
        viewer.awaitIdle();
        BufferedImage before = GreyRenderer.render(source, bone);
        viewer.await("the filtered image is shown", () -> view.image() != null
                && changedPixel(before, view.image()) != null);
        Point changed = changedPixel(before, viewer.onEdt(view::image));

        // before/after: the screen shows the source where the result was
        CompareView compare = viewer.onEdt(() -> viewer.frame.compareView());
        viewer.robot.waitForIdle();
        int result = viewer.screenGrey(view, changed);
        viewer.window.toggleButton("beforeToggle").click();
        viewer.await("the source instead of the result", () -> compare.mode() == CompareView.Mode.BEFORE
                && compare.sourceImage() != null && compare.sourceView().isShowing());
        viewer.robot.waitForIdle();
        int sourceGrey = viewer.screenGrey(compare.sourceView(), changed);
        assertThat(Math.abs(sourceGrey - result)).as("screen grey before (%d) and after (%d) at %s", sourceGrey,
                result, changed).isGreaterThan(100);
        viewer.window.toggleButton("beforeToggle").click();
        viewer.await("the result again", () -> compare.mode() == CompareView.Mode.RESULT && view.isShowing());
        viewer.window.toggleButton("sideBySideToggle").click();
        viewer.await("both sides", () -> compare.mode() == CompareView.Mode.SIDE_BY_SIDE
                && compare.sourceView().isShowing() && view.isShowing());
        viewer.window.button("fitButton").click(); // the whole slice on each half, for the screenshot
        viewer.robot.waitForIdle();
        viewer.screenshot("viewer-reading-ct-series");
        viewer.window.toggleButton("sideBySideToggle").click();
        viewer.await("one side", () -> compare.mode() == CompareView.Mode.RESULT);

        // the derived DICOM lands where the store files DICOM, in the source's study
        viewer.window.button("uploadButton").click();
        DialogFixture upload = viewer.dialog("uploadDialog");
        String path = upload.textBox("uploadDirectory").text() + upload.textBox("uploadName").text();
        assertThat(path).startsWith(ArchiveLayout.ROOT + "/"
                + ArchiveLayout.directoryName(source.attributes().patientId()) + "/"
                + source.attributes().studyInstanceUid() + "/");
        viewer.clickToClose(upload, upload.button("upload"));
        viewer.await("uploaded", () -> viewer.frame.statusBar().message().startsWith("Uploaded " + path));
        DicomImage derived = store.derivedDicomAt(path, source);
        assertThat(derived.attributes().seriesInstanceUid()).isNotEqualTo(SERIES);
        assertThat(derived.width()).isEqualTo(SIZE);
    }

    private void awaitShown(int index) {
        viewer.await("slice " + (index + 1) + " is shown", () -> viewer.frame.seriesView().stack().index() == index
                && viewer.frame.imageView().image() != null && viewer.frame.document().image().dicom() != null);
        viewer.awaitIdle();
    }

    /** A pixel whose grey the filter changed by more than 100 (a corner of the bright square), or null. */
    private static Point changedPixel(BufferedImage a, BufferedImage b) {
        for (int y = 2; y < a.getHeight() - 2; y++) {
            for (int x = 2; x < a.getWidth() - 2; x++) {
                if (Math.abs(a.getRaster().getSample(x, y, 0) - b.getRaster().getSample(x, y, 0)) > 100) {
                    return new Point(x, y);
                }
            }
        }
        return null;
    }
}
