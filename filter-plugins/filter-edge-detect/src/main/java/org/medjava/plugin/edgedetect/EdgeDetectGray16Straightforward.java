package org.medjava.plugin.edgedetect;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;

/**
 * Edge Detect on grey data as docs/xv-filters-16bit.md 2.4 states it: step 1 (Prewitt magnitude of offset values
 * on the interior, written as an offset value: no edge = min), step 2 (the largest offset value of the region,
 * frame included), step 3 (stretch by {@code R / maxv} in 64 bits), one pass each.
 */
final class EdgeDetectGray16Straightforward {
    private EdgeDetectGray16Straightforward() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, boolean blackFrame) {
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX();
        int ey = region.endY();
        int min = src.minValue();
        int range = src.range();

        // Step 1: interior only; the frame keeps its input values (dst starts as a copy)
        for (int y = sy + 1; y <= ey - 2; y++) {
            Cancellation.check();
            for (int x = sx + 1; x <= ex - 2; x++) {
                int gx = p(src, x + 1, y - 1) + p(src, x + 1, y) + p(src, x + 1, y + 1)
                        - (p(src, x - 1, y - 1) + p(src, x - 1, y) + p(src, x - 1, y + 1));
                int gy = p(src, x - 1, y + 1) + p(src, x, y + 1) + p(src, x + 1, y + 1)
                        - (p(src, x - 1, y - 1) + p(src, x, y - 1) + p(src, x + 1, y - 1));
                int e = Math.max(Math.abs(gx), Math.abs(gy)) / 3;
                dst.setValue(x, y, e + min);
            }
        }
        // frame=black (non-xv): the frame becomes u = 0 (v = min) before the maximum and the rescale
        if (blackFrame) {
            for (int y = sy; y < ey; y++) {
                Cancellation.check();
                for (int x = sx; x < ex; x++) {
                    boolean interior = x >= sx + 1 && x <= ex - 2 && y >= sy + 1 && y <= ey - 2;
                    if (!interior) {
                        dst.setValue(x, y, min);
                    }
                }
            }
        }
        // Step 2: maxv over all region pixels, frame included (MONO is the identity on grey)
        int maxv = 0;
        for (int y = sy; y < ey; y++) {
            Cancellation.check();
            for (int x = sx; x < ex; x++) {
                maxv = Math.max(maxv, dst.valueAt(x, y) - min);
            }
        }
        // Step 3: stretch every region pixel by R / maxv, clamped to R; maxv = 0 means no rescale
        if (maxv > 0) {
            for (int y = sy; y < ey; y++) {
                Cancellation.check();
                for (int x = sx; x < ex; x++) {
                    long u = dst.valueAt(x, y) - min;
                    dst.setValue(x, y, (int) Math.min(range, u * range / maxv) + min);
                }
            }
        }
    }

    /** Offset value of the input at (x, y). */
    private static int p(GrayRaster16 src, int x, int y) {
        return src.valueAt(x, y) - src.minValue();
    }
}
