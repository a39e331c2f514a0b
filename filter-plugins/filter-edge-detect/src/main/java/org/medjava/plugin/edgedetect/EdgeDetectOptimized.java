package org.medjava.plugin.edgedetect;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;
import org.medjava.filter.VectorSupport;

/**
 * Edge Detect (spec 2.4), hand-optimized; pure integer arithmetic, so any exact rewrite gives identical output.
 * <ul>
 *   <li>Steps 1 and 2 (and the black frame) are fused into one pass that writes the edge magnitudes and tracks
 *       the largest MONO on the way; step 3 is a second pass through a 256-entry table
 *       {@code min(255, v·255/maxv)}, skipped when {@code maxv} is 0 (spec: no rescale) or 255 (identity).</li>
 *   <li>Packed pixels (SWAR): each input row is packed once into longs with R, G, B in 16-bit lanes (three
 *       rolling line buffers). The Prewitt sums are separable and run on all three channels at once:
 *       {@code C = up + mid + down} and {@code D = down − up + 255} per column, then
 *       {@code Gx + 765 = C[x+1] + 765 − C[x−1]} and {@code Gy + 765 = D[x−1] + D[x] + D[x+1]}; every lane stays
 *       in 0..1530, so no borrow crosses a lane. C and D of the right column are the only new values per pixel
 *       (sliding registers).</li>
 *   <li>{@code max(|Gx|, |Gy|) div 3 = max(|Gx| div 3, |Gy| div 3)} (div 3 is monotone), and
 *       {@code |v − 765| div 3} comes from an exact 1531-entry table indexed by the biased lane value.</li>
 *   <li>Parallel: the fused pass runs in bands of written rows, each returning its band maximum; the maxima are
 *       combined (a max-reduction), then the rescale runs in bands.</li>
 *   <li>With the Vector API ({@link EdgeDetectVector}, when the JVM has it): the same separable sums per byte on
 *       short lanes, the division by 3 as a reciprocal multiply on int lanes, MONO across lanes, and the rescale
 *       as a reciprocal multiply on int lanes instead of the table.</li>
 * </ul>
 */
final class EdgeDetectOptimized {
    private static final int MIN_BAND_ROWS = 16;

    private EdgeDetectOptimized() {
    }

    static void apply(Raster src, Raster dst, Region region, boolean blackFrame) {
        apply(src, dst, region, blackFrame, VectorSupport.AVAILABLE);
    }

    /** {@code vector}: use {@link EdgeDetectVector} (tests compare both kernels in one JVM). */
    static void apply(Raster src, Raster dst, Region region, boolean blackFrame, boolean vector) {
        int maxv = edges(src, dst, region, blackFrame, region.y(), region.endY(), vector);
        byte[] lut = stretchTable(maxv);
        if (lut != null) {
            stretch(dst, region, lut, maxv, region.y(), region.endY(), vector);
        }
    }

    static void applyParallel(Raster src, Raster dst, Region region, boolean blackFrame) {
        boolean vector = VectorSupport.AVAILABLE;
        AtomicInteger max = new AtomicInteger();
        RowBands.run(region.y(), region.endY(), MIN_BAND_ROWS, (from, to) -> {
            int bandMax = edges(src, dst, region, blackFrame, from, to, vector);
            max.accumulateAndGet(bandMax, Math::max);
        });
        int maxv = max.get();
        byte[] lut = stretchTable(maxv);
        if (lut != null) {
            RowBands.run(region.y(), region.endY(), MIN_BAND_ROWS,
                    (from, to) -> stretch(dst, region, lut, maxv, from, to, vector));
        }
    }

    /** {@code THIRD_OF_ABS[v] = |v − 765| / 3} for a biased lane value v in 0..1530. */
    static final int[] THIRD_OF_ABS = new int[1531];
    /** 765 and 255 in each 16-bit lane. */
    private static final long BIAS765 = 765L << 32 | 765L << 16 | 765L;
    private static final long BIAS255 = 255L << 32 | 255L << 16 | 255L;

    static {
        for (int v = 0; v <= 1530; v++) {
            THIRD_OF_ABS[v] = Math.abs(v - 765) / 3;
        }
    }

    /**
     * Steps 1 and 2 for the region rows {@code [fromRow, toRow)}: writes the edge magnitudes of interior pixels,
     * zeroes the frame when {@code blackFrame}, and returns the largest MONO of those rows of the output.
     */
    static int edges(Raster src, Raster dst, Region region, boolean blackFrame, int fromRow, int toRow,
                     boolean vector) {
        final byte[] in = src.rgb();
        final byte[] out = dst.rgb();
        final int stride = src.stride();
        final int sy = region.y();
        final int ey = region.endY();
        final int sw = region.width();
        final int n = 3 * sw;
        final int rowStart = 3 * region.x();
        final int first = Math.max(fromRow, sy + 1);  // interior rows of this band: [first, last)
        final int last = Math.min(toRow, ey - 1);
        int max = 0;
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            final int o = y * stride + rowStart;
            if (y < first || y >= last || sw < 3) {
                // a frame row (or a region too narrow for an interior)
                if (blackFrame) {
                    Arrays.fill(out, o, o + n, (byte) 0);
                } else {
                    max = Math.max(max, maxMono(in, o, n));
                }
            } else if (blackFrame) {
                out[o] = 0;
                out[o + 1] = 0;
                out[o + 2] = 0;
                out[o + n - 3] = 0;
                out[o + n - 2] = 0;
                out[o + n - 1] = 0;
            } else {
                max = Math.max(max, Math.max(mono(in, o), mono(in, o + n - 3)));
            }
        }
        if (sw < 3 || first >= last) {
            return max;
        }
        if (vector) {
            int scratch = EdgeDetectVector.scratchLength(sw);
            short[] c = new short[scratch];
            short[] d = new short[scratch];
            short[] e = new short[scratch];
            for (int y = first; y < last; y++) {
                Cancellation.check();
                int o = y * stride + rowStart;
                max = Math.max(max, EdgeDetectVector.interior(in, out, o - stride, o, o + stride, sw, c, d, e));
            }
            return max;
        }
        long[] above = new long[sw];
        long[] here = new long[sw];
        long[] below = new long[sw];
        pack(in, (first - 1) * stride + rowStart, sw, above);
        pack(in, first * stride + rowStart, sw, here);
        final int[] third = THIRD_OF_ABS;
        for (int y = first; y < last; y++) {
            Cancellation.check();
            pack(in, (y + 1) * stride + rowStart, sw, below);
            // per 16-bit lane: C = up + mid + down (0..765), D = down - up + 255 (0..510)
            long c0 = above[0] + here[0] + below[0];
            long d0 = below[0] + BIAS255 - above[0];
            long c1 = above[1] + here[1] + below[1];
            long d1 = below[1] + BIAS255 - above[1];
            for (int i = 1, t = y * stride + rowStart + 3; i < sw - 1; i++, t += 3) {
                long c2 = above[i + 1] + here[i + 1] + below[i + 1];
                long d2 = below[i + 1] + BIAS255 - above[i + 1];
                long gx = c2 + BIAS765 - c0;  // Gx + 765 per lane, 0..1530
                long gy = d0 + d1 + d2;       // Gy + 765 per lane, 0..1530
                int gxLo = (int) gx;
                int gyLo = (int) gy;
                // max(|Gx|, |Gy|) div 3 = max(|Gx| div 3, |Gy| div 3): div 3 is monotone
                int er = Math.max(third[(int) (gx >>> 32)], third[(int) (gy >>> 32)]);
                int eg = Math.max(third[gxLo >>> 16], third[gyLo >>> 16]);
                int eb = Math.max(third[gxLo & 0xFFFF], third[gyLo & 0xFFFF]);
                out[t] = (byte) er;
                out[t + 1] = (byte) eg;
                out[t + 2] = (byte) eb;
                max = Math.max(max, (11 * er + 16 * eg + 5 * eb) >> 5);
                c0 = c1;
                c1 = c2;
                d0 = d1;
                d1 = d2;
            }
            long[] spare = above;
            above = here;
            here = below;
            below = spare;
        }
        return max;
    }

    /** Packs {@code n} pixels from byte {@code o} as R, G, B in the 16-bit lanes 2, 1, 0 of a long. */
    private static void pack(byte[] in, int o, int n, long[] row) {
        for (int i = 0; i < n; i++, o += 3) {
            row[i] = (long) (in[o] & 0xFF) << 32 | (in[o + 1] & 0xFF) << 16 | (in[o + 2] & 0xFF);
        }
    }

    private static int mono(byte[] a, int o) {
        return (11 * (a[o] & 0xFF) + 16 * (a[o + 1] & 0xFF) + 5 * (a[o + 2] & 0xFF)) >> 5;
    }

    private static int maxMono(byte[] a, int o, int n) {
        int max = 0;
        for (int end = o + n; o < end; o += 3) {
            int m = mono(a, o);
            if (m > max) {
                max = m;
            }
        }
        return max;
    }

    /** Step 3 as a table, or null when nothing changes ({@code maxv} 0: no rescale; 255: the identity). */
    static byte[] stretchTable(int maxv) {
        if (maxv == 0 || maxv == 255) {
            return null;
        }
        byte[] lut = new byte[256];
        for (int v = 0; v < 256; v++) {
            lut[v] = (byte) Math.min(255, v * 255 / maxv);
        }
        return lut;
    }

    static void stretch(Raster dst, Region region, byte[] lut, int maxv, int fromRow, int toRow, boolean vector) {
        final byte[] out = dst.rgb();
        final int stride = dst.stride();
        final int n = 3 * region.width();
        if (vector) {
            for (int y = fromRow; y < toRow; y++) {
                Cancellation.check();
                EdgeDetectVector.stretch(out, y * stride + 3 * region.x(), n, maxv);
            }
            return;
        }
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            for (int o = y * stride + 3 * region.x(), end = o + n; o < end; o++) {
                out[o] = lut[out[o] & 0xFF];
            }
        }
    }
}
