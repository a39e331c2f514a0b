package org.medjava.viewer.measure;

import java.util.Locale;

/**
 * Turns a {@link Measurement} into what the reader sees: a distance in mm (or pixels, saying so), an ROI's
 * statistics in modality units with its area. {@code values} may be null (nothing open): then only geometry.
 */
public record Measurer(ModalityValues values, PixelSpacing spacing) {

    /** The result of one measurement: a short label for the image and the full line for the list. */
    public record Result(String label, String line) {
    }

    public Result measure(Measurement m) {
        if (m instanceof Measurement.Distance d) {
            String length = length(d.x1() - d.x0(), d.y1() - d.y0());
            return new Result(length, "Distance " + length + spacingNote());
        }
        Measurement.Area a = (Measurement.Area) m;
        String shape = a.kind() == Measurement.Kind.RECTANGLE ? "Rectangle" : "Ellipse";
        String area = area(a.pixelArea());
        if (values == null) {
            return new Result(area, shape + " area " + area + spacingNote());
        }
        RoiStatistics s = RoiStatistics.of(values, a);
        if (s.pixels() == 0) {
            return new Result("no pixel", shape + ": covers no pixel centre; area " + area);
        }
        String unit = values.unit().isEmpty() ? "" : " " + values.unit();
        String label = "mean " + number(s.mean()) + unit + "  SD " + number(s.sd()) + "\nmin " + number(s.min())
                + "  max " + number(s.max()) + "\n" + area + ", " + s.pixels() + " px";
        String line = shape + ": mean " + number(s.mean()) + unit + ", SD " + number(s.sd()) + ", min "
                + number(s.min()) + ", max " + number(s.max()) + ", area " + area + ", " + s.pixels() + " pixels"
                + (values.unit().isEmpty() ? " (values without fixed units)" : "")
                + (values.unit().equals(ModalityValues.DISPLAY_GREY) ? " (a filter fixed the window: not modality"
                + " values)" : "") + spacingNote();
        return new Result(label, line);
    }

    /** {@code "12.3 mm"} with spacing, {@code "45.2 px"} without. */
    public String length(double dx, double dy) {
        return spacing == null ? number(Math.hypot(dx, dy)) + " px" : number(spacing.length(dx, dy)) + " mm";
    }

    private String area(double squarePixels) {
        return spacing == null ? number(squarePixels) + " px²" : number(spacing.area(squarePixels)) + " mm²";
    }

    private String spacingNote() {
        if (spacing == null) {
            return " (no pixel spacing: pixels)";
        }
        return spacing.note() == null ? "" : " (" + spacing.note() + ")";
    }

    /** One decimal, as a reader wants it; integers without. */
    static String number(double v) {
        double r = Math.round(v * 10) / 10.0;
        return r == Math.rint(r) ? Long.toString((long) r) : String.format(Locale.ROOT, "%.1f", r);
    }
}
