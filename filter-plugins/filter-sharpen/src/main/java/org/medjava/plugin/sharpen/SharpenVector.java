package org.medjava.plugin.sharpen;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.Cancellation;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API kernel of {@link SharpenOptimized}: a whole row of interior pixels at a time, in double lanes (8
 * with AVX-512). Every binary64 operation of spec 2.2 is done in its lane with the spec's operands and in the
 * spec's order; IEEE-754 lane arithmetic ({@code + − × ÷}, min, max, compares) is correctly rounded exactly like the
 * scalar operations, and no lane operation is fused, so every lane gets the scalar code's bits. Branches become
 * blends, each selecting between values that the scalar code computes the same way:
 * <ul>
 *   <li>the nine-term sum and {@code v' = (Vc − (f·S)/9)/g}, clamped with min/max;</li>
 *   <li>the hue: the branch taken by the spec (red max, else green max, else blue) picks the two operands
 *       {@code a}, {@code c} and the base {@code 0, 2, 4}: {@code H = (base + (mx−a)/del) − (mx−c)/del}; for the
 *       red branch {@code 0 + x == x} exactly ({@code x ≥ +0}), so it is the spec's {@code bc − gc};</li>
 *   <li>{@code H < 0 → H + 360} and {@code H == 360 → 0} as blends; the sector {@code j = floor(H/60)} (0..6) is
 *       never converted to an int: the masks {@code H ≥ 1 … H ≥ 6} give {@code j} as a double and choose each
 *       channel's source ({@code v', P, Q, T}) by overwriting in order of increasing j;</li>
 *   <li>grey pixels ({@code del == 0}, exactly the spec's Sat = 0) take {@code v'} for all three channels (their
 *       lanes compute a NaN hue that is blended away);</li>
 *   <li>the lanes leave {@code c·255 + 0.5} in three row buffers; a scalar loop truncates them (the operand is
 *       ≥ 0.5, so the cast is the spec's floor) into the interleaved output.</li>
 * </ul>
 * Row buffers are padded by a vector's length, so the last vector of a row reads padding (its lanes are computed and
 * never stored): no scalar tail. Loaded only when {@link VectorSupport#AVAILABLE}.
 *
 * <p>Measured (JMH FilterBenchmark, noise, 2 forks × 5 iterations, Java ÷ C {@code -O3 -march=native} in the same
 * run, 2-core AMD EPYC with AVX-512): the scalar kernel alone was 1.34× (1024²) and 1.19× (4096²) on JDK 17, 0.83×
 * and 0.83× on JDK 25; with this kernel 0.46× and 0.45× on JDK 17, 0.36× and 0.38× on JDK 25. Measured and not kept:
 * the same lanes fed by two scalar passes per row (one for the V row, one for the centre row's channels) instead of
 * one pass per source row and a lane max: 15.6 ms against 9.9 ms at 1024², 245 against 166 ms at 4096² (JDK 17).
 */
final class SharpenVector {
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final int L = D.length();

    private SharpenVector() {
    }

    /**
     * Sharpens the interior rows {@code [fromRow, toRow)} (see {@link SharpenOptimized#rows}). One scalar pass per
     * source row (when it enters as the bottom row) de-interleaves its channels as {@code k/255.0}; its V row is their
     * lane maximum; the three V rows and the centre row's channels roll.
     */
    static void rows(byte[] in, byte[] out, int stride, int rowStart, int sw, int p, int fromRow, int toRow) {
        final double f = p / 100.0;
        final double g = 1.0 - f;
        final int n = sw + L + 1; // padded: the last vector of a row reads up to index sw − 2 + L
        double[] top = new double[n];
        double[] mid = new double[n];
        double[] bot = new double[n];
        double[][] rgbMid = new double[3][n];
        double[][] rgbBot = new double[3][n];
        final double[] outR = new double[n];
        final double[] outG = new double[n];
        final double[] outB = new double[n];
        source(in, (fromRow - 1) * stride + rowStart, sw, rgbBot, top);
        source(in, fromRow * stride + rowStart, sw, rgbMid, mid);
        for (int y = fromRow; y < toRow; y++) {
            Cancellation.check();
            source(in, (y + 1) * stride + rowStart, sw, rgbBot, bot);
            row(top, mid, bot, rgbMid[0], rgbMid[1], rgbMid[2], outR, outG, outB, sw, f, g);
            store(outR, outG, outB, out, y * stride + rowStart, sw);
            double[] spare = top;
            top = mid;
            mid = bot;
            bot = spare;
            double[][] spareRgb = rgbMid;
            rgbMid = rgbBot;
            rgbBot = spareRgb;
        }
    }

    /** The channels of a source row as {@code k/255.0}, and its V row, their maximum (exact: k/255.0 is monotonic). */
    private static void source(byte[] in, int o, int sw, double[][] rgb, double[] v) {
        final double[] rd = rgb[0];
        final double[] gd = rgb[1];
        final double[] bd = rgb[2];
        channels(in, o, sw, rd, gd, bd);
        int i = 0;
        for (int end = sw - L; i <= end; i += L) {
            DoubleVector.fromArray(D, rd, i).max(DoubleVector.fromArray(D, gd, i))
                    .max(DoubleVector.fromArray(D, bd, i)).intoArray(v, i);
        }
        for (; i < sw; i++) {
            v[i] = Math.max(Math.max(rd[i], gd[i]), bd[i]);
        }
    }

    /** The lanes: pixel i (1 ≤ i ≤ sw − 2) of the row leaves {@code c·255 + 0.5} of each channel in out*[i]. */
    private static void row(double[] top, double[] mid, double[] bot, double[] rd, double[] gd, double[] bd,
                            double[] outR, double[] outG, double[] outB, int sw, double f, double g) {
        for (int i = 1; i < sw - 1; i += L) {
            DoubleVector s = DoubleVector.fromArray(D, top, i - 1)
                    .add(DoubleVector.fromArray(D, top, i))
                    .add(DoubleVector.fromArray(D, top, i + 1))
                    .add(DoubleVector.fromArray(D, mid, i - 1));
            DoubleVector mx = DoubleVector.fromArray(D, mid, i); // Vc = max(rd, gd, bd)
            s = s.add(mx)
                    .add(DoubleVector.fromArray(D, mid, i + 1))
                    .add(DoubleVector.fromArray(D, bot, i - 1))
                    .add(DoubleVector.fromArray(D, bot, i))
                    .add(DoubleVector.fromArray(D, bot, i + 1));
            DoubleVector v = mx.sub(s.mul(f).div(9.0)).div(g).min(1.0).max(0.0);

            DoubleVector r = DoubleVector.fromArray(D, rd, i);
            DoubleVector gr = DoubleVector.fromArray(D, gd, i);
            DoubleVector b = DoubleVector.fromArray(D, bd, i);
            DoubleVector del = mx.sub(r.min(gr).min(b));
            VectorMask<Double> grey = del.eq(0.0);
            DoubleVector sat = del.div(mx);
            VectorMask<Double> redMax = r.eq(mx);
            VectorMask<Double> greenMax = gr.eq(mx).andNot(redMax);
            // blue max: (4 + gc) − rc; green max: (2 + rc) − bc; red max: (0 + bc) − gc
            DoubleVector a = gr.blend(r, greenMax).blend(b, redMax);
            DoubleVector c = r.blend(b, greenMax).blend(gr, redMax);
            DoubleVector base = DoubleVector.broadcast(D, 4.0).blend(2.0, greenMax).blend(0.0, redMax);
            DoubleVector h = base.add(mx.sub(a).div(del)).sub(mx.sub(c).div(del)).mul(60.0);
            h = h.blend(h.add(360.0), h.lt(0.0));
            h = h.blend(0.0, h.eq(360.0));
            h = h.div(60.0);
            VectorMask<Double> ge1 = h.compare(VectorOperators.GE, 1.0);
            VectorMask<Double> ge2 = h.compare(VectorOperators.GE, 2.0);
            VectorMask<Double> ge3 = h.compare(VectorOperators.GE, 3.0);
            VectorMask<Double> ge4 = h.compare(VectorOperators.GE, 4.0);
            VectorMask<Double> ge5 = h.compare(VectorOperators.GE, 5.0);
            VectorMask<Double> ge6 = h.compare(VectorOperators.GE, 6.0);
            DoubleVector j = DoubleVector.zero(D).blend(1.0, ge1).blend(2.0, ge2).blend(3.0, ge3).blend(4.0, ge4)
                    .blend(5.0, ge5).blend(6.0, ge6);
            DoubleVector fr = h.sub(j);
            DoubleVector pp = v.mul(DoubleVector.broadcast(D, 1.0).sub(sat));
            DoubleVector qq = v.mul(DoubleVector.broadcast(D, 1.0).sub(sat.mul(fr)));
            DoubleVector tt = v.mul(DoubleVector.broadcast(D, 1.0).sub(sat.mul(DoubleVector.broadcast(D, 1.0).sub(fr))));
            // sectors 0..5 (6 as 0): r = v,Q,P,P,T,v,v  g = T,v,v,Q,P,P,T  b = P,P,T,v,v,Q,P
            DoubleVector cr = v.blend(qq, ge1).blend(pp, ge2).blend(tt, ge4).blend(v, ge5).blend(v, grey);
            DoubleVector cg = tt.blend(v, ge1).blend(qq, ge3).blend(pp, ge4).blend(tt, ge6).blend(v, grey);
            DoubleVector cb = pp.blend(tt, ge2).blend(v, ge3).blend(qq, ge5).blend(pp, ge6).blend(v, grey);
            cr.mul(255.0).add(0.5).intoArray(outR, i);
            cg.mul(255.0).add(0.5).intoArray(outG, i);
            cb.mul(255.0).add(0.5).intoArray(outB, i);
        }
    }

    /** Interior pixels 1..sw−2 of the row at byte {@code o}: {@code floor(c·255 + 0.5)}, a cast for c ≥ 0. */
    private static void store(double[] outR, double[] outG, double[] outB, byte[] out, int o, int sw) {
        for (int i = 1, k = o + 3; i < sw - 1; i++, k += 3) {
            out[k] = (byte) (int) outR[i];
            out[k + 1] = (byte) (int) outG[i];
            out[k + 2] = (byte) (int) outB[i];
        }
    }

    /** {@code R/255.0, G/255.0, B/255.0} of {@code n} pixels starting at byte {@code o}. */
    private static void channels(byte[] in, int o, int n, double[] rd, double[] gd, double[] bd) {
        final double[] div255 = SharpenOptimized.DIV255;
        for (int i = 0; i < n; i++, o += 3) {
            rd[i] = div255[in[o] & 0xFF];
            gd[i] = div255[in[o + 1] & 0xFF];
            bd[i] = div255[in[o + 2] & 0xFF];
        }
    }
}
