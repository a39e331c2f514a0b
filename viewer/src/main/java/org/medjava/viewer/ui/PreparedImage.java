package org.medjava.viewer.ui;

import java.awt.image.BufferedImage;
import java.util.List;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.Window;
import org.medjava.viewer.image.GreyRenderer;
import org.medjava.viewer.image.OpenedImage;
import org.medjava.viewer.image.Rasters;

/**
 * An opened image with its display image, modality range (grey DICOM only, else null) and attributes, all computed
 * off the event thread.
 */
record PreparedImage(OpenedImage image, BufferedImage display, double[] range, List<DicomElements.Element> elements) {

    /** Worker thread. */
    static PreparedImage of(OpenedImage image) {
        var elements = image.isDicom() ? DicomElements.of(image.dicom()) : List.<DicomElements.Element>of();
        if (image.isGreyDicom()) {
            Window w = image.dicom().defaultWindow().orElseThrow();
            return new PreparedImage(image, GreyRenderer.render(image.dicom(), w),
                    GreyRenderer.modalityRange(image.dicom()), elements);
        }
        return new PreparedImage(image, Rasters.toDisplay(image.toRaster(null)), null, elements);
    }
}
