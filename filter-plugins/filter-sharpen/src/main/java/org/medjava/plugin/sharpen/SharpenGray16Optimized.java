package org.medjava.plugin.sharpen;

import org.medjava.filter.Cancellation;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;

/**
 * Sharpen on grey data, hand-optimized. Every binary64 operation of {@link SharpenGray16Straightforward} is still
 * performed with the same operands in the same order (no FMA, no reassociation), so the output is identical.
 * What changed:
 * <ul>
 *   <li>V is computed once per pixel (one division) into three rolling line buffers, instead of nine times;</li>
 *   <li>the 3×3 window slides through locals: only the right column is loaded per pixel, and the nine-term sum is
 *       re-added in the spec's order from them;</li>
 *   <li>{@code f}, {@code g} and {@code R} are hoisted; the clamp to [0, 1] is branch-free
 *       ({@code Math.max/min}), and {@code floor(v'·R + 0.5)} is an int cast (the operand is at least 0.5);</li>
 *   <li>rows are written through the word array, without per-pixel bounds or range checks.</li>
 * </ul>
 * Not done: a 65,536-entry table of V (the 8-bit port's 256-entry table idea) — filling it costs as many divisions
 * as a 256×256 image needs.
 */
final class SharpenGray16Optimized {
    /** Rows per band below which splitting is not worth a task. */
    private static final int MIN_BAND_ROWS = 8;

    private SharpenGray16Optimized() {
    }

    static void apply(GrayRaster16 src, GrayRaster16 dst, Region region, int p, boolean parallel) {
        if (region.width() < 3 || region.height() < 3) {
            return;
        }
        if (parallel) {
            RowBands.run(region.y() + 1, region.endY() - 1, MIN_BAND_ROWS,
                    (from, to) -> rows(src, dst, region, p, from, to));
        } else {
            rows(src, dst, region, p, region.y() + 1, region.endY() - 1);
        }
    }

    /** Sharpens the interior rows {@code [fromRow, toRow)}. */
    static void rows(GrayRaster16 src, GrayRaster16 dst, Region region, int p, int fromRow, int toRow) {
        if (fromRow >= toRow) {
            return;
        }
        final short[] in = src.words();
        final short[] out = dst.words();
        final int width = src.width();
        final int sx = region.x();
        final int sw = region.width();
        final int min = src.minValue();
        final double range = src.range();
        final double f = p / 100.0;
        final double g = 1.0 - f;

        double[] top = new double[sw];
        double[] mid = new double[sw];
        double[] bot = new double[sw];
        values(in, (fromRow - 1) * width + sx, sw, min, range, top);
        values(in, fromRow * width + sx, sw, min, range, mid);
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            values(in, (y + 1) * width + sx, sw, min, range, bot);
            double t0 = top[0];
            double t1 = top[1];
            double m0 = mid[0];
            double m1 = mid[1];
            double b0 = bot[0];
            double b1 = bot[1];
            int o = y * width + sx;
            for (int i = 1; i < sw - 1; i++) {
                double t2 = top[i + 1];
                double m2 = mid[i + 1];
                double b2 = bot[i + 1];
                double s = t0 + t1 + t2 + m0 + m1 + m2 + b0 + b1 + b2; // left to right: ((t0+t1)+t2)+...
                double v = Math.max(0.0, Math.min(1.0, (m1 - (f * s) / 9) / g));
                out[o + i] = (short) ((int) (v * range + 0.5) + min);
                t0 = t1;
                t1 = t2;
                m0 = m1;
                m1 = m2;
                b0 = b1;
                b1 = b2;
            }
            double[] spare = top;
            top = mid;
            mid = bot;
            bot = spare;
        }
    }

    private static void values(short[] in, int base, int n, int min, double range, double[] v) {
        for (int i = 0; i < n; i++) {
            v[i] = ((in[base + i] - min) & 0xFFFF) / range;
        }
    }
}
