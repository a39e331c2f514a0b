package org.medjava.plugin.pixelize;

import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * Pixelize, hand-optimized; identical to {@link PixelizeStraightforward} (the same sums, counts and divisions).
 *
 * <ul>
 *   <li>One block row at a time, read in raster order: each region row is added into per-column sums
 *       ({@code col[3i+c]}, at most 65535·255, an int) in one sequential pass, so every pixel is read once and
 *       in memory order instead of block by block.</li>
 *   <li>Block sums then add A column sums (a long, since a block may hold more than 2^31/255 pixels); one
 *       division per block and channel.</li>
 *   <li>The block row's output row is built once and copied into each of its rows with
 *       {@link System#arraycopy}.</li>
 *   <li>1×1 blocks are the identity and do nothing. Scratch: two arrays of 3·width.</li>
 * </ul>
 *
 * <p>The parallel version runs bands of block rows, each writing only its own rows.
 */
final class PixelizeOptimized {
    /** Below this many region pixels per band, splitting costs more than it saves. */
    private static final int MIN_BAND_PIXELS = 1 << 16;

    private PixelizeOptimized() {
    }

    static void apply(Raster src, Raster dst, Region region, int a, int b, boolean parallel) {
        if (a == 1 && b == 1) {
            return; // every block is one pixel, its own mean: dst already is a copy of src
        }
        byte[] in = src.rgb();
        byte[] out = dst.rgb();
        int width = src.width();
        int sx = region.x();
        int sy = region.y();
        int sw = region.width();
        int sh = region.height();
        int nh = (sh + b - 1) / b;
        if (parallel) {
            int minBlockRows = (int) Math.max(1, MIN_BAND_PIXELS / ((long) sw * b));
            RowBands.run(0, nh, minBlockRows, (from, to) -> blockRows(in, out, width, sx, sy, sw, sh, a, b, from, to));
        } else {
            blockRows(in, out, width, sx, sy, sw, sh, a, b, 0, nh);
        }
    }

    /** Pixelizes block rows {@code [fromBlockRow, toBlockRow)} of the centred grid. */
    static void blockRows(byte[] in, byte[] out, int width, int sx, int sy, int sw, int sh, int a, int b,
                          int fromBlockRow, int toBlockRow) {
        final int stride = 3 * width;
        final int len = 3 * sw;
        final int nw = (sw + a - 1) / a;
        final int nh = (sh + b - 1) / b;
        final int leftOverhang = (nw * a - sw) / 2; // columns of block 0 left of the region
        final int y0 = sy - (nh * b - sh) / 2;
        final int rowOffset = 3 * sx;
        final int[] col = new int[len];
        final byte[] pattern = new byte[len];
        for (int j = fromBlockRow; j < toBlockRow; j++) {
            int by0 = Math.max(y0 + j * b, sy);
            int by1 = Math.min(y0 + (j + 1) * b, sy + sh);
            int rows = by1 - by0;
            // column sums over the block row
            int base = by0 * stride + rowOffset;
            for (int k = 0; k < len; k++) {
                col[k] = in[base + k] & 0xFF;
            }
            for (int y = by0 + 1; y < by1; y++) {
                base += stride;
                for (int k = 0; k < len; k++) {
                    col[k] += in[base + k] & 0xFF;
                }
            }
            // block means into the pattern row; block i covers region columns [c0, c1)
            int c0 = 0;
            int c1 = a - leftOverhang;
            while (c0 < sw) {
                if (c1 > sw) {
                    c1 = sw;
                }
                long r = 0;
                long g = 0;
                long bl = 0;
                for (int k = 3 * c0, end = 3 * c1; k < end; k += 3) {
                    r += col[k];
                    g += col[k + 1];
                    bl += col[k + 2];
                }
                long count = (long) (c1 - c0) * rows;
                byte mr = (byte) (r / count);
                byte mg = (byte) (g / count);
                byte mb = (byte) (bl / count);
                for (int k = 3 * c0, end = 3 * c1; k < end; k += 3) {
                    pattern[k] = mr;
                    pattern[k + 1] = mg;
                    pattern[k + 2] = mb;
                }
                c0 = c1;
                c1 += a;
            }
            for (int y = by0, o = by0 * stride + rowOffset; y < by1; y++, o += stride) {
                System.arraycopy(pattern, 0, out, o, len);
            }
        }
    }
}
