package org.medjava.plugin.spread;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.medjava.filter.Cancellation;
import org.medjava.filter.Extent;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

/**
 * Spread, hand-optimized; identical to {@link SpreadStraightforward}: the same draws in the same order, the same
 * targets, the same swaps in the same order. Only work whose result is known is skipped.
 *
 * <ul>
 *   <li>Two passes per row: first every target of the row (they depend only on the draws and coordinates), then
 *       the swaps in raster order, a tight loop of loads and stores. The swaps' scattered memory accesses are
 *       the real cost of Spread; separating them from the arithmetic lets the CPU overlap more of them.</li>
 *   <li>The two draws of every pixel of a row come from one {@link Xvr#next(int[], int)} call into an O(width)
 *       buffer (a tight loop instead of a call per draw).</li>
 *   <li>Interior fast path: where the window cannot reach the region's border, nothing is clipped, so the
 *       max/min are gone and every range is known in advance: x ranges over {@code 2a+1} columns; in diamond
 *       mode, the y range for the drawn column offset t has {@code 2r+1} rows with {@code r = d − |t − d|},
 *       looked up per t. Border pixels take the general path.</li>
 *   <li>{@code R mod m} on the fast path is {@code R − q·m} with {@code q = (R·M) >>> S}, {@code M = ceil(2^S/m)},
 *       {@code S = 31 + ceil(log2 m)}: exact for every R in 0..2^31−1 (see {@link #quotient}). On the 2-core
 *       AMD Zen 4 used for measuring it ties with {@code %} (fast hardware division); it pays on CPUs with slow
 *       division.</li>
 *   <li>The targets are pixel indices, so 8-bit RGB and grey rasters share them; only the swap loop knows the
 *       pixel layout (three bytes, or one 16-bit word).</li>
 *   <li>An 8-bit pixel is swapped as a 16-bit word (bytes 0–1, through a little-endian byte-array view) and a byte:
 *       four loads and four stores instead of six and six. Every access to a pixel has the same shape (word at
 *       {@code 3k}, byte at {@code 3k+2}), so a load that meets an earlier swap's store is forwarded whole. JDK 17,
 *       medians of 3 forks × 5 iterations: 8.97 → 7.78 ms at 1024², 151 → 140 ms at 4096².</li>
 *   <li>The draws are read straight from the generator's word buffer ({@link Xvr#words}), shifted where used:
 *       no copy of each draw into a second buffer. Diamond targets add a per-column offset (top cell of the
 *       column relative to the pixel) instead of recomputing it from the radius.</li>
 * </ul>
 * With the last three, Java ÷ C {@code -O3 -march=native} (each measured in one JMH run with the C port) went on
 * JDK 17 from 1.14 (1024²) and 1.11 (4096²) to 0.93 and 0.98 (means; medians 1.09 and 0.98 before, 0.93 and 1.02
 * after), on JDK 25 from 1.03 and 0.94 to 0.92 and 0.86. Repeated while other processes loaded the machine, the same
 * code gave 0.98–1.09 (1024²) and 1.01–1.11 (4096²), with one JVM fork of three at 4096² about 25% slower than
 * the other two: Java and C are at parity within this machine's noise, not reliably below it.
 *
 * <p>Measured and not kept: one pass per row (each target swapped as soon as it is computed, as the C port does):
 * 11.0 against 8.5 ms at 1024² and 170 against 145 ms at 4096² (JDK 17, medians of 2 forks × 5 iterations).
 */
final class SpreadOptimized {
    private SpreadOptimized() {
    }

    /** Shift S for divisor m: 31 + ceil(log2 m). */
    static int shift(int m) {
        return 31 + (32 - Integer.numberOfLeadingZeros(m - 1));
    }

    /** Multiplier M for divisor m: ceil(2^S / m). */
    static long multiplier(int m) {
        return ((1L << shift(m)) + m - 1) / m;
    }

    /**
     * {@code r / m} for {@code 0 ≤ r < 2^31}, {@code 1 ≤ m ≤ 2^30}. With {@code 2^L ≥ m}, {@code S = 31 + L},
     * {@code e = M·m − 2^S < m ≤ 2^L}: {@code r·e < 2^31·2^L = 2^S}, so {@code r·M / 2^S = q + (rem + r·e/2^S)/m}
     * has the floor q (the same argument as the blur reciprocal). And {@code M ≤ 2^32} (for m ≥ 2,
     * {@code m > 2^(L−1)} gives {@code M < 2^32 + 1}; for m = 1, M = 2^31), so {@code r·M ≤ (2^31−1)·2^32 < 2^63}.
     * SpreadOptimizedTest checks every divisor the fast path can meet (1..2·65535+1).
     */
    static int quotient(int r, long multiplier, int shift) {
        return (int) ((r * multiplier) >>> shift);
    }

    /** The swaps of one region row, given the pixel index of every pixel's target. */
    @FunctionalInterface
    private interface RowSwaps {
        void swap(int firstPixel, int[] target, int count);
    }

    /** Bytes 0–1 of an 8-bit pixel as one little-endian word. */
    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class,
            ByteOrder.LITTLE_ENDIAN);

    static void apply(Raster src, Raster dst, Region region, SpreadArgs args) {
        final byte[] p = dst.rgb();
        run(dst.width(), region, args.distance(), args.seed(), (first, target, count) -> {
            for (int i = 3 * first, k = 0; k < count; k++, i += 3) {
                int j = 3 * target[k];
                short a01 = (short) SHORTS.get(p, i);
                byte a2 = p[i + 2];
                SHORTS.set(p, i, (short) SHORTS.get(p, j));
                p[i + 2] = p[j + 2];
                SHORTS.set(p, j, a01);
                p[j + 2] = a2;
            }
        });
    }

    /** On grey data (docs/xv-filters-16bit.md 2.8): the same targets, whole words swapped. */
    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, SpreadArgs args) {
        final short[] p = dst.words();
        run(dst.width(), region, args.distance(), args.seed(), (first, target, count) -> {
            for (int i = first, k = 0; k < count; k++, i++) {
                int j = target[k];
                short t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
        });
    }

    private static void run(int width, Region region, Extent distance, int seed, RowSwaps swaps) {
        final boolean box = distance.pair();
        final int a = distance.a();
        final int b = distance.b();
        if (a == 0 && b == 0) {
            return; // "0" and "0x0": every target is the pixel itself
        }
        final int sx = region.x();
        final int sy = region.y();
        final int ex = region.endX() - 1;
        final int ey = region.endY() - 1;
        final int sw = region.width();
        final Xvr rng = new Xvr(seed);
        final int[] target = new int[sw];

        // interior: columns [ix0, ix1] and rows [iy0, iy1] whose window lies inside the region
        final int ix0 = sx + a;
        final int ix1 = ex - a;
        final int iy0 = sy + b;
        final int iy1 = ey - b;
        final boolean interior = ix0 <= ix1 && iy0 <= iy1; // then 2a+1 ≤ sw and 2b+1 ≤ region height
        final int mx = 2 * a + 1;
        final long mulX = multiplier(mx);
        final int shX = shift(mx);
        final int my = 2 * b + 1; // box mode
        final long mulY = multiplier(my);
        final int shY = shift(my);
        // diamond mode, per drawn column offset t = x1 − x + d: the pixel-index offset of the column's top cell
        // (y1 = y − r, x1 = x − d + t for the remaining radius r), the column's range and its reciprocal
        int[] offset = null;
        int[] range = null;
        long[] mul = null;
        int[] sh = null;
        if (interior && !box) {
            offset = new int[mx];
            range = new int[mx];
            mul = new long[mx];
            sh = new int[mx];
            for (int t = 0; t < mx; t++) {
                int r = a - Math.abs(t - a);
                offset[t] = -r * width - a + t;
                range[t] = 2 * r + 1;
                mul[t] = multiplier(2 * r + 1);
                sh[t] = shift(2 * r + 1);
            }
        }

        for (int y = sy; y <= ey; y++) {
            Cancellation.check();
            final int[] w = rng.words(2 * sw); // draw k of the row is w[31 + k] >>> 1
            // pass 1: every target of the row (they depend on the draws only, not on pixel values)
            if (!interior || y < iy0 || y > iy1) {
                for (int x = sx, k = 31; x <= ex; x++, k += 2) {
                    target[x - sx] = general(width, sx, sy, ex, ey, a, b, box, x, y, w[k] >>> 1, w[k + 1] >>> 1);
                }
            } else {
                int k = 31;
                for (int x = sx; x < ix0; x++, k += 2) {
                    target[x - sx] = general(width, sx, sy, ex, ey, a, b, box, x, y, w[k] >>> 1, w[k + 1] >>> 1);
                }
                if (box) {
                    final int base = (y - b) * width - a;
                    for (int x = ix0; x <= ix1; x++, k += 2) {
                        int r1 = w[k] >>> 1;
                        int r2 = w[k + 1] >>> 1;
                        int tx = r1 - quotient(r1, mulX, shX) * mx; // x1 = x − A + tx
                        int ty = r2 - quotient(r2, mulY, shY) * my; // y1 = y − B + ty
                        target[x - sx] = base + ty * width + x + tx;
                    }
                } else {
                    for (int x = ix0; x <= ix1; x++, k += 2) {
                        int r1 = w[k] >>> 1;
                        int r2 = w[k + 1] >>> 1;
                        int t = r1 - quotient(r1, mulX, shX) * mx; // x1 = x − d + t
                        int ty = r2 - quotient(r2, mul[t], sh[t]) * range[t]; // y1 = y − r + ty
                        target[x - sx] = y * width + x + offset[t] + ty * width;
                    }
                }
                for (int x = ix1 + 1; x <= ex; x++, k += 2) {
                    target[x - sx] = general(width, sx, sy, ex, ey, a, b, box, x, y, w[k] >>> 1, w[k + 1] >>> 1);
                }
            }
            // pass 2: the swaps, in raster order
            swaps.swap(y * width + sx, target, sw);
        }
    }

    /** The pixel index of the target of pixel (x, y), its window clipped to the region as in the spec. */
    private static int general(int width, int sx, int sy, int ex, int ey, int a, int b, boolean box,
                                int x, int y, int r1, int r2) {
        int xlo = Math.max(x - a, sx);
        int xhi = Math.min(x + a, ex);
        int x1 = xlo + r1 % (xhi - xlo + 1);
        int ylo = Math.max(y - b, sy);
        int yhi = Math.min(y + b, ey);
        if (!box) {
            int r = a - Math.abs(x1 - x);
            ylo = Math.max(ylo, y - r);
            yhi = Math.min(yhi, y + r);
        }
        int y1 = ylo + r2 % (yhi - ylo + 1);
        return y1 * width + x1;
    }
}
