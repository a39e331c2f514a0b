package org.medjava.filter.testkit;

import java.util.Random;
import java.util.SplittableRandom;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * Small rasters and random cases for filter unit tests: rasters from literal values, channel access, random
 * images (noise, flat, posterized, palette, smooth) and random regions that may reach outside the image, and
 * readable descriptions of a difference. Two styles are kept side by side: per-channel arrays with
 * {@link SplittableRandom}, and packed {@code 0xRRGGBB} values with {@link Random}.
 */
public final class TestRasters {
    private TestRasters() {
    }


    /** A raster whose channel c of pixel (x,y) is {@code values[c][y][x]}. */
    public static Raster of(int[][][] values) {
        int h = values[0].length;
        int w = values[0][0].length;
        Raster r = new Raster(w, h);
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                for (int c = 0; c < 3; c++) {
                    r.rgb()[3 * (y * w + x) + c] = (byte) values[c][y][x];
                }
            }
        }
        return r;
    }

    /** A grey raster (r = g = b) from rows of values. */
    public static Raster grey(int[][] rows) {
        return of(new int[][][] {rows, rows, rows});
    }

    /** Channel c of pixel (x,y), 0..255. */
    public static int at(Raster r, int x, int y, int c) {
        return r.rgb()[3 * (y * r.width() + x) + c] & 0xFF;
    }

    /** Channel c of the whole raster as rows. */
    public static int[][] channel(Raster r, int c) {
        int[][] rows = new int[r.height()][r.width()];
        for (int y = 0; y < r.height(); y++) {
            for (int x = 0; x < r.width(); x++) {
                rows[y][x] = at(r, x, y, c);
            }
        }
        return rows;
    }

    public static Raster noise(int w, int h, long seed) {
        Raster r = new Raster(w, h);
        new SplittableRandom(seed).nextBytes(r.rgb());
        return r;
    }

    /**
     * A random test image: noise (3/8), flat (1/8), posterized (2/8) (few levels, so ties and repeats abound), or smooth with noise (2/8).
     */
    public static Raster random(SplittableRandom rnd, int w, int h) {
        Raster r = new Raster(w, h);
        byte[] p = r.rgb();
        switch (rnd.nextInt(8)) {
            case 0:
            case 1:
            case 2:
                rnd.nextBytes(p);
                break;
            case 3: {
                int v0 = rnd.nextInt(256);
                int v1 = rnd.nextInt(256);
                int v2 = rnd.nextInt(256);
                for (int i = 0; i < p.length; i += 3) {
                    p[i] = (byte) v0;
                    p[i + 1] = (byte) v1;
                    p[i + 2] = (byte) v2;
                }
                break;
            }
            case 4:
            case 5: {
                int levels = 1 + rnd.nextInt(4);
                for (int i = 0; i < p.length; i++) {
                    p[i] = (byte) (rnd.nextInt(levels) * 255 / Math.max(1, levels - 1));
                }
                break;
            }
            default:
                for (int y = 0; y < h; y++) {
                    for (int x = 0; x < w; x++) {
                        for (int c = 0; c < 3; c++) {
                            int v = (x * 7 + y * 5 + c * 40) % 256 + rnd.nextInt(9) - 4;
                            p[3 * (y * w + x) + c] = (byte) Math.max(0, Math.min(255, v));
                        }
                    }
                }
        }
        return r;
    }

    /**
     * A random region for a w×h image: mostly inside, sometimes reaching outside it (the host clips), often
     * 1 or 2 pixels wide or high, sometimes null (the whole image).
     */
    public static Region randomRegion(SplittableRandom rnd, int w, int h) {
        if (rnd.nextInt(8) == 0) {
            return null;
        }
        int x = rnd.nextInt(-3, Math.max(1, w - 1));
        int y = rnd.nextInt(-3, Math.max(1, h - 1));
        int rw = pickExtent(rnd, w);
        int rh = pickExtent(rnd, h);
        return Region.of(x, y, rw, rh);
    }

    private static int pickExtent(SplittableRandom rnd, int size) {
        switch (rnd.nextInt(8)) {
            case 0:
                return 1;
            case 1:
                return 2;
            default:
                return 1 + rnd.nextInt(size + 4);
        }
    }

    /** A copy of src with the rectangle (clipped) set to the given grey value. */
    public static Raster fill(Raster src, Region region, int value) {
        Raster r = src.copy();
        Region c = region.clip(r.width(), r.height());
        for (int y = c.y(); y < c.endY(); y++) {
            for (int x = c.x(); x < c.endX(); x++) {
                r.setRgb(x, y, value * 0x010101);
            }
        }
        return r;
    }

    // ---------------------------------------------------------------- packed-pixel style

    /** A raster from packed {@code 0xRRGGBB} values, row by row. */
    public static Raster of(int width, int height, int... packed) {
        if (packed.length != width * height) {
            throw new IllegalArgumentException("need " + width * height + " pixels, got " + packed.length);
        }
        Raster r = new Raster(width, height);
        for (int i = 0; i < packed.length; i++) {
            r.setRgb(i % width, i / width, packed[i]);
        }
        return r;
    }

    /** A raster of grey levels, row by row. */
    public static Raster grey(int width, int height, int... levels) {
        int[] packed = new int[levels.length];
        for (int i = 0; i < levels.length; i++) {
            packed[i] = levels[i] * 0x010101;
        }
        return of(width, height, packed);
    }

    public static Raster filled(int width, int height, int packed) {
        Raster r = new Raster(width, height);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                r.setRgb(x, y, packed);
            }
        }
        return r;
    }

    public static Raster noise(Random rnd, int width, int height) {
        Raster r = new Raster(width, height);
        rnd.nextBytes(r.rgb());
        return r;
    }

    /** One of several kinds: noise, grey noise, flat, posterized (few levels), palettes, dim noise, extremes. */
    public static Raster random(Random rnd, int width, int height) {
        Raster r = new Raster(width, height);
        byte[] b = r.rgb();
        int kind = rnd.nextInt(8);
        switch (kind) {
            case 0:
                rnd.nextBytes(b);
                break;
            case 1: { // grey noise: R=G=B
                for (int i = 0; i < b.length; i += 3) {
                    byte v = (byte) rnd.nextInt(256);
                    b[i] = v;
                    b[i + 1] = v;
                    b[i + 2] = v;
                }
                break;
            }
            case 2: { // flat
                int c = rnd.nextInt(1 << 24);
                return filled(width, height, c);
            }
            case 3: { // posterized channels: 2..4 levels each
                int levels = 2 + rnd.nextInt(3);
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) (rnd.nextInt(levels) * 255 / (levels - 1));
                }
                break;
            }
            case 4: { // small palette, random pixels
                int[] palette = palette(rnd, 1 + rnd.nextInt(5));
                for (int y = 0; y < height; y++) {
                    for (int x = 0; x < width; x++) {
                        r.setRgb(x, y, palette[rnd.nextInt(palette.length)]);
                    }
                }
                break;
            }
            case 5: { // palette blocks with some noise
                int[] palette = palette(rnd, 2 + rnd.nextInt(4));
                int bw = 1 + rnd.nextInt(6);
                int bh = 1 + rnd.nextInt(6);
                for (int y = 0; y < height; y++) {
                    for (int x = 0; x < width; x++) {
                        int c = palette[((x / bw) * 7 + (y / bh) * 3) % palette.length];
                        if (rnd.nextInt(10) == 0) {
                            c = rnd.nextInt(1 << 24);
                        }
                        r.setRgb(x, y, c);
                    }
                }
                break;
            }
            case 6: { // dim noise: channels 0..k, k small, so the largest luminance is far below 255
                int k = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 120);
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) rnd.nextInt(k + 1);
                }
                break;
            }
            default: { // extremes: 0 and 255 and near-grey
                for (int i = 0; i < b.length; i += 3) {
                    int v = rnd.nextInt(4) == 0 ? 255 : rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(256);
                    b[i] = (byte) v;
                    b[i + 1] = (byte) Math.max(0, Math.min(255, v + rnd.nextInt(3) - 1));
                    b[i + 2] = (byte) (rnd.nextBoolean() ? v : rnd.nextInt(256));
                }
                break;
            }
        }
        return r;
    }

    private static int[] palette(Random rnd, int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = rnd.nextInt(4) == 0 ? rnd.nextInt(256) * 0x010101 : rnd.nextInt(1 << 24);
        }
        return p;
    }

    /** A region that may reach outside the image, often 1, 2 or 3 wide or high; null means the whole image. */
    public static Region randomRegion(Random rnd, int width, int height) {
        if (rnd.nextInt(6) == 0) {
            return null;
        }
        int x = rnd.nextInt(width + 4) - 3;
        int y = rnd.nextInt(height + 4) - 3;
        return Region.of(x, y, extent(rnd, width), extent(rnd, height));
    }

    private static int extent(Random rnd, int size) {
        switch (rnd.nextInt(6)) {
            case 0:
                return 1;
            case 1:
                return 2;
            case 2:
                return 3;
            case 3:
                return size + 6;
            default:
                return 1 + rnd.nextInt(size + 4);
        }
    }

    /** A random image size from 1x1 up to about maxW x maxH, biased towards small and thin ones. */
    public static int randomSize(Random rnd, int max) {
        switch (rnd.nextInt(5)) {
            case 0:
                return 1 + rnd.nextInt(4);
            case 1:
                return 1 + rnd.nextInt(12);
            default:
                return 1 + rnd.nextInt(max);
        }
    }

    /** Index of the first pixel where the two rasters differ, described for failure messages; null if equal. */
    public static String firstDifference(Raster a, Raster b) {
        byte[] x = a.rgb();
        byte[] y = b.rgb();
        for (int i = 0; i < x.length; i++) {
            if (x[i] != y[i]) {
                int pixel = i / 3;
                return "first difference at (" + pixel % a.width() + "," + pixel / a.width() + ") channel " + i % 3
                        + ": " + (x[i] & 0xFF) + " vs " + (y[i] & 0xFF);
            }
        }
        return null;
    }

    /** Description of the first pixel outside {@code region} (clipped) that differs, or null. */
    public static String changedOutside(Raster before, Raster after, Region region) {
        Region r = (region == null ? before.bounds() : region).clip(before.width(), before.height());
        for (int y = 0; y < before.height(); y++) {
            for (int x = 0; x < before.width(); x++) {
                if (!r.contains(x, y) && before.rgbAt(x, y) != after.rgbAt(x, y)) {
                    return "pixel (" + x + "," + y + ") outside region " + r + " changed";
                }
            }
        }
        return null;
    }
}
