package org.medjava.plugin.spread;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Extent;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * Spread as the spec states it: in place on the output, region pixels in raster order, two XVR draws per pixel
 * (R1 for x, then R2 for y), xv's "value mod range" mapping, then swap. The walk is the same for 8-bit RGB and grey
 * data (docs/xv-filters-16bit.md 2.8); only the swap knows the pixel layout.
 */
final class SpreadStraightforward {
    private SpreadStraightforward() {
    }

    /** Swaps the pixels with indices {@code i} and {@code j} ({@code y · width + x}). */
    @FunctionalInterface
    interface Swap {
        void swap(int i, int j);
    }

    /** A {@link org.medjava.filter.Kernel}: Spread works in place on {@code dst} and never reads {@code src}. */
    static void apply(Raster src, Raster dst, Region region, SpreadArgs args) {
        byte[] p = dst.rgb();
        walk(dst.width(), region, args.distance(), args.seed(), (i, j) -> swap(p, 3 * i, 3 * j));
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, SpreadArgs args) {
        short[] p = dst.words();
        walk(dst.width(), region, args.distance(), args.seed(), (i, j) -> {
            short t = p[i];
            p[i] = p[j];
            p[j] = t;
        });
    }

    static void walk(int width, Region region, Extent distance, int seed, Swap swap) {
        boolean box = distance.pair();
        int a = distance.a(); // diamond: d; box: A
        int b = distance.b(); // diamond: d; box: B
        if (a == 0 && b == 0) {
            return; // "0" and "0x0" do nothing
        }
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX() - 1; // last column of the region
        int ey = region.endY() - 1; // last row of the region
        Xvr rng = new Xvr(seed);
        for (int y = sy; y <= ey; y++) {
            Cancellation.check();
            for (int x = sx; x <= ex; x++) {
                int r1 = rng.next();
                int r2 = rng.next();
                int xlo = Math.max(x - a, sx);
                int xhi = Math.min(x + a, ex);
                int x1 = xlo + r1 % (xhi - xlo + 1);
                int ylo = Math.max(y - b, sy);
                int yhi = Math.min(y + b, ey);
                if (!box) {
                    int r = a - Math.abs(x1 - x); // what is left of the diamond's radius at column x1
                    ylo = Math.max(ylo, y - r);
                    yhi = Math.min(yhi, y + r);
                }
                int y1 = ylo + r2 % (yhi - ylo + 1);
                swap.swap(y * width + x, y1 * width + x1);
            }
        }
    }

    static void swap(byte[] p, int i, int j) {
        byte t = p[i];
        p[i] = p[j];
        p[j] = t;
        t = p[i + 1];
        p[i + 1] = p[j + 1];
        p[j + 1] = t;
        t = p[i + 2];
        p[i + 2] = p[j + 2];
        p[j + 2] = t;
    }
}
