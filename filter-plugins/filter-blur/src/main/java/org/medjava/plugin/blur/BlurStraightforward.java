package org.medjava.plugin.blur;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * Blur as the spec states it, like xv: for every region pixel and channel, add up the in-region pixels of the
 * n×n window and divide by how many there are. O(n²) per pixel.
 */
final class BlurStraightforward {
    private BlurStraightforward() {
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
        for (int y = sy; y <= ey; y++) {
            Cancellation.check();
            for (int x = sx; x <= ex; x++) {
                int x0 = Math.max(x - h, sx);
                int x1 = Math.min(x + h, ex);
                int y0 = Math.max(y - h, sy);
                int y1 = Math.min(y + h, ey);
                for (int c = 0; c < 3; c++) {
                    int sum = 0;
                    int count = 0;
                    for (int wy = y0; wy <= y1; wy++) {
                        for (int wx = x0; wx <= x1; wx++) {
                            sum += in[3 * (wy * width + wx) + c] & 0xFF;
                            count++;
                        }
                    }
                    out[3 * (y * width + x) + c] = (byte) (sum / count);
                }
            }
        }
    }
}
