package org.medjava.viewer.image;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.codec.dicom.Window;
import org.medjava.filter.GrayRaster16;

/**
 * Renders a grey DICOM frame, or filtered stored values of it, through a window into an 8-bit grey image for display:
 * one byte a pixel (a third of an RGB raster), through a lookup table over the stored values, exactly as
 * {@link DicomImage#render(Window)} computes each grey level. Runs off the event thread (a 4096x4096 frame is 16 M
 * lookups).
 */
public final class GreyRenderer {
    private GreyRenderer() {
    }

    public static BufferedImage render(DicomImage image, Window window) {
        int[] values = image.storedValues();
        BufferedImage out = new BufferedImage(image.width(), image.height(), BufferedImage.TYPE_BYTE_GRAY);
        byte[] grey = pixels(out);
        int bits = image.bitsStored();
        if (bits <= 16) {
            int offset = image.isSigned() ? 1 << (bits - 1) : 0;
            byte[] lut = lut(image, window);
            for (int p = 0; p < values.length; p++) {
                grey[p] = lut[values[p] + offset];
            }
        } else {
            boolean invert = image.isMonochrome1();
            for (int p = 0; p < values.length; p++) {
                grey[p] = level(window, values[p] * image.rescaleSlope() + image.rescaleIntercept(), invert);
            }
        }
        return out;
    }

    /**
     * Filtered stored values of {@code image} (its size, bits stored and signedness) through {@code window}, with the
     * frame's rescale and photometric interpretation: what {@code image.withStoredValues(stored).render(window)}
     * shows, without making that image.
     */
    public static BufferedImage render(DicomImage image, GrayRaster16 stored, Window window) {
        requireMatch(image, stored);
        BufferedImage out = new BufferedImage(stored.width(), stored.height(), BufferedImage.TYPE_BYTE_GRAY);
        byte[] grey = pixels(out);
        byte[] lut = lut(image, window);
        short[] words = stored.words();
        int min = stored.minValue();
        for (int p = 0; p < words.length; p++) {
            grey[p] = lut[(words[p] - min) & 0xFFFF];
        }
        return out;
    }

    /**
     * Stored values of any size (a crop of the frame, for previews) with the frame's bits stored, signedness, rescale
     * and photometric interpretation, through {@code window}.
     */
    public static BufferedImage renderPart(DicomImage image, GrayRaster16 part, Window window) {
        if (!image.isGray16() || part.bitsStored() != image.bitsStored() || part.signed() != image.isSigned()) {
            throw new IllegalArgumentException(part + " are not stored values of " + image);
        }
        BufferedImage out = new BufferedImage(part.width(), part.height(), BufferedImage.TYPE_BYTE_GRAY);
        byte[] grey = pixels(out);
        byte[] lut = lut(image, window);
        short[] words = part.words();
        int min = part.minValue();
        for (int p = 0; p < words.length; p++) {
            grey[p] = lut[(words[p] - min) & 0xFFFF];
        }
        return out;
    }

    /** Grey levels indexed by stored value minus the smallest stored value of the frame's bits and signedness. */
    private static byte[] lut(DicomImage image, Window window) {
        int bits = image.bitsStored();
        int offset = image.isSigned() ? 1 << (bits - 1) : 0;
        boolean invert = image.isMonochrome1();
        byte[] lut = new byte[1 << bits];
        for (int i = 0; i < lut.length; i++) {
            lut[i] = level(window, (i - offset) * image.rescaleSlope() + image.rescaleIntercept(), invert);
        }
        return lut;
    }

    private static byte[] pixels(BufferedImage image) {
        return ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
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
        return rescaled(image, min, max);
    }

    /** Smallest and largest modality value of filtered stored values of {@code image}. */
    public static double[] modalityRange(DicomImage image, GrayRaster16 stored) {
        requireMatch(image, stored);
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        boolean signed = stored.signed();
        for (short w : stored.words()) {
            int v = GrayRaster16.value(w, signed);
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return rescaled(image, min, max);
    }

    private static double[] rescaled(DicomImage image, int min, int max) {
        double a = min * image.rescaleSlope() + image.rescaleIntercept();
        double b = max * image.rescaleSlope() + image.rescaleIntercept();
        return new double[] {Math.min(a, b), Math.max(a, b)};
    }

    private static void requireMatch(DicomImage image, GrayRaster16 stored) {
        if (!image.isGray16() || stored.width() != image.width() || stored.height() != image.height()
                || stored.bitsStored() != image.bitsStored() || stored.signed() != image.isSigned()) {
            throw new IllegalArgumentException(stored + " are not stored values of " + image);
        }
    }
}
