package org.medjava.plugin.pixelize;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;

/**
 * Pixelize on grey data as docs/xv-filters-16bit.md 2.7 states it: lay the centred grid, then for each block sum
 * the offset values of its in-region pixels (64-bit), divide by their count (floor) and write the mean to each.
 */
final class PixelizeGray16Straightforward {
    private PixelizeGray16Straightforward() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int a, int b) {
        int min = src.minValue();
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
                int bx0 = Math.max(x0 + i * a, sx);
                int bx1 = Math.min(x0 + (i + 1) * a, sx + sw);
                int by0 = Math.max(y0 + j * b, sy);
                int by1 = Math.min(y0 + (j + 1) * b, sy + sh);
                long sum = 0;
                for (int y = by0; y < by1; y++) {
                    for (int x = bx0; x < bx1; x++) {
                        sum += src.valueAt(x, y) - min;
                    }
                }
                long count = (long) (bx1 - bx0) * (by1 - by0);
                int mean = (int) (sum / count) + min;
                for (int y = by0; y < by1; y++) {
                    for (int x = bx0; x < bx1; x++) {
                        dst.setValue(x, y, mean);
                    }
                }
            }
        }
    }
}
