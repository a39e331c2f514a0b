package org.medjava.plugin.edgedetect;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.Xv;

/** Edge Detect (spec 2.4) written to read like the spec: step 1, step 2, step 3, one pass each. */
final class EdgeDetectStraightforward {
    private EdgeDetectStraightforward() {
    }

    static void apply(Raster src, Raster dst, Region region, boolean blackFrame) {
        int sx = region.x();
        int sy = region.y();
        int ex = region.endX();
        int ey = region.endY();
        byte[] in = src.rgb();
        byte[] out = dst.rgb();
        int w = src.width();

        // Step 1: interior only, per channel; the frame keeps its input values (dst starts as a copy)
        for (int y = sy + 1; y <= ey - 2; y++) {
            Cancellation.check();
            for (int x = sx + 1; x <= ex - 2; x++) {
                for (int c = 0; c < 3; c++) {
                    int gx = p(in, w, x + 1, y - 1, c) + p(in, w, x + 1, y, c) + p(in, w, x + 1, y + 1, c)
                            - (p(in, w, x - 1, y - 1, c) + p(in, w, x - 1, y, c) + p(in, w, x - 1, y + 1, c));
                    int gy = p(in, w, x - 1, y + 1, c) + p(in, w, x, y + 1, c) + p(in, w, x + 1, y + 1, c)
                            - (p(in, w, x - 1, y - 1, c) + p(in, w, x, y - 1, c) + p(in, w, x + 1, y - 1, c));
                    int e = Math.max(Math.abs(gx), Math.abs(gy)) / 3;
                    out[3 * (y * w + x) + c] = (byte) e;
                }
            }
        }
        // frame=black (non-xv): the frame is set to 0 before the maximum and the rescale
        if (blackFrame) {
            for (int y = sy; y < ey; y++) {
                Cancellation.check();
                for (int x = sx; x < ex; x++) {
                    boolean interior = x >= sx + 1 && x <= ex - 2 && y >= sy + 1 && y <= ey - 2;
                    if (!interior) {
                        dst.setRgb(x, y, 0);
                    }
                }
            }
        }
        // Step 2: maxv over all region pixels, frame included
        int maxv = 0;
        for (int y = sy; y < ey; y++) {
            Cancellation.check();
            for (int x = sx; x < ex; x++) {
                int o = 3 * (y * w + x);
                maxv = Math.max(maxv, Xv.mono(out[o] & 0xFF, out[o + 1] & 0xFF, out[o + 2] & 0xFF));
            }
        }
        // Step 3: stretch every channel of every region pixel, clamped to 255; maxv = 0 means no rescale
        if (maxv > 0) {
            for (int y = sy; y < ey; y++) {
                Cancellation.check();
                for (int x = sx; x < ex; x++) {
                    for (int c = 0; c < 3; c++) {
                        int o = 3 * (y * w + x) + c;
                        int v = out[o] & 0xFF;
                        out[o] = (byte) Math.min(255, v * 255 / maxv);
                    }
                }
            }
        }
    }

    private static int p(byte[] in, int w, int x, int y, int c) {
        return in[3 * (y * w + x) + c] & 0xFF;
    }
}
