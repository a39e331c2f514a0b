package org.medjava.plugin.edgedetect;

import java.util.concurrent.atomic.AtomicInteger;
import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * Edge Detect on grey data, hand-optimized; pure integer arithmetic, so any exact rewrite gives the output of
 * {@link EdgeDetectGray16Straightforward}.
 * <ul>
 *   <li>Steps 1 and 2 (and the black frame) are fused into one pass that writes the edge magnitudes and tracks the
 *       largest offset value on the way.</li>
 *   <li>The Prewitt sums are separable: per column {@code C = up + mid + down} and {@code D = down − up}, then
 *       {@code Gx = C[x+1] − C[x−1]} and {@code Gy = D[x−1] + D[x] + D[x+1]}; only the right column's C and D are
 *       new per pixel (sliding locals). {@code max(|Gx|,|Gy|) / 3} divides by a constant (a multiply).</li>
 *   <li>Step 3 is skipped when {@code maxv} is 0 (spec: no rescale) or R (the stretch is the identity). Otherwise
 *       it runs through a table of {@code maxv + 1} stretched values when the region has at least twice as many
 *       pixels (one 64-bit division per table entry instead of per pixel), else it divides per pixel.</li>
 *   <li>Parallel: the fused pass runs in bands of written rows, each returning its band maximum; the maxima are
 *       combined (a max-reduction), then the stretch runs in bands.</li>
 * </ul>
 */
final class EdgeDetectGray16Optimized {
    private static final int MIN_BAND_ROWS = 16;

    private EdgeDetectGray16Optimized() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, boolean blackFrame, boolean parallel) {
        int maxv;
        if (parallel) {
            AtomicInteger max = new AtomicInteger();
            RowBands.run(region.y(), region.endY(), MIN_BAND_ROWS,
                    (from, to) -> max.accumulateAndGet(edges(src, dst, region, blackFrame, from, to), Math::max));
            maxv = max.get();
        } else {
            maxv = edges(src, dst, region, blackFrame, region.y(), region.endY());
        }
        int range = src.range();
        if (maxv == 0 || maxv == range) {
            return; // no rescale, or u · R / R = u
        }
        long pixels = (long) region.width() * region.height();
        int[] table = pixels >= 2L * (maxv + 1) ? table(maxv, range) : null;
        if (parallel) {
            RowBands.run(region.y(), region.endY(), MIN_BAND_ROWS,
                    (from, to) -> stretch(dst, region, maxv, table, from, to));
        } else {
            stretch(dst, region, maxv, table, region.y(), region.endY());
        }
    }

    /** {@code table[u] = min(R, u · R / maxv)} for u in 0..maxv. */
    private static int[] table(int maxv, int range) {
        int[] table = new int[maxv + 1];
        for (int u = 0; u <= maxv; u++) {
            table[u] = (int) Math.min(range, (long) u * range / maxv);
        }
        return table;
    }

    /** Steps 1 and 2 on region rows {@code [fromRow, toRow)}: writes edges (and a black frame), returns the max u. */
    static int edges(GrayRaster16 src, GrayRaster16 dst, Region region, boolean blackFrame, int fromRow, int toRow) {
        final short[] in = src.words();
        final short[] out = dst.words();
        final int width = src.width();
        final int min = src.minValue();
        final int sx = region.x();
        final int ex = region.endX() - 1;
        final int sy = region.y();
        final int ey = region.endY() - 1;
        final short black = (short) min;
        int maxv = 0;
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            int row = y * width;
            if (y == sy || y == ey || ex - sx < 2) {
                for (int i = row + sx; i <= row + ex; i++) {
                    if (blackFrame) {
                        out[i] = black;
                    } else {
                        maxv = Math.max(maxv, (in[i] - min) & 0xFFFF);
                    }
                }
                continue;
            }
            if (blackFrame) {
                out[row + sx] = black;
                out[row + ex] = black;
            } else {
                maxv = Math.max(maxv, Math.max((in[row + sx] - min) & 0xFFFF, (in[row + ex] - min) & 0xFFFF));
            }
            int up = row - width;
            int down = row + width;
            // C and D of columns x−1 and x, for x = sx + 1
            int a = (in[up + sx] - min) & 0xFFFF;
            int b = (in[row + sx] - min) & 0xFFFF;
            int c = (in[down + sx] - min) & 0xFFFF;
            int c0 = a + b + c;
            int d0 = c - a;
            a = (in[up + sx + 1] - min) & 0xFFFF;
            b = (in[row + sx + 1] - min) & 0xFFFF;
            c = (in[down + sx + 1] - min) & 0xFFFF;
            int c1 = a + b + c;
            int d1 = c - a;
            for (int x = sx + 1; x < ex; x++) {
                a = (in[up + x + 1] - min) & 0xFFFF;
                b = (in[row + x + 1] - min) & 0xFFFF;
                c = (in[down + x + 1] - min) & 0xFFFF;
                int c2 = a + b + c;
                int d2 = c - a;
                int e = Math.max(Math.abs(c2 - c0), Math.abs(d0 + d1 + d2)) / 3;
                out[row + x] = (short) (e + min);
                maxv = Math.max(maxv, e);
                c0 = c1;
                d0 = d1;
                c1 = c2;
                d1 = d2;
            }
        }
        return maxv;
    }

    /** Step 3 on region rows {@code [fromRow, toRow)}; {@code table} may be null (divide per pixel). */
    static void stretch(GrayRaster16 dst, Region region, int maxv, int[] table, int fromRow, int toRow) {
        final short[] out = dst.words();
        final int width = dst.width();
        final int min = dst.minValue();
        final long range = dst.range();
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            for (int i = y * width + region.x(), end = i + region.width(); i < end; i++) {
                int u = (out[i] - min) & 0xFFFF;
                int s = table != null ? table[u] : (int) Math.min(range, u * range / maxv);
                out[i] = (short) (s + min);
            }
        }
    }
}
