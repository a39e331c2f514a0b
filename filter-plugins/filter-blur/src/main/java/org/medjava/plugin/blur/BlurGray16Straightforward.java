package org.medjava.plugin.blur;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;

/**
 * Blur on grey data as docs/xv-filters-16bit.md 2.1 states it: for every region pixel, add up the offset values
 * {@code u = v − min} of the in-region pixels of the n×n window (64-bit) and write {@code floor(sum / count) + min}.
 * O(n²) per pixel.
 */
final class BlurGray16Straightforward {
    private BlurGray16Straightforward() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int n) {
        int min = src.minValue();
        int h = n / 2;
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX() - 1; // last column of the region
        int ey = region.endY() - 1; // last row of the region
        for (int y = sy; y <= ey; y++) {
            Cancellation.check();
            for (int x = sx; x <= ex; x++) {
                long sum = 0;
                int count = 0;
                for (int wy = Math.max(y - h, sy); wy <= Math.min(y + h, ey); wy++) {
                    for (int wx = Math.max(x - h, sx); wx <= Math.min(x + h, ex); wx++) {
                        sum += src.valueAt(wx, wy) - min;
                        count++;
                    }
                }
                dst.setValue(x, y, (int) (sum / count) + min);
            }
        }
    }
}
