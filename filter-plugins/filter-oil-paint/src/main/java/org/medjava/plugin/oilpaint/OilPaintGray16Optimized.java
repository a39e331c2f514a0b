package org.medjava.plugin.oilpaint;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * Oil Painting on grey data with a histogram of 2^b bins indexed by the offset value (decision D7 of
 * docs/xv-filters-16bit.md): O(m) per pixel for m window cells instead of xv's O(m²) comparisons.
 * <ul>
 *   <li>Pass 1 gathers the window's in-region cells in row-major order into a scratch array and counts them;
 *       pass 2 walks the cells in the same order and keeps the first whose count is strictly larger than the
 *       best so far — exactly xv's tie rule (the earliest first occurrence among the most frequent values; counting
 *       while walking would let a later value win a tie); pass 3 resets the bins of the cells, so the 2^b bins
 *       are cleared once per band, never per pixel.</li>
 *   <li>Pass 2 stops early once no value can beat the best any more (the best count is at least the number of
 *       cells not yet walked).</li>
 *   <li>Scratch per band: 2^b ints (256 KiB for 16 bits) and m ints.</li>
 * </ul>
 */
final class OilPaintGray16Optimized {
    private static final int MIN_BAND_ROWS = 8;

    private OilPaintGray16Optimized() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, Window window,
                      boolean parallel) {
        if (parallel) {
            RowBands.run(region.y(), region.endY(), MIN_BAND_ROWS,
                    (from, to) -> rows(src, dst, region, window, from, to));
        } else {
            rows(src, dst, region, window, region.y(), region.endY());
        }
    }

    static void rows(GrayRaster16 src, GrayRaster16 dst, Region region, Window window, int fromRow,
                     int toRow) {
        final short[] in = src.words();
        final short[] out = dst.words();
        final int width = src.width();
        final int min = src.minValue();
        final int sx = region.x();
        final int ex = region.endX() - 1;
        final int sy = region.y();
        final int ey = region.endY() - 1;
        final int[] count = new int[src.range() + 1];
        final int[] cells = new int[window.size * window.size];
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            int y0 = Math.max(y + window.lo, sy);
            int y1 = Math.min(y + window.hi, ey);
            for (int x = sx; x <= ex; x++) {
                int x0 = Math.max(x + window.lo, sx);
                int x1 = Math.min(x + window.hi, ex);
                int m = 0;
                for (int wy = y0; wy <= y1; wy++) {
                    for (int i = wy * width + x0, end = wy * width + x1; i <= end; i++) {
                        int u = (in[i] - min) & 0xFFFF;
                        cells[m++] = u;
                        count[u]++;
                    }
                }
                int best = 0;
                int mode = 0;
                for (int i = 0; i < m && best < m - i; i++) {
                    int c = count[cells[i]];
                    if (c > best) {
                        best = c;
                        mode = cells[i];
                    }
                }
                for (int i = 0; i < m; i++) {
                    count[cells[i]] = 0;
                }
                out[y * width + x] = (short) (mode + min);
            }
        }
    }
}
