package org.medjava.viewer.ui;

import java.io.File;
import java.nio.file.Path;
import java.util.Locale;
import javax.swing.JFileChooser;
import org.medjava.codec.ImageCodec;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.UploadEncoder;
import org.medjava.viewer.image.UploadFormat;

/** Saving the current image to a local file: PNG, GIF, JPEG, or (.dcm) the derived DICOM object an upload sends. */
final class SaveFlow {
    private final ViewerController controller;

    SaveFlow(ViewerController controller) {
        this.controller = controller;
    }

    /** Event thread. */
    void saveLocal() {
        ImageDocument doc = controller.document();
        if (doc == null) {
            return;
        }
        JFileChooser chooser = new JFileChooser();
        chooser.setSelectedFile(new File(UploadTarget.defaultName(doc.origin().name(),
                !doc.state().chain().isEmpty(), UploadFormat.PNG)));
        if (chooser.showSaveDialog(controller.owner()) != JFileChooser.APPROVE_OPTION) {
            return;
        }
        Path file = chooser.getSelectedFile().toPath();
        UploadEncoder.Snapshot s = UploadEncoder.Snapshot.of(doc);
        boolean dicom = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".dcm");
        controller.tasks().foreground("Saving " + file.getFileName(), p -> {
            if (dicom) { // the same derived object an upload as DICOM sends
                byte[] bytes = UploadEncoder.encode(s, UploadFormat.DICOM).bytes();
                ImageCodec.writeAtomically(file, out -> out.write(bytes));
            } else {
                ImageCodec.write(s.pixels(), file);
            }
            return file;
        }, f -> controller.status().message("Saved " + f), e -> Dialogs.error(controller.owner(), "Could not save",
                e.getMessage()));
    }
}
