package org.medjava.viewer.ui;

import java.nio.file.Files;
import java.nio.file.Path;
import javax.swing.JFileChooser;
import javax.swing.JOptionPane;
import javax.swing.filechooser.FileNameExtensionFilter;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.store.Download;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.store.StoreException;

/**
 * Opening an image from a local file or the store: read or download it and decode it off the event thread with
 * progress, then hand it to the controller; a failure keeps the open image and offers a retry when it may pass.
 */
final class OpenFlow {
    private final ViewerController controller;

    OpenFlow(ViewerController controller) {
        this.controller = controller;
    }

    /** Asks for a local file and opens it. Event thread. */
    void chooseLocal() {
        JFileChooser chooser = new JFileChooser();
        chooser.setFileFilter(new FileNameExtensionFilter("Images (DICOM, GIF, PNG, JPEG, PPM)", "dcm", "gif", "png",
                "jpg", "jpeg", "ppm", "pnm"));
        if (chooser.showOpenDialog(controller.owner()) == JFileChooser.APPROVE_OPTION) {
            openLocal(chooser.getSelectedFile().toPath());
        }
    }

    /** Opens a local file. Event thread. */
    void openLocal(Path file) {
        controller.tasks().foreground("Opening " + file.getFileName(), p -> PreparedImage.of(OpenedImage.decode(
                        new ImageOrigin.LocalFile(file), Files.readAllBytes(file))), controller::show,
                e -> openFailed(file.getFileName().toString(), e, () -> openLocal(file)));
    }

    /** Downloads and opens a store file. Event thread. */
    void openStore(String path) {
        StoreClient c = controller.client();
        if (c == null) {
            controller.status().message("Connect to a store first");
            return;
        }
        controller.tasks().foreground("Downloading " + path, p -> {
            Download d = c.download(path, p);
            return PreparedImage.of(OpenedImage.decode(new ImageOrigin.StoreFile(c.base().toString(), path,
                    d.etag()), d.bytes()));
        }, controller::show, e -> openFailed(path, e, () -> openStore(path)));
    }

    private void openFailed(String what, Exception e, Runnable retry) {
        controller.status().message("Could not open " + what + ": " + e.getMessage());
        if (e instanceof StoreException s && (s.unreachable() || s.status() >= 500)) {
            if (Dialogs.choose(controller.owner(), "Could not open " + what, e.getMessage()
                            + (controller.document() == null ? "" : "\n\nThe open image and its undo history are kept."),
                    JOptionPane.ERROR_MESSAGE, "Retry", "Cancel") == 0) {
                retry.run();
            }
        } else {
            Dialogs.error(controller.owner(), "Could not open " + what, e.getMessage());
        }
    }
}
