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
 *   <li>Scratch: one int per region column and channel per band, O(width).</li>
 *   <li>With the Vector API ({@link BlurVector}, when the JVM has it): the column-sum updates run on whole vectors,
 *       and the interior of each row becomes a direct window sum of {@code n} column sums per byte (no running sum,
 *       so all bytes of a vector are independent) and a 32-bit reciprocal multiply ({@link IntDivision}); border
 *       columns then sum their clipped windows directly. Used for n ≤ 11 (where the 32-bit reciprocal is exact).</li>
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
 * Where the time goes at 4096² (JFR execution samples, vector kernels): the byte-row stores of the output (34%), the
 * byte-row loads of the entering and leaving rows (29%) and the column-sum stores (21%); the arithmetic hardly
 * shows. Blur ÷ copy stays near 4: the benchmark's copy is one read and one write of the image, and the blur does
 * the same read and write plus the column sums, so the issue's ≤ 2 would need the whole blur at copy speed.
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
        final int[] col = new int[len];

        // the 32-bit reciprocals of the vector interior, by row count (null: divide in scalar code)
        final IntDivision[] divisions = vector && n <= MAX_VECTOR_N ? new IntDivision[n + 1] : null;

        int top = Math.max(fromRow - h, sy);
        int bottom = Math.min(fromRow + h, lastRow);
        for (int r = top; r <= bottom; r++) {
            addRow(in, r * stride + rowOffset, col, len, vector);
        }
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            if (y > fromRow) {
                int enter = y + h; // row entering the window
                int leave = y - h - 1; // row leaving it
                if (enter <= lastRow && leave >= sy) {
                    if (vector) {
                        BlurVector.addSubRow(in, enter * stride + rowOffset, leave * stride + rowOffset, col, len);
                    } else {
                        addSubRow(in, enter * stride + rowOffset, leave * stride + rowOffset, col, len);
                    }
                } else if (enter <= lastRow) {
                    addRow(in, enter * stride + rowOffset, col, len, vector);
                } else if (leave >= sy) {
                    if (vector) {
                        BlurVector.subRow(in, leave * stride + rowOffset, col, len);
                    } else {
                        subRow(in, leave * stride + rowOffset, col, len);
                    }
                }
            }
            int rowCount = Math.min(y + h, lastRow) - Math.max(y - h, sy) + 1;
            IntDivision division = null;
            if (divisions != null) { // rowCount is 1..n
                if (divisions[rowCount] == null) {
                    divisions[rowCount] = IntDivision.of(rowCount * n, 255L * rowCount * n);
                }
                division = divisions[rowCount];
            }
            if (division != null) {
                horizontalVector(col, out, y * stride + rowOffset, sw, h, rowCount, division);
            } else {
                horizontal(col, out, y * stride + rowOffset, sw, h, rowCount);
            }
        }
    }

    /** Largest n whose interior division is exact in 32 bits for every row count (IntDivisionTest checks it). */
    static final int MAX_VECTOR_N = 11;

    private static void addRow(byte[] in, int base, int[] col, int len, boolean vector) {
        if (vector) {
            BlurVector.addRow(in, base, col, len);
        } else {
            addRow(in, base, col, len);
        }
    }

    /**
     * One output row from the column sums with the interior on vectors: border columns (clipped windows) sum their
     * windows directly; the interior is {@link BlurVector#interior}, its last few bytes scalar.
     */
    private static void horizontalVector(int[] col, byte[] out, int o, int sw, int h, int rowCount,
                                         IntDivision division) {
        final int last = sw - 1;
        final int leftEnd = Math.min(h, sw);
        final int midEnd = Math.max(leftEnd, sw - h);
        for (int i = 0; i < leftEnd; i++) {
            borderPixel(col, out, o, i, Math.max(i - h, 0), Math.min(i + h, last), rowCount);
        }
        for (int i = midEnd; i < sw; i++) {
            borderPixel(col, out, o, i, Math.max(i - h, 0), Math.min(i + h, last), rowCount);
        }
        int j = BlurVector.interior(col, out, o, 3 * leftEnd, 3 * midEnd, h, division.multiplier(),
                division.shift());
        for (int end = 3 * midEnd; j < end; j++) {
            int sum = 0;
            for (int d = -h; d <= h; d++) {
                sum += col[j + 3 * d];
            }
            out[o + j] = (byte) division.divide(sum);
        }
    }

    /** Pixel {@code i} of the row from its window columns {@code [c0, c1]}, by direct sums and divisions. */
    private static void borderPixel(int[] col, byte[] out, int o, int i, int c0, int c1, int rowCount) {
        int count = rowCount * (c1 - c0 + 1);
        int s0 = 0;
        int s1 = 0;
        int s2 = 0;
        for (int c = c0; c <= c1; c++) {
            s0 += col[3 * c];
            s1 += col[3 * c + 1];
            s2 += col[3 * c + 2];
        }
        out[o + 3 * i] = (byte) (s0 / count);
        out[o + 3 * i + 1] = (byte) (s1 / count);
        out[o + 3 * i + 2] = (byte) (s2 / count);
    }

    private static void addRow(byte[] in, int base, int[] col, int len) {
        for (int k = 0; k < len; k++) {
            col[k] += in[base + k] & 0xFF;
        }
    }

    private static void subRow(byte[] in, int base, int[] col, int len) {
        for (int k = 0; k < len; k++) {
            col[k] -= in[base + k] & 0xFF;
        }
    }

    private static void addSubRow(byte[] in, int addBase, int subBase, int[] col, int len) {
        for (int k = 0; k < len; k++) {
            col[k] += (in[addBase + k] & 0xFF) - (in[subBase + k] & 0xFF);
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
