package org.medjava.viewer.measure;

import java.util.Locale;
import java.util.Set;
import org.medjava.codec.dicom.DicomElements;
import org.medjava.codec.dicom.DicomImage;

/**
 * The physical size of a pixel, in mm: {@code row} is the spacing between adjacent rows (vertical, DICOM's first
 * value), {@code column} between adjacent columns (horizontal, the second). {@code note} says where it came from
 * when a reader should know (ImagerPixelSpacing is at the detector, not corrected for magnification); null for
 * Pixel Spacing.
 */
public record PixelSpacing(double row, double column, String note) {
    /** Projection radiography: ImagerPixelSpacing applies when Pixel Spacing is absent. */
    private static final Set<String> PROJECTION = Set.of("CR", "DX", "MG", "RF", "XA", "IO", "PX", "RG", "DF", "DR");
    public static final String AT_DETECTOR = "ImagerPixelSpacing: at the detector, not corrected for magnification";

    public PixelSpacing {
        if (!(row > 0) || !(column > 0) || !Double.isFinite(row) || !Double.isFinite(column)) {
            throw new IllegalArgumentException("pixel spacing must be positive, got " + row + "\\" + column);
        }
    }

    /** The image's spacing, or null when it has none usable (then lengths are in pixels). */
    public static PixelSpacing of(DicomImage image) {
        if (image == null) {
            return null;
        }
        PixelSpacing own = parse(DicomElements.value(image, "PixelSpacing"), null);
        if (own != null) {
            return own;
        }
        String modality = image.attributes().modality();
        if (modality != null && PROJECTION.contains(modality.trim().toUpperCase(Locale.ROOT))) {
            return parse(DicomElements.value(image, "ImagerPixelSpacing"), AT_DETECTOR);
        }
        return null;
    }

    /** {@code "0.7\0.5"} (row\column) to a spacing, or null when absent or malformed. */
    static PixelSpacing parse(String value, String note) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String[] parts = value.trim().split("\\\\");
        if (parts.length != 2) {
            return null;
        }
        try {
            double row = Double.parseDouble(parts[0].trim());
            double column = Double.parseDouble(parts[1].trim());
            return row > 0 && column > 0 && Double.isFinite(row) && Double.isFinite(column)
                    ? new PixelSpacing(row, column, note) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The length in mm of a segment {@code dx, dy} pixels long. */
    public double length(double dx, double dy) {
        return Math.hypot(dx * column, dy * row);
    }

    /** The area in mm² of {@code pixels} square pixels. */
    public double area(double pixels) {
        return pixels * row * column;
    }
}
