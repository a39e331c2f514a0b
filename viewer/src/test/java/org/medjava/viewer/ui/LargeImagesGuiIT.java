package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.Raster;
import org.medjava.viewer.image.SyntheticDicom;

/**
 * Large images are the normal case: a 4096x4096 16-bit CT and the 1760x1760 radiograph open, filter and upload
 * with the default JVM settings (this test JVM has no -Xmx), the window staying responsive meanwhile.
 */
class LargeImagesGuiIT extends ViewerGuiFixture {
    @BeforeEach
    void startViewer() throws Exception {
        startViewerAsAdmin(null);
    }

    private void openFilterUpload(String path, int size, String uploadName) throws Exception {
        viewer.onEdt(() -> {
            viewer.frame.openStore(path);
            return null;
        });
        viewer.await(path + " is open", () -> viewer.frame.document() != null
                && viewer.frame.document().width() == size);
        viewer.awaitIdle();
        viewer.window.menuItem("filter-blur").click();
        DialogFixture params = viewer.dialog("filterParams");
        viewer.clickToClose(params, params.button("applyFilter"));
        viewer.await("blurred", () -> viewer.frame.document().history().canUndo());
        viewer.awaitIdle();
        viewer.window.button("uploadButton").click();
        DialogFixture upload = viewer.dialog("uploadDialog");
        upload.textBox("uploadDirectory").setText("uploads/large");
        upload.textBox("uploadName").setText(uploadName);
        viewer.choose(upload, "format-dcm");
        viewer.clickToClose(upload, upload.button("upload"));
        viewer.await("uploaded", () -> viewer.frame.statusBar().message().startsWith("Uploaded uploads/large/"
                + uploadName));
        HttpResponse<byte[]> stored = store.send(store.admin("/images/uploads/large/" + uploadName));
        assertThat(stored.statusCode()).isEqualTo(200);
        DicomImage derived = DicomCodec.read(stored.body(), 0, Raster.MAX_PIXELS);
        assertThat(derived.width()).isEqualTo(size);
        assertThat(derived.render().sameContent(viewer.onEdt(() -> viewer.frame.document().filterInput()))).isTrue();
        Runtime rt = Runtime.getRuntime();
        System.out.printf("%s: %dx%d opened, blurred, uploaded; heap used %d MiB of the default maximum %d MiB%n",
                path, size, size, (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20);
    }

    @Test
    void a4096By4096SixteenBitCtOpensFiltersAndUploads() throws Exception {
        putDicom("large/synthetic-4096.dcm", SyntheticDicom.ct(4096, "2.25.40964096"));
        openFilterUpload("large/synthetic-4096.dcm", 4096, "synthetic-4096-blurred.dcm");
    }

    @Test
    void theRadiographOpensFiltersAndUploads() throws Exception {
        Path rg3 = Path.of(System.getProperty("medjava.root")).resolve("../shared/testdata/dicom/RG3_UNCR.dcm");
        // 6 MB, not copied into the repository: the shared test data beside it, where there is one
        assumeTrue(Files.isRegularFile(rg3),
                "shared test data absent (../shared/testdata beside the repository): " + rg3);
        putDicom("large/RG3_UNCR.dcm", Files.readAllBytes(rg3));
        openFilterUpload("large/RG3_UNCR.dcm", 1760, "rg3-blurred.dcm");
        viewer.screenshot("viewer-radiograph-blurred");
    }
}
