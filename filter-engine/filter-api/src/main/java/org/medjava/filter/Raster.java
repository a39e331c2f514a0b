package org.medjava.filter;

import java.util.Arrays;

/**
 * An interleaved 8-bit RGB image (xv's "pic24"): rows top to bottom, pixels left to right, bytes R,G,B,
 * row stride {@code 3 * width} with no padding. The pixel array is exposed directly because filters are
 * hand-optimized kernels over it; remember that Java bytes are signed ({@code & 0xFF}).
 */
public final class Raster {
    /** Largest pixel count a raster may hold: the byte array must stay addressable by an int. */
    public static final long MAX_PIXELS = (Integer.MAX_VALUE - 8) / 3;

    private final int width;
    private final int height;
    private final byte[] rgb;

    /** A black raster. */
    public Raster(int width, int height) {
        this(width, height, new byte[checkedLength(width, height)]);
    }

    /** Wraps {@code rgb} (not copied); its length must be exactly {@code 3 * width * height}. */
    public Raster(int width, int height, byte[] rgb) {
        int length = checkedLength(width, height);
        if (rgb == null || rgb.length != length) {
            throw new IllegalArgumentException("RGB array of " + width + "x" + height + " raster must hold "
                    + length + " bytes, got " + (rgb == null ? "null" : rgb.length));
        }
        this.width = width;
        this.height = height;
        this.rgb = rgb;
    }

    private static int checkedLength(int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("raster size must be at least 1x1, got " + width + "x" + height);
        }
        if ((long) width * height > MAX_PIXELS) {
            throw new IllegalArgumentException("raster " + width + "x" + height + " exceeds " + MAX_PIXELS + " pixels");
        }
        return 3 * width * height;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** Bytes per row. */
    public int stride() {
        return 3 * width;
    }

    /** The backing array itself, not a copy. */
    public byte[] rgb() {
        return rgb;
    }

    /** Packed {@code 0xRRGGBB} of the pixel at (x, y). */
    public int rgbAt(int x, int y) {
        int i = index(x, y);
        return (rgb[i] & 0xFF) << 16 | (rgb[i + 1] & 0xFF) << 8 | (rgb[i + 2] & 0xFF);
    }

    /** Sets the pixel at (x, y) from packed {@code 0xRRGGBB}. */
    public void setRgb(int x, int y, int packed) {
        int i = index(x, y);
        rgb[i] = (byte) (packed >>> 16);
        rgb[i + 1] = (byte) (packed >>> 8);
        rgb[i + 2] = (byte) packed;
    }

    private int index(int x, int y) {
        if (x < 0 || y < 0 || x >= width || y >= height) {
            throw new IndexOutOfBoundsException("(" + x + "," + y + ") outside " + width + "x" + height);
        }
        return 3 * (y * width + x);
    }

    public Raster copy() {
        return new Raster(width, height, rgb.clone());
    }

    /** Copies all pixels of {@code source}, which must have the same size, into this raster. */
    public void copyFrom(Raster source) {
        requireSameSize(source);
        System.arraycopy(source.rgb, 0, rgb, 0, rgb.length);
    }

    public boolean sameSize(Raster other) {
        return other.width == width && other.height == height;
    }

    public void requireSameSize(Raster other) {
        if (!sameSize(other)) {
            throw new IllegalArgumentException("raster sizes differ: " + width + "x" + height + " and "
                    + other.width + "x" + other.height);
        }
    }

    /** True when both rasters have the same size and identical bytes. */
    public boolean sameContent(Raster other) {
        return sameSize(other) && Arrays.equals(rgb, other.rgb);
    }

    public Region bounds() {
        return new Region(0, 0, width, height);
    }

    @Override
    public String toString() {
        return "Raster[" + width + "x" + height + "]";
    }
}
