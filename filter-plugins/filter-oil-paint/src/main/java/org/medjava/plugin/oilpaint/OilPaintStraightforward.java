package org.medjava.plugin.oilpaint;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * Oil Painting (spec 2.6) written to read like the spec, including xv's own mode procedure: walk the valid cells
 * in scan order, count the equal cells at or after the current one, replace the best only on a strictly larger
 * count. O(m²) per pixel for m window cells.
 */
final class OilPaintStraightforward {
    private OilPaintStraightforward() {
    }

    static void apply(Raster src, Raster dst, Region region, Window window) {
        int[] cells = new int[window.size * window.size];
        for (int y = region.y(); y < region.endY(); y++) {
            Cancellation.check();
            for (int x = region.x(); x < region.endX(); x++) {
                // the window's cells inside the region, in row-major order; cells outside the region are skipped
                int m = 0;
                for (int wy = y + window.lo; wy <= y + window.hi; wy++) {
                    for (int wx = x + window.lo; wx <= x + window.hi; wx++) {
                        if (region.contains(wx, wy)) {
                            cells[m++] = src.rgbAt(wx, wy); // key R*65536 + G*256 + B
                        }
                    }
                }
                int best = 0;
                int colour = 0;
                for (int i = 0; i < m; i++) {
                    int count = 1;
                    for (int j = i + 1; j < m; j++) {
                        if (cells[j] == cells[i]) {
                            count++;
                        }
                    }
                    if (count > best) {
                        best = count;
                        colour = cells[i];
                    }
                }
                dst.setRgb(x, y, colour);
            }
        }
    }
}
