package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import javax.swing.JProgressBar;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.SyntheticDicom;

/**
 * Issue 17 part 6 on the real window: a grey CT of a two-image series, despeckled on its stored values, has its
 * chain applied by the store to the whole series from the Filters menu; the progress dialog follows the job to
 * "2 of 2", and the first derived image opens from the store.
 */
class SeriesJobGuiIT extends ViewerGuiFixture {
    private static final String UIDS = "1.2.826.0.1.3680043.9.7421";
    private static final String DIR = "uploads/series-job-gui/";

    @Test
    void theChainRunsOverTheSeriesOnTheStoreAndTheFirstDerivedImageOpens() throws Exception {
        putDicom(DIR + "1.dcm", SyntheticDicom.seriesCt(96, UIDS, 1));
        putDicom(DIR + "2.dcm", SyntheticDicom.seriesCt(96, UIDS, 2));
        startViewerAsAdmin(null);

        viewer.openFromTree(DIR + "1.dcm");
        viewer.await("the CT is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        assertThat(viewer.onEdt(() -> viewer.frame.seriesJobItem().isEnabled())).as("no chain yet").isFalse();

        viewer.window.menuItem("filter-despeckle").click();
        DialogFixture params = viewer.dialog("filterParams");
        viewer.clickToClose(params, params.button("applyFilter"));
        viewer.await("despeckle applied", () -> viewer.frame.document().history().canUndo());
        viewer.awaitIdle();
        viewer.await("the series item is enabled once the store's despeckle is followed",
                () -> viewer.frame.seriesJobItem().isEnabled());

        viewer.window.menuItem("seriesJobItem").click();
        DialogFixture confirm = viewer.dialogTitled("Apply the chain to the whole series?");
        assertThat(confirm.textBox("dialogText").text()).contains("despeckle").contains(UIDS + ".2");
        viewer.clickButton(confirm, "Apply to the series");

        DialogFixture done = viewer.dialogTitled("Series job done");
        assertThat(done.textBox("dialogText").text()).contains("Done: 2 images");
        SeriesJobDialog progress = viewer.onEdt(() -> (SeriesJobDialog) Arrays.stream(viewer.frame.getOwnedWindows())
                .filter(w -> w instanceof SeriesJobDialog).findFirst().orElseThrow());
        assertThat(viewer.onEdt(progress::isShowing)).as("closed when the job ended").isFalse();
        JProgressBar bar = viewer.onEdt(() -> findBar(progress));
        assertThat(viewer.onEdt(bar::getString)).isEqualTo("2 of 2");
        viewer.clickButton(done, SeriesJobDialog.OPEN_FIRST);

        viewer.await("the first derived image is open", () -> viewer.frame.document() != null
                && viewer.frame.document().origin() instanceof ImageOrigin.StoreFile f && !f.path().startsWith(DIR));
        viewer.awaitIdle();
        var opened = viewer.onEdt(() -> viewer.frame.document().image().dicom());
        assertThat(DicomElements.value(opened, "StudyInstanceUID")).isEqualTo(UIDS + ".1");
        assertThat(DicomElements.value(opened, "SeriesInstanceUID")).isNotEqualTo(UIDS + ".2");
        assertThat(DicomElements.value(opened, "DerivationDescription")).contains("despeckle");
    }

    private static JProgressBar findBar(java.awt.Container c) {
        for (java.awt.Component child : c.getComponents()) {
            if (child instanceof JProgressBar b && "seriesJobProgress".equals(b.getName())) {
                return b;
            }
            if (child instanceof java.awt.Container inner) {
                JProgressBar b = findBar(inner);
                if (b != null) {
                    return b;
                }
            }
        }
        return null;
    }
}
