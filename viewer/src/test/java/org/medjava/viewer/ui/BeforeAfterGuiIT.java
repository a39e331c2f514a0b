package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Component;
import java.awt.Point;
import java.awt.event.KeyEvent;
import java.awt.image.BufferedImage;
import java.util.Arrays;
import org.assertj.swing.core.MouseButton;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.image.GreyRenderer;
import org.medjava.viewer.image.SyntheticDicom;

/**
 * Issue 19 part 4 on the real window: a CT is despeckled through the dialog (plain help, live preview), B flicks the
 * screen between the result and its source, and side by side shows both with one zoom, pan and window.
 */
class BeforeAfterGuiIT extends ViewerGuiFixture {
    private static final String SOURCE = "uploads/compare/ct-speckled.dcm";

    @Test
    void beforeAfterFlicksToTheSourceAndSideBySideShowsBothInStep() throws Exception {
        putDicom(SOURCE, SyntheticDicom.speckledCt(160, "2.25.90210"));
        startViewerAsAdmin(null);
        viewer.openFromTree(SOURCE);
        viewer.await("the CT is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();

        viewer.window.menuItem("filter-despeckle").click();
        DialogFixture params = viewer.dialog("filterParams");
        assertThat(params.label("help-n").text()).contains("Width of the square");
        FilterParamsDialog dialog = (FilterParamsDialog) params.target();
        viewer.await("the live preview", () -> dialog.previewPanel().after() != null);
        viewer.clickToClose(params, params.button("applyFilter"));
        viewer.await("despeckle applied", () -> viewer.frame.document().history().canUndo());
        viewer.awaitIdle();

        ImageView view = viewer.frame.imageView();
        CompareView compare = viewer.onEdt(() -> viewer.frame.compareView());
        Window window = viewer.onEdt(() -> viewer.frame.document().window());
        BufferedImage source = GreyRenderer.render(viewer.frame.document().image().dicom(), window);
        viewer.await("the filtered image is shown", () -> viewer.frame.document().state().stored() != null
                && view.image() != null && !Arrays.equals(grey(view.image()), grey(source)));
        BufferedImage result = viewer.onEdt(view::image);
        Point speckle = speckleRemoved(source, result);

        // B with the image focused: the screen shows the source where the result was, and back
        int filtered = screenGrey(view, speckle);
        viewer.robot.click(view);
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_B);
        viewer.await("the source instead of the result", () -> compare.mode() == CompareView.Mode.BEFORE
                && compare.sourceImage() != null);
        assertThat(grey(viewer.onEdt(compare::sourceImage))).isEqualTo(grey(source));
        viewer.window.toggleButton("beforeToggle").requireSelected();
        viewer.robot.waitForIdle();
        int before = screenGrey(compare.sourceView(), speckle);
        assertThat(before).as("the speckle is back on screen").isGreaterThan(filtered + 100);
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_B);
        viewer.await("the result again", () -> compare.mode() == CompareView.Mode.RESULT && view.isShowing());
        viewer.robot.waitForIdle();
        assertThat(screenGrey(view, speckle)).isEqualTo(filtered);

        // side by side: source left, result right, one geometry
        viewer.window.toggleButton("sideBySideToggle").click();
        viewer.await("both sides", () -> compare.mode() == CompareView.Mode.SIDE_BY_SIDE
                && compare.sourceView().isShowing() && view.isShowing());
        viewer.robot.waitForIdle();
        assertThat(compare.sourceView().getLocationOnScreen().x).isLessThan(view.getLocationOnScreen().x);
        assertBothSides(view, compare, speckle, before, filtered);
        viewer.window.menuItem("zoomIn").click();
        viewer.window.menuItem("zoomIn").click();
        viewer.robot.waitForIdle();
        assertBothSides(view, compare, speckle, before, filtered);
        // a right-drag (pan) on the source side moves both
        Point from = viewer.onEdt(() -> view.viewPoint(80, 80));
        double originBefore = viewer.onEdt(() -> view.transform().originX());
        viewer.robot.moveMouse(compare.sourceView(), from);
        viewer.robot.pressMouse(MouseButton.RIGHT_BUTTON);
        viewer.robot.moveMouse(compare.sourceView(), new Point(from.x + 20, from.y + 10));
        viewer.robot.moveMouse(compare.sourceView(), new Point(from.x + 40, from.y + 20));
        viewer.robot.releaseMouse(MouseButton.RIGHT_BUTTON);
        viewer.robot.waitForIdle();
        assertThat(viewer.onEdt(() -> view.transform().originX())).isGreaterThan(originBefore);
        assertBothSides(view, compare, speckle, before, filtered);
        viewer.screenshot("viewer-side-by-side");

        // window/level dragged on the source side changes the window of both
        Point a = viewer.onEdt(() -> view.viewPoint(60, 60));
        viewer.robot.moveMouse(compare.sourceView(), a);
        viewer.robot.pressMouse(MouseButton.LEFT_BUTTON); // the W/L tool
        for (int i = 1; i <= 6; i++) {
            viewer.robot.moveMouse(compare.sourceView(), new Point(a.x + 8 * i, a.y + 4 * i));
        }
        viewer.robot.releaseMouse(MouseButton.LEFT_BUTTON);
        viewer.await("a new window", () -> !window.equals(viewer.frame.document().window()));
        Window dragged = viewer.onEdt(() -> viewer.frame.document().window());
        BufferedImage sourceDragged = GreyRenderer.render(viewer.frame.document().image().dicom(), dragged);
        viewer.await("the source re-rendered through the new window",
                () -> Arrays.equals(grey(compare.sourceImage()), grey(sourceDragged)));
    }

    /** The screen on both sides at the speckle: the source shows it, the result does not. */
    private void assertBothSides(ImageView view, CompareView compare, Point speckle, int before, int filtered)
            throws Exception {
        assertThat(screenGrey(compare.sourceView(), speckle)).as("left: the source").isEqualTo(before);
        assertThat(screenGrey(view, speckle)).as("right: the result").isEqualTo(filtered);
    }

    /**
     * An image pixel that is bright in the source and dark after despeckling, near enough to the middle to stay in
     * sight when a half-width view is zoomed in about its centre and panned a little.
     */
    private static Point speckleRemoved(BufferedImage source, BufferedImage result) {
        for (int y = source.getHeight() / 8; y < source.getHeight() / 2; y++) {
            for (int x = source.getWidth() * 3 / 16; x < source.getWidth() / 2; x++) {
                if (source.getRaster().getSample(x, y, 0) == 255 && result.getRaster().getSample(x, y, 0) < 60) {
                    return new Point(x, y);
                }
            }
        }
        throw new AssertionError("no speckle removed by despeckle in the CT");
    }

    private int screenGrey(Component side, Point p) throws Exception {
        return viewer.screenGrey(side, p);
    }

    private static int[] grey(BufferedImage image) {
        return image == null ? null : image.getRaster().getPixels(0, 0, image.getWidth(), image.getHeight(),
                (int[]) null);
    }
}
