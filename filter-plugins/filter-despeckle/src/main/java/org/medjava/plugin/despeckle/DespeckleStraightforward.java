package org.medjava.plugin.despeckle;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * DeSpeckle as the spec states it, like xv: for every region pixel and channel, gather the in-region values of
 * the n×n window, Shell-sort them (gaps count/2, count/4, …, 1) and take the middle value, or the floor of the
 * mean of the two middle values when the count is even.
 */
final class DespeckleStraightforward {
    private DespeckleStraightforward() {
    }

    static void apply(Raster src, Raster dst, Region region, int n) {
        byte[] in = src.rgb();
        byte[] out = dst.rgb();
        int width = src.width();
        int h = n / 2;
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX() - 1; // last column of the region
        int ey = region.endY() - 1; // last row of the region
        int[] a = new int[Math.min(n, region.width()) * Math.min(n, region.height())];
        for (int y = sy; y <= ey; y++) {
            Cancellation.check();
            for (int x = sx; x <= ex; x++) {
                int x0 = Math.max(x - h, sx);
                int x1 = Math.min(x + h, ex);
                int y0 = Math.max(y - h, sy);
                int y1 = Math.min(y + h, ey);
                for (int c = 0; c < 3; c++) {
                    int count = 0;
                    for (int wy = y0; wy <= y1; wy++) {
                        for (int wx = x0; wx <= x1; wx++) {
                            a[count++] = in[3 * (wy * width + wx) + c] & 0xFF;
                        }
                    }
                    shellSort(a, count);
                    int median;
                    if (count % 2 == 1) {
                        median = a[count / 2];
                    } else {
                        median = (a[count / 2 - 1] + a[count / 2]) / 2;
                    }
                    out[3 * (y * width + x) + c] = (byte) median;
                }
            }
        }
    }

    /** xv's in-place Shell sort of {@code a[0..count)}, ascending, with gaps count/2, count/4, …, 1. */
    static void shellSort(int[] a, int count) {
        for (int gap = count / 2; gap > 0; gap /= 2) {
            for (int i = gap; i < count; i++) {
                for (int j = i - gap; j >= 0 && a[j] > a[j + gap]; j -= gap) {
                    int t = a[j];
                    a[j] = a[j + gap];
                    a[j + gap] = t;
                }
            }
        }
    }
}
