package org.medjava.viewer.ui;

import org.medjava.codec.dicom.DicomElements;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.model.WindowLevel;

/**
 * The text in the image's corners (patient, study, series and image, window and zoom, the filters applied) and the
 * status bar's facts, kept in step with the document.
 */
final class Overlays implements ViewerController.Listener {
    private final ViewerController controller;
    private final java.util.List<java.util.function.Supplier<String>> bottomLeftLines = new java.util.ArrayList<>();

    Overlays(ViewerController controller) {
        this.controller = controller;
        controller.addListener(this);
    }

    /** Adds a line under the bottom-left corner's image lines (e.g. "Image 3 / 40"); blank lines are left out. */
    void addBottomLeftLine(java.util.function.Supplier<String> line) {
        bottomLeftLines.add(line);
        update();
    }

    /** Writes the corners again (an added line changed without the document changing). */
    void refresh() {
        update();
    }

    private String[] withExtraLines(String... lines) {
        String[] all = java.util.Arrays.copyOf(lines, lines.length + bottomLeftLines.size());
        for (int i = 0; i < bottomLeftLines.size(); i++) {
            all[lines.length + i] = bottomLeftLines.get(i).get();
        }
        return all;
    }

    @Override
    public void changed() {
        update();
    }

    @Override
    public void windowChanged() {
        update();
    }

    private void update() {
        ImageDocument doc = controller.document();
        ImageView view = controller.view();
        StatusBar status = controller.status();
        if (doc == null) {
            view.setCorners("", "", "", "");
            status.facts("");
            return;
        }
        OpenedImage image = doc.image();
        String zoom = Math.round(view.scale() * 100) + " %";
        String filters = doc.state().chain().isEmpty() ? "" : "\n" + doc.state().chain().steps().size()
                + " filter(s): " + doc.state().chain().describe();
        String wl = image.isGreyDicom() ? (doc.windowLive() ? WindowLevel.format(doc.window())
                : "W/L fixed (" + WindowLevel.format(doc.state().renderedWith()) + ")") : "";
        if (image.isDicom()) {
            var d = image.dicom();
            view.setCorners(
                    join(DicomElements.value(d, "PatientName").replace('^', ' '), "ID " + d.attributes().patientId(),
                            DicomElements.value(d, "PatientBirthDate") + " " + DicomElements.value(d, "PatientSex")),
                    join(DicomElements.value(d, "InstitutionName"), DicomElements.value(d, "StudyDescription"),
                            DicomElements.value(d, "StudyDate") + " " + DicomElements.value(d, "StudyTime"),
                            d.attributes().modality()),
                    join(withExtraLines("Se " + DicomElements.value(d, "SeriesNumber") + " " + DicomElements.value(d,
                                    "SeriesDescription"), "Im " + DicomElements.value(d, "InstanceNumber")
                                    + (d.frameCount() > 1 ? "  frame " + (d.frame() + 1) + "/" + d.frameCount() : ""),
                            d.width() + "×" + d.height() + " " + d.photometricInterpretation())),
                    join(wl, "Zoom " + zoom) + filters);
        } else {
            view.setCorners(image.origin().name(), image.format().name(), image.width() + "×" + image.height(),
                    "Zoom " + zoom + filters);
        }
        status.facts((wl.isEmpty() ? "" : wl + "   ") + zoom);
    }

    private static String join(String... lines) {
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            if (l != null && !l.isBlank()) {
                b.append(b.length() == 0 ? "" : "\n").append(l.trim());
            }
        }
        return b.toString();
    }
}
