package org.medjava.plugin.emboss;

import java.util.Arrays;
import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;
import org.medjava.filter.VectorSupport;

/**
 * Emboss (spec 2.5), hand-optimized; pure integer arithmetic, so any exact rewrite gives identical output.
 * <ul>
 *   <li>The three steps are fused into one pass: frame pixels are written as 128 directly (MONO(128,128,128) is
 *       128), interior pixels get MONO of their three channels computed in registers.</li>
 *   <li>Packed pixels (SWAR): each input row is packed once into longs with R, G, B in 16-bit lanes (three
 *       rolling line buffers), and the kernel runs on all three channels at once with a per-lane bias of 1020
 *       so no lane goes negative: 6 long loads per pixel instead of 18 byte loads; the lanes are then
 *       unpacked with shifts and masks.</li>
 *   <li>{@code 128 + S/8} (either rounding) comes from an exact 2041-entry table indexed directly by the
 *       biased lane value, so neither a division nor an unbiasing subtraction is left per channel.</li>
 *   <li>The clamp to 0..255 is dropped: |S| ≤ 1020, so 128 + T stays in 0..255 for both roundings.</li>
 *   <li>The rounding mode only selects the table.</li>
 *   <li>Parallel: bands of written rows (every region row is written).</li>
 *   <li>With the Vector API ({@link EmbossVector}, when the JVM has it): the kernel on 16-bit lanes per byte, and
 *       MONO in the same registers through lane shuffles (512-bit vectors) or through a scratch row with shifted
 *       loads and blends; the packed scalar rows are not needed then.</li>
 * </ul>
 */
final class EmbossOptimized {
    private static final int MIN_BAND_ROWS = 16;

    private EmbossOptimized() {
    }

    static void apply(Raster src, Raster dst, Region region, boolean floorRounding) {
        rows(src, dst, region, floorRounding, region.y(), region.endY(), VectorSupport.AVAILABLE);
    }

    static void applyParallel(Raster src, Raster dst, Region region, boolean floorRounding) {
        RowBands.run(region.y(), region.endY(), MIN_BAND_ROWS,
                (from, to) -> rows(src, dst, region, floorRounding, from, to, VectorSupport.AVAILABLE));
    }

    /** 1020 in each 16-bit lane: keeps every lane of the packed kernel sum non-negative. */
    private static final long BIAS = 1020L << 32 | 1020L << 16 | 1020L;

    /** {@code CHANNEL_XV[S + 1020] = 128 + S / 8} (Java's {@code /} truncates toward zero, like C's). */
    static final int[] CHANNEL_XV = new int[2041];
    /** {@code CHANNEL_FLOOR[S + 1020] = 128 + floor(S / 8)}. */
    static final int[] CHANNEL_FLOOR = new int[2041];

    static {
        for (int s = -1020; s <= 1020; s++) {
            CHANNEL_XV[s + 1020] = 128 + s / 8;
            CHANNEL_FLOOR[s + 1020] = 128 + Math.floorDiv(s, 8);
        }
    }

    /**
     * All three steps for the region rows {@code [fromRow, toRow)}; {@code vector}: interior rows with
     * {@link EmbossVector} (tests compare both kernels in one JVM).
     */
    static void rows(Raster src, Raster dst, Region region, boolean floorRounding, int fromRow, int toRow,
                     boolean vector) {
        rows(src, dst, region, floorRounding, fromRow, toRow, vector, vector && EmbossVector.SHUFFLES_PAY);
    }

    /** {@code shuffles}: MONO by lane shuffles, else through a scratch row (tests run both; see EmbossVector). */
    static void rows(Raster src, Raster dst, Region region, boolean floorRounding, int fromRow, int toRow,
                     boolean vector, boolean shuffles) {
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
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            if (y < first || y >= last || sw < 3) {
                int o = y * stride + rowStart;
                Arrays.fill(out, o, o + n, (byte) 128);
            }
        }
        if (sw < 3 || first >= last) {
            return;
        }
        if (vector) {
            short[] c = shuffles ? null : new short[EmbossVector.scratchLength(sw)];
            short[] q = shuffles ? null : new short[c.length];
            for (int y = first; y < last; y++) {
                Cancellation.check();
                final int o = y * stride + rowStart;
                fillPixel(out, o);
                if (shuffles) {
                    EmbossVector.interiorShuffled(in, out, o - stride, o, o + stride, sw, floorRounding);
                } else {
                    EmbossVector.interiorScratch(in, out, o - stride, o, o + stride, sw, floorRounding, c, q);
                }
                fillPixel(out, o + n - 3);
            }
            return;
        }
        final int[] channel = floorRounding ? CHANNEL_FLOOR : CHANNEL_XV;
        long[] above = new long[sw];
        long[] here = new long[sw];
        long[] below = new long[sw];
        pack(in, (first - 1) * stride + rowStart, sw, above);
        pack(in, first * stride + rowStart, sw, here);
        for (int y = first; y < last; y++) {
            Cancellation.check();
            pack(in, (y + 1) * stride + rowStart, sw, below);
            final int o = y * stride + rowStart;
            out[o] = (byte) 128;
            out[o + 1] = (byte) 128;
            out[o + 2] = (byte) 128;
            interior(above, here, below, out, o, sw, channel);
            out[o + n - 3] = (byte) 128;
            out[o + n - 2] = (byte) 128;
            out[o + n - 1] = (byte) 128;
            long[] spare = above;
            above = here;
            here = below;
            below = spare;
        }
    }

    private static void fillPixel(byte[] out, int o) {
        out[o] = (byte) 128;
        out[o + 1] = (byte) 128;
        out[o + 2] = (byte) 128;
    }

    /** Packs {@code n} pixels from byte {@code o} as R, G, B in the 16-bit lanes 2, 1, 0 of a long. */
    private static void pack(byte[] in, int o, int n, long[] row) {
        for (int i = 0; i < n; i++, o += 3) {
            row[i] = (long) (in[o] & 0xFF) << 32 | (in[o + 1] & 0xFF) << 16 | (in[o + 2] & 0xFF);
        }
    }

    /**
     * The kernel on all three channels at once: {@code (2·P(+1,+1) + P(0,+1) + P(+1,0) + 1020) −
     * (2·P(−1,−1) + P(0,−1) + P(−1,0))} per 16-bit lane; each lane stays in 0..2040, so no borrow crosses a lane.
     * {@code channel[lane]} is {@code 128 + T} for {@code S = lane − 1020}, then MONO.
     */
    private static void interior(long[] a, long[] b, long[] c, byte[] out, int o, int sw, int[] channel) {
        for (int i = 1, t = o + 3; i < sw - 1; i++, t += 3) {
            long x = (2 * c[i + 1] + c[i] + b[i + 1] + BIAS) - (2 * a[i - 1] + a[i] + b[i - 1]);
            int r = channel[(int) (x >>> 32)];
            int g = channel[(int) x >>> 16];
            int bl = channel[(int) x & 0xFFFF];
            byte v = (byte) ((11 * r + 16 * g + 5 * bl) >> 5);
            out[t] = v;
            out[t + 1] = v;
            out[t + 2] = v;
        }
    }
}
