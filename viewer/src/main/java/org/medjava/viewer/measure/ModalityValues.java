package org.medjava.viewer.measure;

import java.util.Locale;
import java.util.function.IntUnaryOperator;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/**
 * The values an ROI is measured on: integer {@code stored} values (row-major index to value) and the linear map to
 * the values a reader talks about, {@code slope * stored + intercept} in {@code unit} (HU for CT). Statistics are
 * summed on the integers and rescaled once, so they are exact. Immutable; the arrays behind it are never modified.
 */
public final class ModalityValues {
    /** What {@link #unit()} is when the values are 8-bit display levels (a filter fixed the window, or colour). */
    public static final String DISPLAY_GREY = "grey level (8-bit display)";

    private final int width;
    private final int height;
    private final IntUnaryOperator stored;
    private final double slope;
    private final double intercept;
    private final String unit;
    private final Object source;

    public ModalityValues(int width, int height, IntUnaryOperator stored, double slope, double intercept, String unit,
                          Object source) {
        this.width = width;
        this.height = height;
        this.stored = stored;
        this.slope = slope;
        this.intercept = intercept;
        this.unit = unit;
        this.source = source;
    }

    /** A grey DICOM frame's own stored values with its rescale. */
    public static ModalityValues of(DicomImage image) {
        int[] v = image.storedValues();
        return new ModalityValues(image.width(), image.height(), i -> v[i], image.rescaleSlope(),
                image.rescaleIntercept(), unit(image), v);
    }

    /** Filtered stored values of {@code image} (its rescale applies to them, as to its own). */
    public static ModalityValues of(DicomImage image, GrayRaster16 values) {
        short[] words = values.words();
        boolean signed = values.signed();
        return new ModalityValues(values.width(), values.height(), i -> GrayRaster16.value(words[i], signed),
                image.rescaleSlope(), image.rescaleIntercept(), unit(image), words);
    }

    /** An 8-bit image: its grey level (the mean of R, G and B for colour, rounded down). */
    public static ModalityValues of(Raster raster) {
        byte[] rgb = raster.rgb();
        return new ModalityValues(raster.width(), raster.height(),
                i -> ((rgb[3 * i] & 0xFF) + (rgb[3 * i + 1] & 0xFF) + (rgb[3 * i + 2] & 0xFF)) / 3, 1, 0,
                DISPLAY_GREY, rgb);
    }

    /** "HU" for CT, the file's Rescale Type when it names one, else "" (values without fixed units). */
    static String unit(DicomImage image) {
        String modality = image.attributes().modality();
        if (modality != null && "CT".equals(modality.trim().toUpperCase(Locale.ROOT))) {
            return "HU";
        }
        String type = DicomElements.value(image, "RescaleType");
        return type.isBlank() || "US".equals(type) ? "" : type; // US: "unspecified" in PS3.3
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    public int stored(int x, int y) {
        return stored.applyAsInt(y * width + x);
    }

    public double value(int x, int y) {
        return stored(x, y) * slope + intercept;
    }

    public double slope() {
        return slope;
    }

    public double intercept() {
        return intercept;
    }

    /** The unit of {@link #value}, "" when the modality has none. */
    public String unit() {
        return unit;
    }

    /** Whether this and {@code other} read the same array with the same rescale (results can be reused). */
    public boolean sameAs(ModalityValues other) {
        return other != null && other.source == source && other.slope == slope && other.intercept == intercept
                && other.width == width && other.height == height;
    }
}
