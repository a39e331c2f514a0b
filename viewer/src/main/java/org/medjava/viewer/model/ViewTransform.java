package org.medjava.viewer.model;

import java.awt.Point;
import java.awt.Rectangle;
import java.awt.geom.Point2D;

/**
 * Where the image sits in the view: a scale and the view position of the image's top-left corner. Image
 * coordinates are pixels of the image; view coordinates are pixels of the component. Mutable, event thread only.
 */
public final class ViewTransform {
    public static final double MIN_SCALE = 1 / 64.0;
    public static final double MAX_SCALE = 32;

    private double scale = 1;
    private double originX;
    private double originY;

    public double scale() {
        return scale;
    }

    public double originX() {
        return originX;
    }

    public double originY() {
        return originY;
    }

    /** Scales the image to fit the view, centred, never above 1:1 for small images unless asked by zoom. */
    public void fit(int viewWidth, int viewHeight, int imageWidth, int imageHeight) {
        if (viewWidth <= 0 || viewHeight <= 0) {
            return;
        }
        scale = clamp(Math.min((double) viewWidth / imageWidth, (double) viewHeight / imageHeight));
        centre(viewWidth, viewHeight, imageWidth, imageHeight);
    }

    /** One image pixel per screen pixel, centred. */
    public void actualSize(int viewWidth, int viewHeight, int imageWidth, int imageHeight) {
        scale = 1;
        centre(viewWidth, viewHeight, imageWidth, imageHeight);
    }

    private void centre(int viewWidth, int viewHeight, int imageWidth, int imageHeight) {
        originX = (viewWidth - imageWidth * scale) / 2;
        originY = (viewHeight - imageHeight * scale) / 2;
    }

    /** Multiplies the scale by {@code factor}, keeping the image point under {@code anchor} (view) in place. */
    public void zoom(double factor, Point anchor) {
        double next = clamp(scale * factor);
        Point2D.Double at = toImage(anchor.x, anchor.y);
        scale = next;
        originX = anchor.x - at.x * scale;
        originY = anchor.y - at.y * scale;
    }

    public void pan(int dx, int dy) {
        originX += dx;
        originY += dy;
    }

    public Point2D.Double toImage(double viewX, double viewY) {
        return new Point2D.Double((viewX - originX) / scale, (viewY - originY) / scale);
    }

    /** The view rectangle covering image rectangle {@code x, y, w, h}. */
    public Rectangle toView(int x, int y, int w, int h) {
        int x0 = (int) Math.floor(originX + x * scale);
        int y0 = (int) Math.floor(originY + y * scale);
        int x1 = (int) Math.ceil(originX + (x + w) * scale);
        int y1 = (int) Math.ceil(originY + (y + h) * scale);
        return new Rectangle(x0, y0, x1 - x0, y1 - y0);
    }

    private static double clamp(double s) {
        return Math.max(MIN_SCALE, Math.min(MAX_SCALE, s));
    }
}
