package org.medjava.viewer.image;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;

/**
 * Renders a grey DICOM frame through a window into an 8-bit grey image for display: one byte a pixel (a third of
 * an RGB raster), through a lookup table over the stored values, exactly as {@link DicomImage#render(Window)}
 * computes each grey level. Runs off the event thread (a 4096x4096 frame is 16 M lookups).
 */
public final class GreyRenderer {
    private GreyRenderer() {
    }

    public static BufferedImage render(DicomImage image, Window window) {
        int[] values = image.storedValues();
        BufferedImage out = new BufferedImage(image.width(), image.height(), BufferedImage.TYPE_BYTE_GRAY);
        byte[] grey = ((DataBufferByte) out.getRaster().getDataBuffer()).getData();
        boolean invert = image.isMonochrome1();
        double slope = image.rescaleSlope();
        double intercept = image.rescaleIntercept();
        int bits = image.bitsStored();
        if (bits <= 16) {
            int offset = image.isSigned() ? 1 << (bits - 1) : 0;
            byte[] lut = new byte[1 << bits];
            for (int i = 0; i < lut.length; i++) {
                lut[i] = level(window, (i - offset) * slope + intercept, invert);
            }
            for (int p = 0; p < values.length; p++) {
                grey[p] = lut[values[p] + offset];
            }
        } else {
            for (int p = 0; p < values.length; p++) {
                grey[p] = level(window, values[p] * slope + intercept, invert);
            }
        }
        return out;
    }

    private static byte level(Window w, double modality, boolean invert) {
        int y = w.apply(modality);
        return (byte) (invert ? 255 - y : y);
    }

    /** Smallest and largest modality value of the frame (for drag sensitivity and the "full range" preset). */
    public static double[] modalityRange(DicomImage image) {
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int v : image.storedValues()) {
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double a = min * image.rescaleSlope() + image.rescaleIntercept();
        double b = max * image.rescaleSlope() + image.rescaleIntercept();
        return new double[] {Math.min(a, b), Math.max(a, b)};
    }
}
