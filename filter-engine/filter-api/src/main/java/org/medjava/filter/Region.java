package org.medjava.filter;

/**
 * A rectangle of pixels: xv's selection {@code (sx, sy, sw, sh)}. Before a filter sees it, the host clips it
 * to the image ({@link #clip}); a filter may assume a clipped, non-empty region.
 */
public record Region(int x, int y, int width, int height) {

    public Region {
        if (width < 0 || height < 0) {
            throw new IllegalArgumentException("region width and height must not be negative, got "
                    + width + "x" + height);
        }
    }

    public static Region of(int x, int y, int width, int height) {
        return new Region(x, y, width, height);
    }

    /**
     * Parses {@code "x,y,w,h"} (spaces allowed around the numbers).
     *
     * @throws IllegalArgumentException naming the expected form
     */
    public static Region parse(String text) {
        String[] parts = text == null ? new String[0] : text.trim().split("\\s*,\\s*");
        if (parts.length != 4) {
            throw new IllegalArgumentException("region must be x,y,w,h (four integers), got \"" + text + "\"");
        }
        try {
            return new Region(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]),
                    Integer.parseInt(parts[2]), Integer.parseInt(parts[3]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("region must be x,y,w,h (four integers), got \"" + text + "\"", e);
        }
    }

    /** This region intersected with a {@code imageWidth x imageHeight} image; may be empty. */
    public Region clip(int imageWidth, int imageHeight) {
        long x0 = Math.max(0L, x);
        long y0 = Math.max(0L, y);
        long x1 = Math.min((long) imageWidth, (long) x + width);
        long y1 = Math.min((long) imageHeight, (long) y + height);
        if (x1 <= x0 || y1 <= y0) {
            return new Region((int) Math.min(x0, imageWidth), (int) Math.min(y0, imageHeight), 0, 0);
        }
        return new Region((int) x0, (int) y0, (int) (x1 - x0), (int) (y1 - y0));
    }

    public boolean isEmpty() {
        return width == 0 || height == 0;
    }

    /** Exclusive right edge. */
    public int endX() {
        return x + width;
    }

    /** Exclusive bottom edge. */
    public int endY() {
        return y + height;
    }

    public boolean contains(int px, int py) {
        return px >= x && py >= y && px < x + width && py < y + height;
    }

    public boolean coversWhole(Raster raster) {
        return x == 0 && y == 0 && width == raster.width() && height == raster.height();
    }

    public boolean coversWhole(GrayRaster16 raster) {
        return x == 0 && y == 0 && width == raster.width() && height == raster.height();
    }

    /** {@code "x,y,w,h"}, the form {@link #parse} reads. */
    @Override
    public String toString() {
        return x + "," + y + "," + width + "," + height;
    }
}
