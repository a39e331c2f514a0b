package org.medjava.plugin.despeckle;

import java.util.SplittableRandom;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/** Small image and region generators for the tests of this plugin (no dependency on filter-testkit). */
final class TestImages {
    private TestImages() {
    }

    /** A raster whose channel c of pixel (x,y) is {@code values[c][y][x]}. */
    static Raster of(int[][][] values) {
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
    static Raster grey(int[][] rows) {
        return of(new int[][][] {rows, rows, rows});
    }

    /** Channel c of pixel (x,y), 0..255. */
    static int at(Raster r, int x, int y, int c) {
        return r.rgb()[3 * (y * r.width() + x) + c] & 0xFF;
    }

    /** Channel c of the whole raster as rows. */
    static int[][] channel(Raster r, int c) {
        int[][] rows = new int[r.height()][r.width()];
        for (int y = 0; y < r.height(); y++) {
            for (int x = 0; x < r.width(); x++) {
                rows[y][x] = at(r, x, y, c);
            }
        }
        return rows;
    }

    static Raster noise(int w, int h, long seed) {
        Raster r = new Raster(w, h);
        new SplittableRandom(seed).nextBytes(r.rgb());
        return r;
    }

    /**
     * A random test image: noise (3/8), flat (1/8), posterized (2/8) (few levels, so ties and repeats abound), or smooth with noise (2/8).
     */
    static Raster random(SplittableRandom rnd, int w, int h) {
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
    static Region randomRegion(SplittableRandom rnd, int w, int h) {
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
    static Raster fill(Raster src, Region region, int value) {
        Raster r = src.copy();
        Region c = region.clip(r.width(), r.height());
        for (int y = c.y(); y < c.endY(); y++) {
            for (int x = c.x(); x < c.endX(); x++) {
                r.setRgb(x, y, value * 0x010101);
            }
        }
        return r;
    }
}
