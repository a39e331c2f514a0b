package org.medjava.plugin.sharpen;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;

/**
 * Sharpen on grey data as docs/xv-filters-16bit.md 2.2 states it: per interior pixel, {@code V = u / R} for the
 * nine window pixels, their sum strictly left to right, {@code v' = (Vc − (f·S) / 9) / g} clamped to [0, 1], and
 * {@code u' = floor(v'·R + 0.5)}. Grey pixels have no hue, so the HSV steps of 8-bit vanish exactly.
 */
final class SharpenGray16Straightforward {
    private SharpenGray16Straightforward() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int p) {
        int sx = region.x();
        int sy = region.y();
        int sw = region.width();
        int sh = region.height();
        if (sw < 3 || sh < 3) {
            return; // nothing changes
        }
        double f = p / 100.0;
        double g = 1.0 - f;
        for (int y = sy + 1; y <= sy + sh - 2; y++) {
            Cancellation.check();
            for (int x = sx + 1; x <= sx + sw - 2; x++) {
                double s = 0.0;
                boolean first = true;
                for (int dy = -1; dy <= 1; dy++) {
                    for (int dx = -1; dx <= 1; dx++) {
                        double v = value(src, x + dx, y + dy);
                        s = first ? v : s + v;
                        first = false;
                    }
                }
                double v = (value(src, x, y) - (f * s) / 9) / g;
                if (v < 0.0) {
                    v = 0.0;
                }
                if (v > 1.0) {
                    v = 1.0; // the clamp to [min, max] of the format (decision D2)
                }
                double u = Math.floor(v * src.range() + 0.5);
                dst.setValue(x, y, (int) u + src.minValue());
            }
        }
    }

    /** {@code V = u / R}: the offset value over the range, a true binary64 division. */
    private static double value(GrayRaster16 src, int x, int y) {
        return (src.valueAt(x, y) - src.minValue()) / (double) src.range();
    }
}
