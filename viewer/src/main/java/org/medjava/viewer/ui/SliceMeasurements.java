package org.medjava.viewer.ui;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.measure.Measurement;
import org.medjava.viewer.measure.Measurements;
import org.medjava.viewer.measure.Measurers;

/**
 * Measurements belong to the slice they were drawn on, as in radiology viewers: scrolling a stack puts the shown
 * slice's ROIs away and brings back those of the slice scrolled to (so an ROI never silently reads another slice's
 * values). Rotation, flip, inversion, zoom and window are the view's and stay while scrolling. A newly opened image
 * or series starts with none.
 */
final class SliceMeasurements implements ViewerController.Listener {
    private final Measurements measurements;
    private final Map<String, List<Measurement>> bySlice = new HashMap<>();
    private String shown;

    SliceMeasurements(Measurements measurements) {
        this.measurements = measurements;
    }

    @Override
    public void opened(ImageDocument doc) {
        bySlice.clear();
        shown = key(doc.image());
    }

    @Override
    public void sliceShown(ImageDocument doc) {
        String next = key(doc.image());
        if (next.equals(shown)) {
            return;
        }
        if (shown != null) {
            List<Measurement> kept = new ArrayList<>();
            for (int i = 0; i < measurements.size(); i++) {
                kept.add(measurements.get(i));
            }
            bySlice.put(shown, kept);
        }
        shown = next;
        measurements.clear();
        measurements.setMeasurer(Measurers.of(doc)); // restored ROIs read this slice's values, not the last one's
        bySlice.getOrDefault(next, List.of()).forEach(measurements::add);
    }

    /** Which slice: a DICOM object's SOP Instance UID and frame, otherwise the file. */
    static String key(OpenedImage image) {
        if (image.isDicom()) {
            return image.dicom().attributes().sopInstanceUid() + "#" + image.dicom().frame();
        }
        return image.origin().name() + "#" + System.identityHashCode(image);
    }
}
