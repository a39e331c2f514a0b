package org.medjava.plugin.pixelize;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * Pixelize on grey data, hand-optimized; identical to {@link PixelizeGray16Straightforward} (the same sums,
 * counts and divisions).
 * <ul>
 *   <li>One block row at a time, read in raster order: each region row is added into per-column sums of offset
 *       values in one sequential pass (an int while {@code B · R} fits, else a long), so every pixel is read once
 *       and in memory order instead of block by block.</li>
 *   <li>Block sums add A column sums in a long; one division per block.</li>
 *   <li>The block row's output row is built once and copied into each of its rows with
 *       {@link System#arraycopy}.</li>
 *   <li>1×1 blocks are the identity and do nothing. Scratch: one sum array and one word array of the region's
 *       width.</li>
 * </ul>
 *
 * <p>The parallel version runs bands of block rows, each writing only its own rows.
 */
final class PixelizeGray16Optimized {
    /** Below this many region pixels per band, splitting costs more than it saves. */
    private static final int MIN_BAND_PIXELS = 1 << 16;

    private PixelizeGray16Optimized() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int a, int b, boolean parallel) {
        if (a == 1 && b == 1) {
            return; // every block is one pixel, its own mean
        }
        int nh = (region.height() + b - 1) / b;
        if (parallel) {
            int minBlockRows = (int) Math.max(1, MIN_BAND_PIXELS / ((long) region.width() * b));
            RowBands.run(0, nh, minBlockRows, (from, to) -> blockRows(src, dst, region, a, b, from, to));
        } else {
            blockRows(src, dst, region, a, b, 0, nh);
        }
    }

    /** Pixelizes block rows {@code [fromBlockRow, toBlockRow)} of the centred grid. */
    static void blockRows(GrayRaster16 src, GrayRaster16 dst, Region region, int a, int b, int fromBlockRow,
                          int toBlockRow) {
        final short[] in = src.words();
        final short[] out = dst.words();
        final int width = src.width();
        final int min = src.minValue();
        final int sx = region.x();
        final int sy = region.y();
        final int sw = region.width();
        final int sh = region.height();
        final int nw = (sw + a - 1) / a;
        final int nh = (sh + b - 1) / b;
        final int leftOverhang = (nw * a - sw) / 2; // columns of block 0 left of the region
        final int y0 = sy - (nh * b - sh) / 2;
        final boolean intSums = (long) b * src.range() <= Integer.MAX_VALUE;
        final int[] col = intSums ? new int[sw] : null;
        final long[] longCol = intSums ? null : new long[sw];
        final short[] pattern = new short[sw];
        for (int j = fromBlockRow; j < toBlockRow; j++) {
            Cancellation.check();
            int by0 = Math.max(y0 + j * b, sy);
            int by1 = Math.min(y0 + (j + 1) * b, sy + sh);
            for (int y = by0; y < by1; y++) {
                int base = y * width + sx;
                boolean first = y == by0;
                if (intSums) {
                    for (int k = 0; k < sw; k++) {
                        int u = (in[base + k] - min) & 0xFFFF;
                        col[k] = first ? u : col[k] + u;
                    }
                } else {
                    for (int k = 0; k < sw; k++) {
                        int u = (in[base + k] - min) & 0xFFFF;
                        longCol[k] = first ? u : longCol[k] + u;
                    }
                }
            }
            long rows = by1 - by0;
            // block i covers region columns [i·A − leftOverhang, (i+1)·A − leftOverhang), clipped
            for (int i = 0; i < nw; i++) {
                int c0 = Math.max(i * a - leftOverhang, 0);
                int c1 = Math.min((i + 1) * a - leftOverhang, sw);
                long sum = 0;
                if (intSums) {
                    for (int k = c0; k < c1; k++) {
                        sum += col[k];
                    }
                } else {
                    for (int k = c0; k < c1; k++) {
                        sum += longCol[k];
                    }
                }
                short mean = (short) (sum / (rows * (c1 - c0)) + min);
                java.util.Arrays.fill(pattern, c0, c1, mean);
            }
            for (int y = by0; y < by1; y++) {
                System.arraycopy(pattern, 0, out, y * width + sx, sw);
            }
        }
    }
}
