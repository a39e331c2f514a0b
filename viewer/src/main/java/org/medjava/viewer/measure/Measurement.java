package org.medjava.viewer.measure;

/**
 * What the reader drew, in image coordinates (pixel edges: pixel (i, j) covers [i, i+1) × [j, j+1), its centre is
 * (i + 0.5, j + 0.5)), so zoom, pan, rotation and flips of the view never change a measurement.
 */
public sealed interface Measurement {

    /** The kinds, as the tools name them. */
    enum Kind { DISTANCE, RECTANGLE, ELLIPSE }

    Kind kind();

    double x0();

    double y0();

    double x1();

    double y1();

    /** A new measurement of {@code kind} between two points (any order). */
    static Measurement of(Kind kind, double x0, double y0, double x1, double y1) {
        return switch (kind) {
            case DISTANCE -> new Distance(x0, y0, x1, y1);
            case RECTANGLE, ELLIPSE -> new Area(kind, Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1),
                    Math.max(y0, y1));
        };
    }

    /** A straight line from (x0, y0) to (x1, y1). */
    record Distance(double x0, double y0, double x1, double y1) implements Measurement {
        @Override
        public Kind kind() {
            return Kind.DISTANCE;
        }

        /** Length in pixels (image columns and rows). */
        public double pixels() {
            return Math.hypot(x1 - x0, y1 - y0);
        }
    }

    /** A rectangle, or the ellipse inscribed in it, with corners (x0, y0) ≤ (x1, y1). */
    record Area(Kind kind, double x0, double y0, double x1, double y1) implements Measurement {
        public Area {
            if (kind == Kind.DISTANCE) {
                throw new IllegalArgumentException("an area is a rectangle or an ellipse");
            }
            if (x1 < x0 || y1 < y0) {
                throw new IllegalArgumentException("corners out of order");
            }
        }

        /** Whether the centre of pixel (i, j) lies inside (on the border counts). */
        public boolean containsPixel(int i, int j) {
            double cx = i + 0.5;
            double cy = j + 0.5;
            if (kind == Kind.RECTANGLE) {
                return cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1;
            }
            double rx = (x1 - x0) / 2;
            double ry = (y1 - y0) / 2;
            if (rx <= 0 || ry <= 0) {
                return false;
            }
            double u = (cx - (x0 + x1) / 2) / rx;
            double v = (cy - (y0 + y1) / 2) / ry;
            return u * u + v * v <= 1;
        }

        /** The shape's geometric area in square pixels. */
        public double pixelArea() {
            double w = x1 - x0;
            double h = y1 - y0;
            return kind == Kind.RECTANGLE ? w * h : Math.PI * w * h / 4;
        }
    }
}
