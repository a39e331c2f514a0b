package org.medjava.codec.dicom;

/**
 * A VOI window: the linear function of DICOM PS3.3 C.11.2.1.2.1 from modality values (stored values after Rescale
 * Slope/Intercept) to 8-bit display values, output range 0..255, the result rounded to the nearest integer:
 * <pre>
 *   x &lt;= c - 0.5 - (w-1)/2  : 0
 *   x &gt;  c - 0.5 + (w-1)/2  : 255
 *   otherwise              : ((x - (c - 0.5)) / (w-1) + 0.5) * 255
 * </pre>
 * MONOCHROME1 inversion is applied after this, by {@link DicomImage}.
 *
 * @param center Window Center (0028,1050)
 * @param width Window Width (0028,1051), at least 1
 */
public record Window(double center, double width) {
    public Window {
        if (!(width >= 1) || !Double.isFinite(center) || !Double.isFinite(width)) {
            throw new IllegalArgumentException("window width must be at least 1 and center finite, got center "
                    + center + " width " + width);
        }
    }

    /**
     * The window that maps {@code min} to 0 and {@code max} to 255 linearly: the default when a file has no window
     * of its own.
     */
    public static Window ofRange(double min, double max) {
        if (max < min) {
            throw new IllegalArgumentException("max " + max + " < min " + min);
        }
        double width = max - min + 1;
        return new Window(min + 0.5 + (width - 1) / 2, width);
    }

    /** The 8-bit output (0..255) for modality value {@code x}. */
    public int apply(double x) {
        double c = center - 0.5;
        double half = (width - 1) / 2;
        if (x <= c - half) {
            return 0;
        }
        if (x > c + half) {
            return 255;
        }
        long y = Math.round(((x - c) / (width - 1) + 0.5) * 255);
        return (int) Math.max(0, Math.min(255, y));
    }

    @Override
    public String toString() {
        return "window(center=" + center + ", width=" + width + ")";
    }
}
