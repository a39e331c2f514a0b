package org.medjava.viewer.measure;

import java.awt.geom.AffineTransform;
import java.awt.geom.Point2D;

/**
 * How the image is turned on screen: quarter turns and flips as a 2×2 matrix {@code [a b; c d]} of -1, 0, 1 mapping
 * image offsets from the image's centre to display offsets from the displayed image's centre (y down). Pure view
 * state: measurements and regions stay in image coordinates. Immutable.
 */
public record Orientation(int a, int b, int c, int d) {
    public static final Orientation IDENTITY = new Orientation(1, 0, 0, 1);

    public Orientation {
        if (Math.abs(a * d - b * c) != 1 || Math.abs(a) + Math.abs(b) != 1 || Math.abs(c) + Math.abs(d) != 1) {
            throw new IllegalArgumentException("not a quarter turn or flip: [" + a + " " + b + "; " + c + " " + d + "]");
        }
    }

    /** 90° clockwise as seen on screen. */
    public Orientation rotateRight() {
        return then(0, -1, 1, 0);
    }

    /** 90° counter-clockwise as seen on screen. */
    public Orientation rotateLeft() {
        return then(0, 1, -1, 0);
    }

    /** Mirror left-right as seen on screen. */
    public Orientation flipHorizontal() {
        return then(-1, 0, 0, 1);
    }

    /** Mirror top-bottom as seen on screen. */
    public Orientation flipVertical() {
        return then(1, 0, 0, -1);
    }

    private Orientation then(int pa, int pb, int pc, int pd) {
        return new Orientation(pa * a + pb * c, pa * b + pb * d, pc * a + pd * c, pc * b + pd * d);
    }

    /** Whether width and height swap on screen. */
    public boolean swapsAxes() {
        return a == 0;
    }

    public int displayWidth(int imageWidth, int imageHeight) {
        return swapsAxes() ? imageHeight : imageWidth;
    }

    public int displayHeight(int imageWidth, int imageHeight) {
        return swapsAxes() ? imageWidth : imageHeight;
    }

    /** Image coordinates to displayed-image coordinates, for an image {@code w × h}. */
    public AffineTransform toDisplay(int w, int h) {
        AffineTransform t = AffineTransform.getTranslateInstance(displayWidth(w, h) / 2.0, displayHeight(w, h) / 2.0);
        t.concatenate(new AffineTransform(a, c, b, d, 0, 0));
        t.translate(-w / 2.0, -h / 2.0);
        return t;
    }

    public Point2D toDisplay(double x, double y, int w, int h) {
        return toDisplay(w, h).transform(new Point2D.Double(x, y), null);
    }

    /** Displayed-image coordinates back to image coordinates. */
    public Point2D toImage(double x, double y, int w, int h) {
        double u = x - displayWidth(w, h) / 2.0;
        double v = y - displayHeight(w, h) / 2.0;
        // the inverse of an orthogonal matrix is its transpose
        return new Point2D.Double(a * u + c * v + w / 2.0, b * u + d * v + h / 2.0);
    }

    /** For the corner overlay: e.g. "rotated 90° right, flipped"; "" when upright. */
    public String describe() {
        boolean mirrored = a * d - b * c < 0;
        // the rotation part: mirrored matrices are a horizontal flip followed by a rotation
        int ra = mirrored ? -a : a;
        int rc = mirrored ? -c : c;
        String turn = ra == 1 ? "" : ra == -1 ? "rotated 180°" : rc == 1 ? "rotated 90° right" : "rotated 90° left";
        if (!mirrored) {
            return turn;
        }
        return turn.isEmpty() ? "flipped" : turn + ", flipped";
    }
}
