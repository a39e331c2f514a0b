package org.medjava.viewer.measure;

import org.medjava.viewer.image.DocState;
import org.medjava.viewer.image.ImageDocument;
import org.medjava.viewer.image.OpenedImage;

/** The {@link Measurer} of an open document's current state. */
public final class Measurers {
    private Measurers() {
    }

    /**
     * What ROIs measure now: a grey DICOM's stored values (the filtered ones after a filter on stored values) with
     * its rescale; after an 8-bit filter, or for colour and non-DICOM images, the 8-bit grey levels (said so).
     * Lengths use the file's pixel spacing. {@code doc} may be null.
     */
    public static Measurer of(ImageDocument doc) {
        if (doc == null) {
            return new Measurer(null, null);
        }
        OpenedImage image = doc.image();
        DocState s = doc.state();
        PixelSpacing spacing = image.isDicom() ? PixelSpacing.of(image.dicom()) : null;
        ModalityValues values;
        if (s.isPixels()) {
            values = ModalityValues.of(s.pixels());
        } else if (image.isGreyDicom()) {
            values = s.stored() != null ? ModalityValues.of(image.dicom(), s.stored()) : ModalityValues.of(image.dicom());
        } else {
            values = ModalityValues.of(image.toRaster(null));
        }
        return new Measurer(values, spacing);
    }
}
