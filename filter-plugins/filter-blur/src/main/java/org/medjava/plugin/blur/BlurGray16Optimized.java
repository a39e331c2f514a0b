package org.medjava.plugin.blur;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * Blur on grey data with running sums, O(1) per pixel whatever n is; the same structure as {@link BlurOptimized}
 * on one channel of offset values {@code u = (word − min) & 0xFFFF}:
 *
 * <ul>
 *   <li>Column sums {@code col[i]} over the rows of the current clipped window, moved one row down by adding the
 *       entering row and subtracting the leaving one (an int holds {@code 255 · 65535}).</li>
 *   <li>A horizontal running sum over {@code col}, in a long (a 255×255 window of 65535 exceeds 2^31); border
 *       columns and the interior run are separate loops.</li>
 *   <li>The interior's division by the constant count is an exact multiply and shift ({@link LongDivision}) when
 *       one exists for that count (every count up to about 46000); border pixels divide directly.</li>
 *   <li>Scratch: one int per region column per band.</li>
 * </ul>
 *
 * <p>The parallel version runs the same kernel over bands of written rows; each band builds its own column sums
 * from the rows above its first row.
 */
final class BlurGray16Optimized {
    /** Below this many region pixels per band, splitting costs more than it saves. */
    private static final int MIN_BAND_PIXELS = 1 << 15;

    private BlurGray16Optimized() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int n, boolean parallel) {
        if (n == 1) {
            return; // identity: dst already is a copy of src
        }
        short[] in = src.words();
        short[] out = dst.words();
        int width = src.width();
        int min = src.minValue();
        int range = src.range();
        int sy = region.y();
        int sh = region.height();
        if (parallel) {
            int minRows = Math.max(1, MIN_BAND_PIXELS / region.width());
            RowBands.run(sy, sy + sh, minRows, (from, to) -> rows(in, out, width, region, n, min, range, from, to));
        } else {
            rows(in, out, width, region, n, min, range, sy, sy + sh);
        }
    }

    /** Blurs region rows {@code [fromRow, toRow)}. */
    static void rows(short[] in, short[] out, int width, Region region, int n, int min, int range, int fromRow,
                     int toRow) {
        final int h = n >> 1;
        final int sx = region.x();
        final int sy = region.y();
        final int sw = region.width();
        final int lastRow = region.endY() - 1;
        final int[] col = new int[sw];
        final LongDivision[] divisions = new LongDivision[n + 1]; // by row count; null entries: not yet made
        final boolean[] made = new boolean[n + 1];

        for (int r = Math.max(fromRow - h, sy), bottom = Math.min(fromRow + h, lastRow); r <= bottom; r++) {
            add(in, r * width + sx, col, sw, min);
        }
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            if (y > fromRow) {
                int enter = y + h;
                int leave = y - h - 1;
                if (enter <= lastRow && leave >= sy) {
                    addSub(in, enter * width + sx, leave * width + sx, col, sw, min);
                } else if (enter <= lastRow) {
                    add(in, enter * width + sx, col, sw, min);
                } else if (leave >= sy) {
                    sub(in, leave * width + sx, col, sw, min);
                }
            }
            int rowCount = Math.min(y + h, lastRow) - Math.max(y - h, sy) + 1;
            if (!made[rowCount]) {
                int d = rowCount * (2 * h + 1);
                divisions[rowCount] = LongDivision.of(d, (long) range * d);
                made[rowCount] = true;
            }
            horizontal(col, out, y * width + sx, sw, h, rowCount, min, divisions[rowCount]);
        }
    }

    private static void add(short[] in, int base, int[] col, int len, int min) {
        for (int k = 0; k < len; k++) {
            col[k] += (in[base + k] - min) & 0xFFFF;
        }
    }

    private static void sub(short[] in, int base, int[] col, int len, int min) {
        for (int k = 0; k < len; k++) {
            col[k] -= (in[base + k] - min) & 0xFFFF;
        }
    }

    private static void addSub(short[] in, int addBase, int subBase, int[] col, int len, int min) {
        for (int k = 0; k < len; k++) {
            col[k] += ((in[addBase + k] - min) & 0xFFFF) - ((in[subBase + k] - min) & 0xFFFF);
        }
    }

    /**
     * One output row from the column sums: window columns {@code [max(i−h, 0), min(i+h, sw−1)]} of the region,
     * count {@code rowCount · columns}; {@code division} divides by the interior count, or is null.
     */
    private static void horizontal(int[] col, short[] out, int o, int sw, int h, int rowCount, int min,
                                   LongDivision division) {
        final int last = sw - 1;
        long s = 0;
        for (int j = 0, end = Math.min(h, last); j <= end; j++) {
            s += col[j];
        }
        // columns whose window is clipped on the left (and maybe the right): i < h
        int i = 0;
        for (int leftEnd = Math.min(h, sw); i < leftEnd; i++) {
            out[o + i] = (short) (s / (rowCount * (Math.min(i + h, last) + 1)) + min);
            if (i + h + 1 <= last) {
                s += col[i + h + 1];
            }
        }
        // interior run: full window [i−h, i+h], constant count
        int midEnd = sw - h; // i + h ≤ last
        if (i < midEnd) {
            int count = rowCount * (2 * h + 1);
            for (; i < midEnd - 1; i++) {
                out[o + i] = (short) ((division != null ? division.divide(s) : s / count) + min);
                s += col[i + h + 1] - col[i - h];
            }
            out[o + i] = (short) ((division != null ? division.divide(s) : s / count) + min);
            s -= col[i - h];
            i = midEnd;
        }
        // columns whose window is clipped on the right only
        for (; i < sw; i++) {
            out[o + i] = (short) (s / (rowCount * (last - (i - h) + 1)) + min);
            s -= col[i - h];
        }
    }
}
