package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Pattern;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.DerivedDicom;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginDirectory;
import org.medjava.viewer.image.SyntheticDicom;
import org.medjava.viewer.model.WindowLevel;

/**
 * Issue 17's "done when" on the real window: a 16-bit CT is despeckled on its stored values, re-windowed with a
 * preset from soft tissue to bone with the filter kept, and uploaded as DICOM to a real store; the stored object is
 * a 16-bit derived CT whose Hounsfield units are those of despeckling the source's stored values directly.
 */
class GreyPipelineGuiIT extends ViewerGuiFixture {
    private static final String SOURCE = "uploads/gray16/ct16.dcm";
    private static final Window SOFT_TISSUE = new Window(40, 400);
    private static final Window BONE = new Window(400, 1800);

    @Test
    void aCtIsDespeckledThenRewindowedToBoneAndUploadedAsA16BitDerivedCt() throws Exception {
        byte[] ct = SyntheticDicom.speckledCt(160, "2.25.170317");
        putDicom(SOURCE, ct);
        startViewerAsAdmin(null);

        viewer.openFromTree(SOURCE);
        viewer.await("the CT is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        assertThat(viewer.onEdt(() -> viewer.frame.document().window())).isEqualTo(SOFT_TISSUE); // the file's

        viewer.window.menuItem("filter-despeckle").click();
        DialogFixture params = viewer.dialog("filterParams");
        viewer.clickToClose(params, params.button("applyFilter"));
        viewer.await("despeckle applied", () -> viewer.frame.document().history().canUndo());
        viewer.awaitIdle();
        GrayRaster16 despeckled = viewer.onEdt(() -> viewer.frame.document().state().stored());
        assertThat(despeckled).as("filtered on the stored values").isNotNull();
        assertThat(viewer.onEdt(() -> viewer.frame.statusBar().message())).contains("on the stored values");
        awaitShown(despeckled, SOFT_TISSUE);

        // the filter kept, the window changes: a preset from soft tissue to bone
        viewer.window.comboBox("presets").requireEnabled().selectItem(Pattern.compile("CT bone.*"));
        viewer.await("the bone window", () -> BONE.equals(viewer.frame.document().window()));
        awaitShown(despeckled, BONE);
        assertThat(viewer.onEdt(() -> viewer.frame.document().state().stored())).isSameAs(despeckled);
        viewer.await("the overlay shows the bone window", () -> viewer.frame.imageView().corner(3)
                .contains(WindowLevel.format(BONE)));
        viewer.screenshot("viewer-ct16-despeckled-bone");

        // undo shows the original through the bone window; redo the despeckled values again
        viewer.window.button("undoButton").click();
        viewer.await("undone", () -> viewer.frame.document().state().isOriginal());
        GrayRaster16 original = DicomCodec.read(ct, 0, Raster.MAX_PIXELS).grayRaster();
        awaitShown(original, BONE);
        viewer.window.button("redoButton").click();
        viewer.await("redone", () -> viewer.frame.document().state().stored() == despeckled);
        awaitShown(despeckled, BONE);

        viewer.window.button("uploadButton").click();
        DialogFixture upload = viewer.dialog("uploadDialog");
        upload.textBox("uploadDirectory").setText("uploads/gray16");
        upload.textBox("uploadName").setText("ct16-despeckled.dcm");
        viewer.choose(upload, "format-dcm");
        viewer.clickToClose(upload, upload.button("upload"));
        viewer.await("uploaded", () -> viewer.frame.statusBar().message().startsWith("Uploaded uploads/gray16/"));

        HttpResponse<byte[]> stored = store.send(store.admin("/images/uploads/gray16/ct16-despeckled.dcm"));
        assertThat(stored.statusCode()).isEqualTo(200);
        DicomImage derived = DicomCodec.read(stored.body(), 0, Raster.MAX_PIXELS);
        assertThat(DicomElements.value(derived, "BitsAllocated")).isEqualTo("16");
        assertThat(derived.attributes().sopClassUid()).isEqualTo(DerivedDicom.CT_IMAGE);
        assertThat(derived.rescaleIntercept()).isEqualTo(-1024);
        assertThat(derived.rescaleSlope()).isEqualTo(1);
        assertThat(derived.windowPresets()).containsExactly(BONE);
        assertThat(DicomElements.value(derived, "DerivationDescription")).contains("despeckle")
                .contains("stored values").contains("sha256:");
        GrayRaster16 expected = despeckleDirectly(original);
        assertThat(expected.sameContent(original)).isFalse();
        for (int y = 0; y < expected.height(); y++) {
            for (int x = 0; x < expected.width(); x++) {
                if (derived.modalityValue(x, y) != expected.valueAt(x, y) - 1024.0) {
                    throw new AssertionError("HU at (" + x + "," + y + ") is " + derived.modalityValue(x, y)
                            + ", despeckling the source gives " + (expected.valueAt(x, y) - 1024));
                }
            }
        }
    }

    /** The same filter, run on the source's stored values by a registry of the bundled plugins of its own. */
    private static GrayRaster16 despeckleDirectly(GrayRaster16 source) throws Exception {
        Path work = Files.createTempDirectory("direct-registry-");
        try (FilterRegistry registry = new FilterRegistry(work)) {
            PluginDirectory.loadAll(registry, Path.of(System.getProperty("medjava.plugins")));
            return registry.apply("despeckle", source, null, Map.of(), Implementation.OPTIMIZED);
        }
    }

    /** Waits until the view shows {@code values} (stored value v is v - 1024 HU) through {@code window}. */
    private void awaitShown(GrayRaster16 values, Window window) {
        viewer.await("the view shows the values through " + window, () -> {
            BufferedImage shown = viewer.frame.imageView().image();
            if (shown == null || shown.getType() != BufferedImage.TYPE_BYTE_GRAY) {
                return false;
            }
            byte[] grey = ((DataBufferByte) shown.getRaster().getDataBuffer()).getData();
            for (int i = 0; i < grey.length; i++) {
                int x = i % values.width();
                int y = i / values.width();
                if ((grey[i] & 0xFF) != window.apply(values.valueAt(x, y) - 1024.0)) {
                    return false;
                }
            }
            return true;
        });
    }
}
