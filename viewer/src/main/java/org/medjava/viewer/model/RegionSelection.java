package org.medjava.viewer.model;

import java.awt.geom.Point2D;
import org.medjava.filter.Region;

/**
 * The rectangle a user drags over the image, in image pixels: the pixels the drag's two corners fall in and
 * everything between, whichever way the drag went, clipped to the image. Empty when the drag lies outside it.
 */
public final class RegionSelection {
    private RegionSelection() {
    }

    /** @return the clipped region, or null when it is empty */
    public static Region between(Point2D a, Point2D b, int imageWidth, int imageHeight) {
        int x0 = (int) Math.floor(Math.min(a.getX(), b.getX()));
        int y0 = (int) Math.floor(Math.min(a.getY(), b.getY()));
        int x1 = (int) Math.floor(Math.max(a.getX(), b.getX())) + 1;
        int y1 = (int) Math.floor(Math.max(a.getY(), b.getY())) + 1;
        long w = (long) x1 - x0;
        long h = (long) y1 - y0;
        Region region = new Region(x0, y0, (int) Math.min(w, Integer.MAX_VALUE), (int) Math.min(h, Integer.MAX_VALUE))
                .clip(imageWidth, imageHeight);
        return region.isEmpty() ? null : region;
    }
}
