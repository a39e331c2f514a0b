package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Component;
import java.awt.event.KeyEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.swing.JTable;
import javax.swing.JViewport;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.Test;
import org.medjava.viewer.model.RecentServers;
import org.medjava.viewer.testsupport.LocalStore;

/**
 * The rough edges a reader met first (issue 19): names in the file tree and the attribute table's Tag column cut
 * off, an empty user field when the viewer is started on its own, Ctrl-U doing nothing while the tree has the focus.
 */
class RoughEdgesGuiIT extends ViewerGuiFixture {
    private static final String CT = "samples/dicom/CT_small.dcm";

    @Test
    void theTreeKeepsNamesInSightAndTheTagColumnFitsItsTags() throws Exception {
        startViewerAsAdmin(null);
        viewer.openFromTree(CT);
        viewer.await("the CT is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        StoreTree tree = (StoreTree) viewer.window.tree("storeTree").target();
        // opening a row with a long summary used to scroll the tree sideways, hiding the start of every name
        assertThat(viewer.onEdt(() -> ((JViewport) tree.getParent()).getViewPosition().x)).isZero();

        JTable table = viewer.window.table("attributes").target();
        viewer.await("the attributes are shown", () -> table.getRowCount() > 20);
        int clipped = viewer.onEdt(() -> {
            int n = 0;
            int width = table.getColumnModel().getColumn(0).getWidth();
            for (int row = 0; row < table.getRowCount(); row++) {
                Component c = table.prepareRenderer(table.getCellRenderer(row, 0), row, 0);
                n += c.getPreferredSize().width > width ? 1 : 0;
            }
            return n;
        });
        assertThat(clipped).as("Tag cells wider than their column").isZero();
        viewer.screenshot("viewer-tree-and-tags");
    }

    @Test
    void theLoginOffersTheLastUserOfThatServerElseTheSystemUser() throws Exception {
        Path home = Files.createTempDirectory("viewer-home-");
        viewer = ViewerDriver.startAsking(home, store.url(), null);
        DialogFixture login = viewer.dialog("connectDialog");
        login.textBox("user").requireText(System.getProperty("user.name"));
        viewer.clickToClose(login, login.button("connectCancel"));
        viewer.close();

        new RecentServers(home.resolve("viewer.properties")).remember(new RecentServers.Server(store.url(), "admin"));
        viewer = ViewerDriver.startAsking(home, store.url(), null);
        login = viewer.dialog("connectDialog");
        login.textBox("user").requireText("admin");
        login.textBox("password").enterText(LocalStore.ADMIN_PASSWORD);
        viewer.clickToClose(login, login.button("connect"));
        viewer.await("connected as admin", () -> viewer.frame.client() != null
                && viewer.frame.client().user().equals("admin"));
    }

    @Test
    void ctrlUUploadsWhileTheTreeHasTheFocus() throws Exception {
        startViewerAsAdmin(null);
        var tree = viewer.window.tree("storeTree");
        focus(tree.target());
        pressCtrl(KeyEvent.VK_U);
        viewer.await("the shortcut says why it cannot upload yet", () -> viewer.frame.statusBar().message()
                .contains("open an image first"));

        viewer.openFromTree(CT);
        viewer.await("the CT is open", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        focus(tree.target());
        pressCtrl(KeyEvent.VK_U);
        DialogFixture upload = viewer.dialog("uploadDialog");
        viewer.clickToClose(upload, upload.button("uploadCancel"));
    }

    private void focus(Component c) {
        viewer.robot.focusAndWaitForFocusGain(c);
        viewer.await("the tree has the focus", c::isFocusOwner);
    }

    private void pressCtrl(int key) {
        viewer.robot.pressKey(KeyEvent.VK_CONTROL);
        try {
            viewer.robot.pressAndReleaseKey(key);
        } finally {
            viewer.robot.releaseKey(KeyEvent.VK_CONTROL);
        }
        viewer.robot.waitForIdle();
    }
}
