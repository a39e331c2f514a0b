package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Point;
import java.awt.event.KeyEvent;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.image.SyntheticDicom;

/**
 * Issue 19 part 1 on the real window: a synthetic 40-slice CT opened from the Files tree becomes a stack in
 * Instance Number order, as the web viewer and OHIF show it, though its positions run the other way (issue 40: it
 * was in position order, instance 1 last); the wheel and the keys scroll it keeping the window and the zoom;
 * neighbours are prefetched within the cache's budget; cine starts and stops; the thumbnail strip opens the study's
 * other series. A double-click on the series in the DICOM tree opens it at instance 1.
 */
class SeriesStackGuiIT extends ViewerGuiFixture {
    private static final String UIDS = "1.2.826.0.1.3680043.9.7421.19";
    private static final String AXIAL = UIDS + ".2";
    private static final String SCOUT = UIDS + ".5";
    private static final String DIR = "uploads/series-stack-gui/";
    private static final int SLICES = 40;
    private static final int SIZE = 256;

    /** Instance i lies at z = (41 - i) × 2.5 mm: by position (feet to head), instance 40 would come first. */
    private static double z(int instance) {
        return (SLICES + 1 - instance) * 2.5;
    }

    private String instanceNumberShown() {
        return viewer.onEdt(() -> DicomElements.value(viewer.frame.document().image().dicom(), "InstanceNumber"));
    }

    private void awaitShown(int index) {
        viewer.await("image " + (index + 1) + " is shown", () -> viewer.frame.seriesView().stack().index() == index
                && viewer.frame.imageView().image() != null
                && viewer.frame.document().image().dicom() != null);
    }

    private void storeTheStudy() throws Exception {
        for (int i = 1; i <= SLICES; i++) {
            putDicom(DIR + "axial-" + i + ".dcm", SyntheticDicom.stackCt(SIZE, UIDS, AXIAL, i, z(i)));
        }
        for (int i = 1; i <= 3; i++) {
            putDicom(DIR + "scout-" + i + ".dcm", SyntheticDicom.stackCt(SIZE, UIDS, SCOUT, i, i * 10));
        }
    }

    @Test
    void aSeriesScrollsAsAStackWithPrefetchCineAndTheStudysSeriesStrip() throws Exception {
        storeTheStudy();
        startViewerAsAdmin(null);

        viewer.openFromTree(DIR + "axial-20.dcm");
        viewer.await("the series is a stack", () -> viewer.frame.seriesView().stack().count() == SLICES);
        StackController stack = viewer.frame.seriesView().stack();
        // instance 20 is image 20, as in the web viewer, though by position 20 slices lie below it
        assertThat(viewer.onEdt(stack::index)).isEqualTo(19);
        assertThat(viewer.onEdt(stack::basis))
                .isEqualTo(org.medjava.viewer.series.SeriesOrder.Basis.INSTANCE_NUMBER);
        viewer.awaitIdle();
        assertThat(viewer.onEdt(() -> viewer.frame.imageView().corner(2))).contains("Image 20 / 40");

        // a window and a zoom of the reader's own
        ImageView view = viewer.frame.imageView();
        viewer.onEdt(() -> {
            view.zoom(1.25);
            return null;
        });
        viewer.dragOnImage(new Point(80, 80), new Point(90, 84));
        Window window = viewer.onEdt(() -> viewer.frame.document().window());
        double scale = viewer.onEdt(view::scale);
        var origin = viewer.onEdt(() -> new double[] {view.transform().originX(), view.transform().originY()});
        assertThat(window).isNotEqualTo(viewer.onEdt(() -> viewer.frame.document().image().dicom().defaultWindow()
                .orElseThrow()));

        // the wheel: three notches down = three images on, the window, zoom and pan kept
        viewer.robot.moveMouse(view);
        viewer.robot.rotateMouseWheel(view, 3);
        awaitShown(22);
        assertThat(instanceNumberShown()).isEqualTo("23");
        assertThat(viewer.onEdt(() -> viewer.frame.document().window())).isEqualTo(window);
        assertThat(viewer.onEdt(view::scale)).isEqualTo(scale);
        assertThat(viewer.onEdt(() -> view.transform().originX())).isEqualTo(origin[0]);
        assertThat(viewer.onEdt(() -> viewer.frame.imageView().corner(2))).contains("Image 23 / 40");
        viewer.await("the renderer showed the kept window", () -> viewer.frame.imageView().image() != null);

        // neighbours ahead are prefetched, within the cache's budget
        viewer.await("the next images are prefetched", () -> stack.prefetcher().cache().contains(23)
                && stack.prefetcher().cache().contains(25));
        assertThat(viewer.onEdt(stack::cachedBytes)).isLessThanOrEqualTo(StackController.defaultBudget());

        // the keys, with the image focused (as after any click on it)
        viewer.onEdt(() -> view.requestFocusInWindow());
        viewer.await("the image has the focus", view::isFocusOwner);
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_END);
        awaitShown(SLICES - 1);
        assertThat(instanceNumberShown()).isEqualTo("40");
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_HOME);
        awaitShown(0);
        assertThat(instanceNumberShown()).isEqualTo("1");
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_PAGE_DOWN);
        awaitShown(StackKeys.PAGE);
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_DOWN);
        awaitShown(StackKeys.PAGE + 1);
        viewer.robot.pressAndReleaseKeys(KeyEvent.VK_UP, KeyEvent.VK_UP);
        awaitShown(StackKeys.PAGE - 1);
        assertThat(viewer.onEdt(() -> viewer.frame.document().window())).isEqualTo(window);
        assertThat(viewer.onEdt(view::scale)).isEqualTo(scale);
        viewer.screenshot("viewer-series-stack");
        // Ctrl+wheel still zooms
        viewer.robot.pressKey(KeyEvent.VK_CONTROL);
        viewer.robot.rotateMouseWheel(view, -1);
        viewer.robot.releaseKey(KeyEvent.VK_CONTROL);
        viewer.await("Ctrl+wheel zoomed in", () -> view.scale() > scale);
        assertThat(viewer.onEdt(stack::index)).isEqualTo(StackKeys.PAGE - 1);

        // cine: plays on, then stops where it is
        viewer.window.spinner("cineFps").enterTextAndCommit("20");
        viewer.window.toggleButton("cineButton").click();
        viewer.await("cine runs", stack::cineRunning);
        int from = viewer.onEdt(stack::index);
        viewer.await("cine moved on by five images", () -> Math.floorMod(stack.index() - from, SLICES) >= 5);
        viewer.window.toggleButton("cineButton").click();
        viewer.await("cine stopped", () -> !stack.cineRunning());
        int stoppedAt = viewer.onEdt(stack::wanted);
        Thread.sleep(500);
        assertThat(viewer.onEdt(stack::wanted)).as("no more moves").isEqualTo(stoppedAt);

        // the study's series strip: the scout series opens as its own stack, at its first image
        viewer.await("the strip shows both series", () -> viewer.frame.seriesView().strip().button(SCOUT) != null
                && viewer.frame.seriesView().strip().button(AXIAL) != null);
        viewer.window.button("series:" + SCOUT).click();
        viewer.await("the scout series is open", () -> SCOUT.equals(stack.seriesUid()) && stack.count() == 3
                && stack.index() == 0 && viewer.frame.document() != null
                && SCOUT.equals(viewer.frame.document().image().dicom().attributes().seriesInstanceUid()));
        assertThat(instanceNumberShown()).isEqualTo("1");
    }

    @Test
    void aDoubleClickOnASeriesInTheDicomTreeOpensItAtInstanceOne() throws Exception {
        storeTheStudy();
        startViewerAsAdmin(null);
        viewer.window.tabbedPane("browserTabs").selectTab("DICOM");
        viewer.window.textBox("searchPatient").setText("SYN-" + SIZE);
        viewer.window.button("search").click();
        var tree = viewer.window.tree("dicomTree");
        DicomSearchPanel panel = (DicomSearchPanel) javax.swing.SwingUtilities.getAncestorOfClass(
                DicomSearchPanel.class, tree.target());
        // the studies of that patient (other GUI tests store some too): expand them until the series shows
        viewer.await("the series is listed", () -> {
            for (int row = 0; row < tree.target().getRowCount(); row++) {
                if (tree.target().getPathForRow(row).getPathCount() == 3 && !tree.target().isExpanded(row)) {
                    tree.target().expandRow(row);
                }
            }
            boolean loading = false;
            for (int row = 0; row < tree.target().getRowCount(); row++) {
                loading |= tree.target().getPathForRow(row).getLastPathComponent().toString().equals("loading…");
            }
            return !loading && panel.rowOfSeries(AXIAL) >= 0; // rows no longer move
        });
        int row = viewer.onEdt(() -> panel.rowOfSeries(AXIAL));
        boolean expandedBefore = viewer.onEdt(() -> tree.target().isExpanded(row));

        tree.doubleClickRow(row);

        viewer.await("the series is open as a stack", () -> viewer.frame.seriesView().stack().count() == SLICES
                && AXIAL.equals(viewer.frame.seriesView().stack().seriesUid()) && viewer.frame.document() != null);
        StackController stack = viewer.frame.seriesView().stack();
        awaitShown(0);
        assertThat(instanceNumberShown()).isEqualTo("1");
        viewer.awaitIdle();
        assertThat(viewer.onEdt(() -> viewer.frame.imageView().corner(2))).contains("Image 1 / 40");
        assertThat(viewer.onEdt(() -> tree.target().isExpanded(row))).as("opened, not toggled")
                .isEqualTo(expandedBefore);
        assertThat(viewer.onEdt(stack::index)).isZero();
    }
}
