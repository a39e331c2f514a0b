package org.medjava.plugin.sharpen;

import org.medjava.filter.Cancellation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.RowBands;
import org.medjava.filter.VectorSupport;

/**
 * Sharpen (spec 2.2), hand-optimized. Every binary64 operation of the spec is still performed, with the same
 * operands, in the same order (no FMA, no reassociation), so the output is byte-identical to
 * {@link SharpenStraightforward} and to the C port. What changed:
 * <ul>
 *   <li>{@code k / 255.0} comes from an exact table ({@link #DIV255}, filled by the very same division);</li>
 *   <li>V is computed once per pixel into three rolling line buffers; the nine-term sum slides through
 *       registers (only the right column is loaded per pixel);</li>
 *   <li>{@code f}, {@code g} are hoisted; the max/min of R,G,B are found on integers (k/255.0 is strictly
 *       increasing, so the comparisons agree with the spec's double comparisons);</li>
 *   <li>grey pixels (R=G=B, exactly the pixels with Sat=0, H=−1) skip rgb→hsv/hsv→rgb: all channels are
 *       {@code floor(v'·255+0.5)};</li>
 *   <li>for a coloured pixel, hsv→rgb is folded into three per-colour factors {@code k_c} with
 *       {@code c = v'·k_c} ({@code k = 1.0} for the channel that is v itself — multiplying by 1.0 is exact, and
 *       the others are the spec's {@code 1−Sat}, {@code 1−Sat·fr}, {@code 1−Sat·(1−fr)}), so hue and
 *       saturation are computed once per run of equal centre colours; only the divisions the chosen hue branch
 *       needs are done;</li>
 *   <li>{@code floor(c·255.0+0.5)} is an int cast (the operand is ≥ 0.5) and the clamp to 0..255 is dropped
 *       ({@code c ≤ v' ≤ 1}, because every factor is in [0,1] and rounding is monotonic);</li>
 *   <li>the clamp of v' to [0,1] is {@code Math.max(0, Math.min(1, v'))}, branch-free: on noisy data a
 *       mispredicted branch at the end of the division chain serialised the pixels (grey noise ran 3× slower).
 *       The hue branches and the sector switch stay branches: measured, a branch-free version of them was
 *       slower on noise and on smooth images alike.</li>
 * </ul>
 * Measured and not kept: an exact 64K-entry table for Sat (divisions are not the bottleneck).
 *
 * <p>With the Vector API ({@link SharpenVector}, when the JVM has jdk.incubator.vector) the rows go to a branch-free
 * lane kernel instead: the same operations, whole rows of pixels per instruction. This scalar code is what runs
 * without the module (and what the tests compare it with). On noise this scalar kernel was measured at 1.19× (4096²)
 * to 1.34× (1024²) the time of C {@code -O3 -march=native} on JDK 17, 0.83× on JDK 25; the lane kernel's figures are
 * in {@link SharpenVector}.
 */
final class SharpenOptimized {
    /** {@code DIV255[k] == k / 255.0}, computed exactly as the spec computes it. */
    static final double[] DIV255 = new double[256];

    static {
        for (int k = 0; k < 256; k++) {
            DIV255[k] = k / 255.0;
        }
    }

    /** Rows per band below which splitting is not worth a task. */
    private static final int MIN_BAND_ROWS = 8;

    private SharpenOptimized() {
    }

    static void apply(Raster src, Raster dst, Region region, int p) {
        apply(src, dst, region, p, VectorSupport.AVAILABLE);
    }

    /** {@code vector}: use {@link SharpenVector} (tests compare both kernels in one JVM). */
    static void apply(Raster src, Raster dst, Region region, int p, boolean vector) {
        if (region.width() < 3 || region.height() < 3) {
            return;
        }
        rows(src, dst, region, p, region.y() + 1, region.endY() - 1, vector);
    }

    static void applyParallel(Raster src, Raster dst, Region region, int p) {
        if (region.width() < 3 || region.height() < 3) {
            return;
        }
        final boolean vector = VectorSupport.AVAILABLE;
        RowBands.run(region.y() + 1, region.endY() - 1, MIN_BAND_ROWS,
                (from, to) -> rows(src, dst, region, p, from, to, vector));
    }

    /** Sharpens the interior rows {@code [fromRow, toRow)}, which must lie in {@code [sy+1, sy+sh−1)}. */
    static void rows(Raster src, Raster dst, Region region, int p, int fromRow, int toRow, boolean vector) {
        if (fromRow >= toRow) {
            return;
        }
        if (vector) {
            SharpenVector.rows(src.rgb(), dst.rgb(), src.stride(), 3 * region.x(), region.width(), p, fromRow,
                    toRow);
            return;
        }
        final byte[] in = src.rgb();
        final byte[] out = dst.rgb();
        final int stride = src.stride();
        final int sw = region.width();
        final int rowStart = 3 * region.x();
        final double f = p / 100.0;
        final double g = 1.0 - f;
        final double[] div255 = DIV255;

        double[] top = new double[sw];
        double[] mid = new double[sw];
        double[] bot = new double[sw];
        values(in, (fromRow - 1) * stride + rowStart, sw, top);
        values(in, fromRow * stride + rowStart, sw, mid);

        // per-colour factors of the last coloured centre pixel
        int lastColour = -1;
        double kr = 1.0;
        double kg = 1.0;
        double kb = 1.0;

        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            values(in, (y + 1) * stride + rowStart, sw, bot);
            int o = y * stride + rowStart + 3;
            double t0 = top[0];
            double t1 = top[1];
            double m0 = mid[0];
            double m1 = mid[1];
            double b0 = bot[0];
            double b1 = bot[1];
            for (int i = 2; i < sw; i++, o += 3) {
                double t2 = top[i];
                double m2 = mid[i];
                double b2 = bot[i];
                double s = t0 + t1;
                s = s + t2;
                s = s + m0;
                s = s + m1;
                s = s + m2;
                s = s + b0;
                s = s + b1;
                s = s + b2;
                // clamp to [0, 1] without a branch on the end of the long division chain (v is never NaN;
                // Math.max turns a -0.0 into +0.0, which gives the same output byte)
                double v = Math.max(0.0, Math.min(1.0, (m1 - (f * s) / 9) / g));
                int r = in[o] & 0xFF;
                int gr = in[o + 1] & 0xFF;
                int b = in[o + 2] & 0xFF;
                if (r == gr && gr == b) {
                    byte c = (byte) (int) (v * 255.0 + 0.5);
                    out[o] = c;
                    out[o + 1] = c;
                    out[o + 2] = c;
                } else {
                    int colour = r << 16 | gr << 8 | b;
                    if (colour != lastColour) {
                        lastColour = colour;
                        int mxI = r > gr ? (r > b ? r : b) : (gr > b ? gr : b);
                        int mnI = r < gr ? (r < b ? r : b) : (gr < b ? gr : b);
                        double mx = div255[mxI];
                        double del = mx - div255[mnI];
                        double sat = del / mx;
                        double h;
                        if (r == mxI) {
                            h = (mx - div255[b]) / del - (mx - div255[gr]) / del;
                        } else if (gr == mxI) {
                            h = 2 + (mx - div255[r]) / del - (mx - div255[b]) / del;
                        } else {
                            h = 4 + (mx - div255[gr]) / del - (mx - div255[r]) / del;
                        }
                        h = h * 60;
                        if (h < 0) {
                            h += 360;
                        }
                        if (h == 360.0) {
                            h = 0.0;
                        }
                        h = h / 60;
                        int j = (int) h; // h >= 0, so the cast is floor
                        double fr = h - j;
                        double cp = 1 - sat;
                        double cq = 1 - sat * fr;
                        double ct = 1 - sat * (1 - fr);
                        switch (j) {
                            case 1:
                                kr = cq; kg = 1.0; kb = cp;
                                break;
                            case 2:
                                kr = cp; kg = 1.0; kb = ct;
                                break;
                            case 3:
                                kr = cp; kg = cq; kb = 1.0;
                                break;
                            case 4:
                                kr = ct; kg = cp; kb = 1.0;
                                break;
                            case 5:
                                kr = 1.0; kg = cp; kb = cq;
                                break;
                            default:
                                kr = 1.0; kg = ct; kb = cp;
                                break;
                        }
                    }
                    out[o] = (byte) (int) (v * kr * 255.0 + 0.5);
                    out[o + 1] = (byte) (int) (v * kg * 255.0 + 0.5);
                    out[o + 2] = (byte) (int) (v * kb * 255.0 + 0.5);
                }
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

    /** {@code V = max(R,G,B) / 255.0} of {@code n} pixels starting at byte {@code o}. */
    private static void values(byte[] in, int o, int n, double[] v) {
        final double[] div255 = DIV255;
        for (int i = 0; i < n; i++, o += 3) {
            int r = in[o] & 0xFF;
            int g = in[o + 1] & 0xFF;
            int b = in[o + 2] & 0xFF;
            int m = r > g ? r : g;
            v[i] = div255[m > b ? m : b];
        }
    }
}
