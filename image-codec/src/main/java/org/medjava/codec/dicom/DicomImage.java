package org.medjava.codec.dicom;

import com.pixelmed.dicom.AttributeList;
import java.util.List;
import java.util.Optional;
import org.medjava.filter.Raster;

/**
 * One decoded frame of a DICOM image, with what is needed to display it and to derive new objects from it.
 * Grey images keep their stored values ({@link #storedValues()}, signed where Pixel Representation says so, only the
 * Bits Stored bits) and are rendered through a {@link Window}; colour images (RGB, YBR converted to RGB, palette
 * colour looked up) hold 8-bit RGB and ignore windows.
 */
public final class DicomImage {
    private final AttributeList header;
    private final DicomAttributes attributes;
    private final int columns;
    private final int rows;
    private final int frame;
    private final int frameCount;
    private final String photometric;
    private final int bitsStored;
    private final boolean signed;
    private final double rescaleSlope;
    private final double rescaleIntercept;
    private final List<Window> windowPresets;
    private final int[] values;
    private final byte[] rgb;

    DicomImage(AttributeList header, DicomAttributes attributes, int columns, int rows, int frame, int frameCount,
            String photometric, int bitsStored, boolean signed, double rescaleSlope, double rescaleIntercept,
            List<Window> windowPresets, int[] values, byte[] rgb) {
        this.header = header;
        this.attributes = attributes;
        this.columns = columns;
        this.rows = rows;
        this.frame = frame;
        this.frameCount = frameCount;
        this.photometric = photometric;
        this.bitsStored = bitsStored;
        this.signed = signed;
        this.rescaleSlope = rescaleSlope;
        this.rescaleIntercept = rescaleIntercept;
        this.windowPresets = List.copyOf(windowPresets);
        this.values = values;
        this.rgb = rgb;
    }

    /** The dataset without its Pixel Data (PixelMed's type; do not modify it). */
    public AttributeList header() {
        return header;
    }

    /** Patient, study, series and instance identification. */
    public DicomAttributes attributes() {
        return attributes;
    }

    public int width() {
        return columns;
    }

    public int height() {
        return rows;
    }

    /** Index of this frame, from 0. */
    public int frame() {
        return frame;
    }

    public int frameCount() {
        return frameCount;
    }

    /** As in the file, e.g. MONOCHROME2, RGB, YBR_FULL_422, PALETTE COLOR. */
    public String photometricInterpretation() {
        return photometric;
    }

    /** MONOCHROME1 or MONOCHROME2: stored values and windows apply; otherwise the image is colour. */
    public boolean isGrey() {
        return values != null;
    }

    public boolean isMonochrome1() {
        return "MONOCHROME1".equals(photometric);
    }

    public int bitsStored() {
        return bitsStored;
    }

    public boolean isSigned() {
        return signed;
    }

    public double rescaleSlope() {
        return rescaleSlope;
    }

    public double rescaleIntercept() {
        return rescaleIntercept;
    }

    /** The stored values of a grey frame, row by row (the array itself, not a copy). */
    public int[] storedValues() {
        requireGrey();
        return values;
    }

    /** Stored value times Rescale Slope plus Rescale Intercept (e.g. Hounsfield units for CT). */
    public double modalityValue(int x, int y) {
        requireGrey();
        if (x < 0 || y < 0 || x >= columns || y >= rows) {
            throw new IndexOutOfBoundsException("(" + x + "," + y + ") outside " + columns + "x" + rows);
        }
        return values[y * columns + x] * rescaleSlope + rescaleIntercept;
    }

    /** Window Center/Width pairs from the file, in order; empty when it has none. */
    public List<Window> windowPresets() {
        return windowPresets;
    }

    /** The first window in the file, else the range of the frame's modality values. Empty for colour images. */
    public Optional<Window> defaultWindow() {
        if (!isGrey()) {
            return Optional.empty();
        }
        if (!windowPresets.isEmpty()) {
            return Optional.of(windowPresets.get(0));
        }
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int v : values) {
            double m = v * rescaleSlope + rescaleIntercept;
            min = Math.min(min, m);
            max = Math.max(max, m);
        }
        return Optional.of(Window.ofRange(Math.min(min, max), max));
    }

    /** The frame as 8-bit RGB through the default window. */
    public Raster render() {
        return render(defaultWindow().orElse(null));
    }

    /**
     * The frame as 8-bit RGB. Grey frames go through {@code window} (the default when null) and are inverted for
     * MONOCHROME1; colour frames ignore it.
     */
    public Raster render(Window window) {
        if (!isGrey()) {
            return new Raster(columns, rows, rgb.clone());
        }
        Window w = window != null ? window : defaultWindow().orElseThrow();
        byte[] out = new byte[3 * values.length];
        boolean invert = isMonochrome1();
        // Stored values of up to 16 bits go through a lookup table; wider ones are computed one by one.
        int offset = signed ? 1 << (bitsStored - 1) : 0;
        byte[] lut = null;
        if (bitsStored <= 16) {
            lut = new byte[1 << bitsStored];
            for (int i = 0; i < lut.length; i++) {
                lut[i] = level(w, (i - offset) * rescaleSlope + rescaleIntercept, invert);
            }
        }
        for (int p = 0, i = 0; p < values.length; p++, i += 3) {
            byte v = lut != null ? lut[values[p] + offset] : level(w, values[p] * rescaleSlope + rescaleIntercept,
                    invert);
            out[i] = v;
            out[i + 1] = v;
            out[i + 2] = v;
        }
        return new Raster(columns, rows, out);
    }

    private static byte level(Window w, double modality, boolean invert) {
        int y = w.apply(modality);
        return (byte) (invert ? 255 - y : y);
    }

    private void requireGrey() {
        if (!isGrey()) {
            throw new IllegalStateException(photometric + " image has no grey stored values");
        }
    }

    @Override
    public String toString() {
        return "DicomImage[" + columns + "x" + rows + " " + photometric + " frame " + frame + "/" + frameCount + " "
                + attributes + "]";
    }
}
