package org.medjava.plugin.emboss;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.Xv;

/** Emboss (spec 2.5) written to read like the spec: fill, kernel on the interior, MONO; one pass each. */
final class EmbossStraightforward {
    private EmbossStraightforward() {
    }

    static void apply(Raster src, Raster dst, Region region, boolean floorRounding) {
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX();
        int ey = region.endY();
        byte[] in = src.rgb();
        byte[] out = dst.rgb();
        int w = src.width();

        // Step 1: every region pixel of the output becomes (128,128,128)
        for (int y = sy; y < ey; y++) {
            Cancellation.check();
            for (int x = sx; x < ex; x++) {
                dst.setRgb(x, y, 0x808080);
            }
        }
        // Step 2: interior only, reading the input, per channel
        for (int y = sy + 1; y <= ey - 2; y++) {
            Cancellation.check();
            for (int x = sx + 1; x <= ex - 2; x++) {
                for (int c = 0; c < 3; c++) {
                    int s = 2 * p(in, w, x + 1, y + 1, c) + p(in, w, x, y + 1, c) + p(in, w, x + 1, y, c)
                            - p(in, w, x - 1, y, c) - p(in, w, x, y - 1, c) - 2 * p(in, w, x - 1, y - 1, c);
                    int t = floorRounding ? Math.floorDiv(s, 8) : s / 8; // Java '/' truncates toward zero
                    out[3 * (y * w + x) + c] = (byte) Xv.clamp(128 + t, 0, 255);
                }
            }
        }
        // Step 3: every region pixel, frame included, becomes MONO of its (already truncated) channels
        for (int y = sy; y < ey; y++) {
            Cancellation.check();
            for (int x = sx; x < ex; x++) {
                int o = 3 * (y * w + x);
                int m = Xv.mono(out[o] & 0xFF, out[o + 1] & 0xFF, out[o + 2] & 0xFF);
                out[o] = (byte) m;
                out[o + 1] = (byte) m;
                out[o + 2] = (byte) m;
            }
        }
    }

    private static int p(byte[] in, int w, int x, int y, int c) {
        return in[3 * (y * w + x) + c] & 0xFF;
    }
}
