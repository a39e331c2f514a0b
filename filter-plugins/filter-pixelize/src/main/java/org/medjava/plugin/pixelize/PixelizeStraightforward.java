package org.medjava.plugin.pixelize;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * Pixelize as the spec states it: lay the centred grid, then for each block sum its in-region pixels per channel,
 * divide by their count (floor) and write the mean to each of them.
 */
final class PixelizeStraightforward {
    private PixelizeStraightforward() {
    }

    static void apply(Raster src, Raster dst, Region region, int a, int b) {
        byte[] in = src.rgb();
        byte[] out = dst.rgb();
        int width = src.width();
        int sx = region.x();
        int sy = region.y();
        int sw = region.width();
        int sh = region.height();
        int nw = (sw + a - 1) / a; // ceil(sw / A)
        int nh = (sh + b - 1) / b;
        int x0 = sx - (nw * a - sw) / 2; // the left gets floor(excess / 2), the right the rest
        int y0 = sy - (nh * b - sh) / 2;
        for (int j = 0; j < nh; j++) {
            Cancellation.check();
            for (int i = 0; i < nw; i++) {
                // the block, clipped to the region: columns [bx0, bx1), rows [by0, by1)
                int bx0 = Math.max(x0 + i * a, sx);
                int bx1 = Math.min(x0 + (i + 1) * a, sx + sw);
                int by0 = Math.max(y0 + j * b, sy);
                int by1 = Math.min(y0 + (j + 1) * b, sy + sh);
                long r = 0;
                long g = 0;
                long bl = 0;
                for (int y = by0; y < by1; y++) {
                    for (int x = bx0; x < bx1; x++) {
                        int p = 3 * (y * width + x);
                        r += in[p] & 0xFF;
                        g += in[p + 1] & 0xFF;
                        bl += in[p + 2] & 0xFF;
                    }
                }
                long count = (long) (bx1 - bx0) * (by1 - by0);
                byte mr = (byte) (r / count);
                byte mg = (byte) (g / count);
                byte mb = (byte) (bl / count);
                for (int y = by0; y < by1; y++) {
                    for (int x = bx0; x < bx1; x++) {
                        int p = 3 * (y * width + x);
                        out[p] = mr;
                        out[p + 1] = mg;
                        out[p + 2] = mb;
                    }
                }
            }
        }
    }
}
