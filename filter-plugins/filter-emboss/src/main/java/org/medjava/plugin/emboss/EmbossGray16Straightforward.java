package org.medjava.plugin.emboss;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.Xv;

/**
 * Emboss on grey data as docs/xv-filters-16bit.md 2.5 states it: fill the region with the mid-grey
 * {@code M = (R + 1) / 2} (an offset value: 2^(b−1) unsigned, 0 signed; decision D6), then the kernel on the
 * interior's offset values, {@code clamp(M + S/8, 0, R)}; MONO is the identity on grey, so there is no step 3.
 */
final class EmbossGray16Straightforward {
    private EmbossGray16Straightforward() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, boolean floorRounding) {
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX();
        int ey = region.endY();
        int min = src.minValue();
        int range = src.range();
        int mid = (range + 1) / 2;

        // Step 1: every region pixel becomes the mid-grey
        for (int y = sy; y < ey; y++) {
            Cancellation.check();
            for (int x = sx; x < ex; x++) {
                dst.setValue(x, y, mid + min);
            }
        }
        // Step 2: interior only, reading the input's offset values
        for (int y = sy + 1; y <= ey - 2; y++) {
            Cancellation.check();
            for (int x = sx + 1; x <= ex - 2; x++) {
                int s = 2 * p(src, x + 1, y + 1) + p(src, x, y + 1) + p(src, x + 1, y)
                        - p(src, x - 1, y) - p(src, x, y - 1) - 2 * p(src, x - 1, y - 1);
                int t = floorRounding ? Math.floorDiv(s, 8) : s / 8; // Java '/' truncates toward zero
                dst.setValue(x, y, Xv.clamp(mid + t, 0, range) + min);
            }
        }
    }

    private static int p(GrayRaster16 src, int x, int y) {
        return src.valueAt(x, y) - src.minValue();
    }
}
