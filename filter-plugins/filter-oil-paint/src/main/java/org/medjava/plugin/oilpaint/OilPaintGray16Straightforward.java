package org.medjava.plugin.oilpaint;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;

/**
 * Oil Painting on grey data as docs/xv-filters-16bit.md 2.6 states it, with xv's own mode procedure on the grey
 * values: walk the window's in-region cells in scan order, count the equal cells at or after the current one,
 * replace the best only on a strictly larger count. O(m²) per pixel for m window cells.
 */
final class OilPaintGray16Straightforward {
    private OilPaintGray16Straightforward() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, Window window) {
        int[] cells = new int[window.size * window.size];
        for (int y = region.y(); y < region.endY(); y++) {
            Cancellation.check();
            for (int x = region.x(); x < region.endX(); x++) {
                int m = 0;
                for (int wy = y + window.lo; wy <= y + window.hi; wy++) {
                    for (int wx = x + window.lo; wx <= x + window.hi; wx++) {
                        if (region.contains(wx, wy)) {
                            cells[m++] = src.valueAt(wx, wy);
                        }
                    }
                }
                int best = 0;
                int value = 0;
                for (int i = 0; i < m; i++) {
                    int count = 1;
                    for (int j = i + 1; j < m; j++) {
                        if (cells[j] == cells[i]) {
                            count++;
                        }
                    }
                    if (count > best) {
                        best = count;
                        value = cells[i];
                    }
                }
                dst.setValue(x, y, value);
            }
        }
    }
}
