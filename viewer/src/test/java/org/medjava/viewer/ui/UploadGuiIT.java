package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.ArchiveLayout;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.viewer.testsupport.RefusingStore;

/**
 * Where uploads go by default (renders under derived/, a derived DICOM object where the store files what it receives
 * over the network) and the dialogs for the refusals a user can meet: 401 (then logging in again), 413 and 415.
 */
class UploadGuiIT extends ViewerGuiFixture {
    private static final String GIF = "samples/gif/ct-small.gif";

    @Test
    void aRenderGoesUnderDerivedNotBesideItsSource() throws Exception {
        startViewerAsAdmin(null);
        open(GIF);
        DialogFixture upload = openUploadDialog();
        upload.textBox("uploadDirectory").requireText("derived/samples/gif/");
        upload.textBox("uploadName").requireText("ct-small.png");
        viewer.choose(upload, "format-gif");
        upload.textBox("uploadName").requireText("ct-small.gif");
        viewer.choose(upload, "format-png");
        viewer.clickToClose(upload, upload.button("upload"));
        viewer.await("uploaded", () -> viewer.frame.statusBar().message()
                .startsWith("Uploaded derived/samples/gif/ct-small.png"));
        assertThat(store.send(store.admin("/images/derived/samples/gif/ct-small.png")).statusCode()).isEqualTo(200);
        awaitInTree("derived/samples/gif/ct-small.png");
    }

    @Test
    void aDerivedDicomObjectIsFiledLikeOneReceivedOverTheNetwork() throws Exception {
        startViewerAsAdmin(null);
        open("samples/dicom/CT_small.dcm");
        DicomImage source = viewer.onEdt(() -> viewer.frame.document().image().dicom());
        DialogFixture upload = openUploadDialog();
        String directory = upload.textBox("uploadDirectory").text();
        String name = upload.textBox("uploadName").text();
        assertThat(directory).startsWith(ArchiveLayout.ROOT + "/"
                + ArchiveLayout.directoryName(source.attributes().patientId()) + "/"
                + source.attributes().studyInstanceUid() + "/");
        viewer.clickToClose(upload, upload.button("upload"));
        String path = directory + name;
        viewer.await("uploaded", () -> viewer.frame.statusBar().message().startsWith("Uploaded " + path));

        var a = store.derivedDicomAt(path, source).attributes();
        String series = new String(store.send(store.admin("/index/studies/" + a.studyInstanceUid() + "/series"))
                .body(), StandardCharsets.UTF_8);
        assertThat(series).contains(a.seriesInstanceUid());
        awaitInTree(path);
    }

    @Test
    void a401OffersToLogInAgainAndThenUploads() throws Exception {
        store.user("uploader401", "first-password-1", "uploader");
        viewer = ViewerDriver.start(store, "uploader401", "first-password-1", null);
        open(GIF);
        store.user("uploader401", "second-password-2", "uploader"); // changed meanwhile, e.g. by an administrator
        DialogFixture upload = openUploadDialog();
        upload.textBox("uploadName").setText("after-relogin.png");
        viewer.clickToClose(upload, upload.button("upload"));

        DialogFixture refused = viewer.dialogTitled("Login needed (401)");
        assertThat(refused.textBox("dialogText").text()).contains("did not accept your login");
        viewer.screenshot("viewer-upload-401");
        viewer.clickButton(refused, "Log in again");
        DialogFixture login = viewer.dialog("connectDialog");
        login.textBox("user").requireText("uploader401");
        login.textBox("password").enterText("second-password-2");
        viewer.clickToClose(login, login.button("connect"));
        viewer.await("uploaded after the new login", () -> viewer.frame.statusBar().message()
                .startsWith("Uploaded derived/samples/gif/after-relogin.png"));
        assertThat(store.send(store.admin("/images/derived/samples/gif/after-relogin.png")).statusCode())
                .isEqualTo(200);
        awaitInTree("derived/samples/gif/after-relogin.png");
    }

    @Test
    void a415SaysTheNameAndTheContentDisagree() throws Exception {
        startViewerAsAdmin(null);
        open(GIF);
        DialogFixture upload = openUploadDialog();
        viewer.choose(upload, "format-png");
        upload.textBox("uploadName").setText("png-inside.gif");
        viewer.clickToClose(upload, upload.button("upload"));
        DialogFixture refused = viewer.dialogTitled("Type not accepted (415)");
        assertThat(refused.textBox("dialogText").text()).contains("file name's extension")
                .contains("png-inside.gif");
        viewer.clickButton(refused, "OK");
        assertThat(store.send(store.admin("/images/derived/samples/gif/png-inside.gif")).statusCode())
                .isEqualTo(404);
        assertThat(viewer.onEdt(() -> viewer.frame.document().image().origin().name())).isEqualTo("ct-small.gif");
    }

    @Test
    void a413NamesTheLimitAndWhatToDo() throws Exception {
        try (RefusingStore small = new RefusingStore(413, "the upload is larger than this store takes (64 MiB)")) {
            viewer = ViewerDriver.start(small.url(), "admin", "any-password", null);
            Path gif = Path.of(System.getProperty("medjava.root")).resolve("testdata/samples/gif/ct-small.gif");
            viewer.onEdt(() -> {
                viewer.frame.openLocal(gif);
                return null;
            });
            viewer.await("the GIF is open", () -> viewer.frame.document() != null);
            viewer.awaitIdle();
            DialogFixture upload = openUploadDialog();
            upload.textBox("uploadDirectory").requireText("derived/");
            viewer.clickToClose(upload, upload.button("upload"));
            DialogFixture refused = viewer.dialogTitled("Too large for the store (413)");
            assertThat(refused.textBox("dialogText").text()).contains("upload limit")
                    .contains("larger than this store takes (64 MiB)");
            viewer.clickButton(refused, "OK");
            assertThat(viewer.onEdt(() -> viewer.frame.document().image().origin().name()))
                    .isEqualTo("ct-small.gif");
        }
    }

    private void open(String path) {
        viewer.onEdt(() -> {
            viewer.frame.openStore(path);
            return null;
        });
        viewer.await(path + " is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
    }

    /** The tree opens the new directories down to an upload (several levels may be new). */
    private void awaitInTree(String path) {
        viewer.await("the tree shows " + path, () -> ((StoreTree) viewer.window.tree("storeTree").target())
                .rowOf(path) >= 0);
    }

    private DialogFixture openUploadDialog() {
        viewer.window.button("uploadButton").click();
        return viewer.dialog("uploadDialog");
    }
}
