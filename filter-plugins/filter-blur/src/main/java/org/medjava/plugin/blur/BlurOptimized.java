package org.medjava.plugin.blur;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;
import org.medjava.filter.VectorSupport;

/**
 * Blur with running sums, O(1) per pixel whatever n is. Identical to {@link BlurStraightforward} because the
 * integer sums are exact and every pixel keeps its own count and truncating division (spec 2.1 [proposal]).
 *
 * <ul>
 *   <li>Separable sums: {@code col[3i+c]} holds the sum of column {@code sx+i}, channel c, over the rows of the
 *       current (clipped) window. Going one row down adds the entering row and subtracts the leaving one: two
 *       sequential passes over byte rows, no per-pixel window loop.</li>
 *   <li>A horizontal running sum over {@code col} then gives each window sum with one add and one subtract per
 *       channel. Border columns (clipped window) and the interior run are separate loops, so the interior loop
 *       has no range checks of its own.</li>
 *   <li>Interior division by the constant count {@code d = rows·n} is a multiply by {@code m = ceil(2^40 / d)}
 *       and a shift: exact for every sum {@code 0 ≤ x ≤ 255·d} and every {@code d ≤ 255²} (see {@link #divide}).
 *       Border pixels divide directly.</li>
 *   <li>Scratch: one int (a short on vectors, below) per region column and channel per band, O(width).</li>
 *   <li>With the Vector API ({@link BlurVector}, when the JVM has it) and n ≤ 11: the column sums are 16-bit lanes
 *       ({@code 255·n·n < 2^15}), so a vector update covers twice the bytes of an int one and the sums take half
 *       the cache; the interior of each row becomes a direct window sum of {@code n} column sums per byte (no
 *       running sum, so all bytes of a vector are independent), widened to ints for a 32-bit reciprocal multiply
 *       ({@link IntDivision}); border columns sum their clipped windows directly. Larger n keeps int sums, updated
 *       on vectors, with the scalar output.</li>
 * </ul>
 *
 * <p>The parallel version runs the same kernel over bands of written rows; each band builds its own column sums
 * from the rows above its first row (reading src inside the region only).
 *
 * <p>Measured and not kept (JMH, JDK 17, 2 forks × 5 iterations, means, the benchmark's copy + blur of noise):
 * <ul>
 *   <li>rows bottom-up, so that the first rows read are the ones the preceding copy left in the cache: 0.83 against
 *       0.72 ms at 1024², 19.9 against 19.6 ms at 4096² (no gain);</li>
 *   <li>for n = 3, the column-sum update and the interior output in one pass (each vector's output right behind
 *       its column update, while the column sums are in L1): 2.56 against 0.75 ms at 1024² and 39.7 against 19.7 ms
 *       at 4096² — the JIT's code for that loop was far slower than for the two simple loops.</li>
 * </ul>
 * 16-bit column sums against the int ones they replaced (JMH, the benchmark's copy + blur, n = 3, three alternating
 * runs on the quiet machine): JDK 17 0.66–0.69 against 0.69–0.85 ms at 1024², 19.6–22.1 against 21.2–24.1 ms at
 * 4096²; JDK 25 0.67–0.72 against 0.83 ms and 16.3–17.1 against 18.8–19.2 ms. At 1024² the image is in the cache and
 * the copy takes 0.07 ms, so the blur is bound by its vector operations (about 48 per 64 bytes: widening, the
 * column updates, the window sums, the widening to ints for the reciprocal multiply, the narrowing back); the
 * issue's ≤ 2× the copy would need the blur at the speed of a cached copy. Widening half-width short sums whole
 * instead of a full vector's two halves (part 1 is slow on JDK 17): thread CPU time 0.68 → 0.50 ms at 1024² on
 * JDK 17, 0.54–0.57 → 0.47–0.53 ms on JDK 25 (best of 300 calls, loaded machine; see CHANGELOG, issue 35).
 */
final class BlurOptimized {
    /** Shift of the reciprocal multiply. */
    static final int SHIFT = 40;
    /** Below this many region pixels per band, splitting costs more than it saves. */
    private static final int MIN_BAND_PIXELS = 1 << 15;

    private BlurOptimized() {
    }

    /** The multiplier that turns {@code x / d} into {@code (x * m) >>> SHIFT}: {@code ceil(2^SHIFT / d)}. */
    static long reciprocal(int d) {
        return ((1L << SHIFT) + d - 1) / d;
    }

    /**
     * {@code x / d} for {@code 0 ≤ x ≤ 255·d}, {@code 1 ≤ d ≤ 255·255}, given {@code m = reciprocal(d)}.
     *
     * <p>Why it is exact: let {@code e = m·d − 2^40}, so {@code 0 ≤ e < d}, and write {@code x = q·d + r} with
     * {@code 0 ≤ r < d}. Then {@code x·m / 2^40 = q + (r + x·e / 2^40) / d}. Since
     * {@code x·e ≤ 255·d·(d − 1) ≤ 255·65025·65024 < 2^40}, the fraction {@code x·e / 2^40} is below 1, so
     * {@code r + x·e/2^40 < d} and the floor is q. {@code x·m < 256·2^40} fits a long. BlurReciprocalTest checks
     * the bound for every d, and both ends of every quotient's range for every d.
     */
    static int divide(int x, long m) {
        return (int) ((x * m) >>> SHIFT);
    }

    static void apply(Raster src, Raster dst, Region region, int n, boolean parallel) {
        apply(src, dst, region, n, parallel, VectorSupport.AVAILABLE);
    }

    /** {@code vector}: use {@link BlurVector} (tests compare both kernels in one JVM). */
    static void apply(Raster src, Raster dst, Region region, int n, boolean parallel, boolean vector) {
        if (n == 1) {
            return; // identity: dst already is a copy of src
        }
        byte[] in = src.rgb();
        byte[] out = dst.rgb();
        int width = src.width();
        int sx = region.x();
        int sy = region.y();
        int sw = region.width();
        int sh = region.height();
        if (parallel) {
            int minRows = Math.max(1, MIN_BAND_PIXELS / sw);
            RowBands.run(sy, sy + sh, minRows,
                    (from, to) -> rows(in, out, width, sx, sy, sw, sh, n, from, to, vector));
        } else {
            rows(in, out, width, sx, sy, sw, sh, n, sy, sy + sh, vector);
        }
    }

    /** Blurs region rows {@code [fromRow, toRow)}. */
    static void rows(byte[] in, byte[] out, int width, int sx, int sy, int sw, int sh, int n,
                     int fromRow, int toRow, boolean vector) {
        final int h = n >> 1;
        final int stride = 3 * width;
        final int len = 3 * sw;
        final int lastRow = sy + sh - 1;
        final int rowOffset = 3 * sx; // offset of the region's first byte within a row
        final ColumnSums col = !vector ? new IntColumnSums(len, sw, h)
                : n <= MAX_VECTOR_N ? new BlurVector.ShortSums(len, sw, n) : new BlurVector.IntSums(len, sw, h);

        int top = Math.max(fromRow - h, sy);
        int bottom = Math.min(fromRow + h, lastRow);
        for (int r = top; r <= bottom; r++) {
            col.add(in, r * stride + rowOffset);
        }
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            if (y > fromRow) {
                int enter = y + h; // row entering the window
                int leave = y - h - 1; // row leaving it
                if (enter <= lastRow && leave >= sy) {
                    col.addSub(in, enter * stride + rowOffset, leave * stride + rowOffset);
                } else if (enter <= lastRow) {
                    col.add(in, enter * stride + rowOffset);
                } else if (leave >= sy) {
                    col.sub(in, leave * stride + rowOffset);
                }
            }
            int rowCount = Math.min(y + h, lastRow) - Math.max(y - h, sy) + 1;
            col.output(out, y * stride + rowOffset, rowCount);
        }
    }

    /**
     * Largest n whose window sums fit a short lane ({@code 255·n·n < 2^15}) and whose interior division is exact in
     * 32 bits for every row count (BlurVectorTest checks it): the range of {@link BlurVector.ShortSums}.
     */
    static final int MAX_VECTOR_N = 11;

    /**
     * The column sums of one band's current window, per region byte, and the output rows made from them. One row
     * down is {@link #addSub} (or {@link #add} / {@link #sub} where the window is clipped).
     */
    interface ColumnSums {
        void add(byte[] in, int base);

        void sub(byte[] in, int base);

        void addSub(byte[] in, int addBase, int subBase);

        /** Writes the output row at {@code out[o..]} from the sums; {@code rowCount} rows are in the window. */
        void output(byte[] out, int o, int rowCount);
    }

    /** Int column sums with scalar loops, and {@link #horizontal} running sums for the output. */
    static class IntColumnSums implements ColumnSums {
        final int[] col;
        final int len;
        private final int sw;
        private final int h;

        IntColumnSums(int len, int sw, int h) {
            this.col = new int[len];
            this.len = len;
            this.sw = sw;
            this.h = h;
        }

        @Override
        public void add(byte[] in, int base) {
            for (int k = 0; k < len; k++) {
                col[k] += in[base + k] & 0xFF;
            }
        }

        @Override
        public void sub(byte[] in, int base) {
            for (int k = 0; k < len; k++) {
                col[k] -= in[base + k] & 0xFF;
            }
        }

        @Override
        public void addSub(byte[] in, int addBase, int subBase) {
            for (int k = 0; k < len; k++) {
                col[k] += (in[addBase + k] & 0xFF) - (in[subBase + k] & 0xFF);
            }
        }

        @Override
        public void output(byte[] out, int o, int rowCount) {
            horizontal(col, out, o, sw, h, rowCount);
        }
    }

    /**
     * One output row from the column sums: window columns {@code [max(i−h, 0), min(i+h, sw−1)]} of the region,
     * count {@code rowCount · columns}.
     */
    private static void horizontal(int[] col, byte[] out, int o, int sw, int h, int rowCount) {
        final int last = sw - 1;
        int s0 = 0;
        int s1 = 0;
        int s2 = 0;
        for (int j = 0, end = 3 * Math.min(h, last); j <= end; j += 3) {
            s0 += col[j];
            s1 += col[j + 1];
            s2 += col[j + 2];
        }
        // columns whose window is clipped on the left (and maybe the right): i < h
        int i = 0;
        int leftEnd = Math.min(h, sw);
        for (; i < leftEnd; i++) {
            int count = rowCount * (Math.min(i + h, last) + 1);
            int j = 3 * i;
            out[o + j] = (byte) (s0 / count);
            out[o + j + 1] = (byte) (s1 / count);
            out[o + j + 2] = (byte) (s2 / count);
            if (i + h + 1 <= last) {
                int a = 3 * (i + h + 1);
                s0 += col[a];
                s1 += col[a + 1];
                s2 += col[a + 2];
            }
        }
        // interior run: full-width window [i−h, i+h], constant count, reciprocal multiply
        int midEnd = sw - h; // i + h ≤ last
        if (i < midEnd) {
            long m = reciprocal(rowCount * (2 * h + 1));
            int enter = 3 * (i + h + 1);
            int leave = 3 * (i - h);
            int j = 3 * i;
            int jEnd = 3 * (midEnd - 1);
            // all but the last interior column: after writing, slide right
            for (; j < jEnd; j += 3, enter += 3, leave += 3) {
                out[o + j] = (byte) divide(s0, m);
                out[o + j + 1] = (byte) divide(s1, m);
                out[o + j + 2] = (byte) divide(s2, m);
                s0 += col[enter] - col[leave];
                s1 += col[enter + 1] - col[leave + 1];
                s2 += col[enter + 2] - col[leave + 2];
            }
            // the last interior column: write, then only the left column leaves
            out[o + j] = (byte) divide(s0, m);
            out[o + j + 1] = (byte) divide(s1, m);
            out[o + j + 2] = (byte) divide(s2, m);
            s0 -= col[leave];
            s1 -= col[leave + 1];
            s2 -= col[leave + 2];
            i = midEnd;
        }
        // columns whose window is clipped on the right only: i ≥ max(h, sw − h)
        for (; i < sw; i++) {
            int count = rowCount * (last - (i - h) + 1);
            int j = 3 * i;
            out[o + j] = (byte) (s0 / count);
            out[o + j + 1] = (byte) (s1 / count);
            out[o + j + 2] = (byte) (s2 / count);
            int a = 3 * (i - h);
            s0 -= col[a];
            s1 -= col[a + 1];
            s2 -= col[a + 2];
        }
    }
}
