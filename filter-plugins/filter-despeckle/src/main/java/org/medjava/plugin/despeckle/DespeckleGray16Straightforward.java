package org.medjava.plugin.despeckle;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;

/**
 * DeSpeckle on grey data as docs/xv-filters-16bit.md 2.3 states it, like xv: for every region pixel, gather the
 * offset values of the in-region n×n window, Shell-sort them and take the middle value, or the floor of the mean of
 * the two middle values when the count is even (toward −∞ on signed values: decision D3).
 */
final class DespeckleGray16Straightforward {
    private DespeckleGray16Straightforward() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int n) {
        int min = src.minValue();
        int h = n / 2;
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX() - 1;
        int ey = region.endY() - 1;
        int[] a = new int[Math.min(n, region.width()) * Math.min(n, region.height())];
        for (int y = sy; y <= ey; y++) {
            Cancellation.check();
            for (int x = sx; x <= ex; x++) {
                int count = 0;
                for (int wy = Math.max(y - h, sy); wy <= Math.min(y + h, ey); wy++) {
                    for (int wx = Math.max(x - h, sx); wx <= Math.min(x + h, ex); wx++) {
                        a[count++] = src.valueAt(wx, wy) - min;
                    }
                }
                DespeckleStraightforward.shellSort(a, count);
                int median;
                if (count % 2 == 1) {
                    median = a[count / 2];
                } else {
                    median = (a[count / 2 - 1] + a[count / 2]) / 2; // non-negative: floor
                }
                dst.setValue(x, y, median + min);
            }
        }
    }
}
