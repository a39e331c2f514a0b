package org.medjava.plugin.edgedetect;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API half of {@link EdgeDetectOptimized}, per interior row: the Prewitt sums on short lanes from
 * separable column sums ({@code C = up + mid + down}, {@code D = down − up}), {@code max(|Gx|, |Gy|)} on shorts and
 * the division by 3 on int lanes ({@code x / 3 == (x · 43691) >>> 17} for {@code 0 ≤ x ≤ 765}); then the row's
 * largest MONO, channels combined across lanes as in emboss. And step 3's rescale as a reciprocal multiply on int
 * lanes ({@link #stretch}).
 * Loaded only when {@link VectorSupport#AVAILABLE}.
 */
final class EdgeDetectVector {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    private static final int LANES = SHORTS.length();
    private static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(LANES * Byte.SIZE));
    /** Half of {@link #SHORTS}' lanes as ints: one short vector widens into two of these. */
    private static final VectorSpecies<Integer> INTS =
            VectorSpecies.of(int.class, VectorShape.forBitSize(LANES / 2 * Integer.SIZE));
    private static final VectorSpecies<Byte> HALF_BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(LANES / 2 * Byte.SIZE));
    private static final VectorSpecies<Integer> ALL_INTS = IntVector.SPECIES_PREFERRED;
    private static final int INT_LANES = ALL_INTS.length();
    private static final VectorSpecies<Byte> INT_BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(INT_LANES * Byte.SIZE));
    /** {@code FIRST[p]}: lanes that are a pixel's first channel when a vector starts at phase p (mod 3). */
    private static final VectorMask<Short>[] FIRST = firstChannelMasks();

    private EdgeDetectVector() {
    }

    /** Length of each of the three scratch arrays for a region {@code sw} pixels wide. */
    static int scratchLength(int sw) {
        return 3 * sw + 2 * LANES;
    }

    @SuppressWarnings("unchecked")
    private static VectorMask<Short>[] firstChannelMasks() {
        VectorMask<Short>[] m = new VectorMask[3];
        for (int phase = 0; phase < 3; phase++) {
            boolean[] bits = new boolean[LANES];
            for (int l = 0; l < LANES; l++) {
                bits[l] = (phase + l) % 3 == 0;
            }
            m[phase] = VectorMask.fromArray(SHORTS, bits, 0);
        }
        return m;
    }

    private static ShortVector load(byte[] in, int i) {
        return ((ShortVector) ByteVector.fromArray(BYTES, in, i).convertShape(VectorOperators.B2S, SHORTS, 0))
                .and((short) 0xFF);
    }

    /**
     * Steps 1 and 2 for the interior pixels {@code 1 .. sw−2} of one row ({@code up}, {@code mid}, {@code down}:
     * byte offsets of the region row's first pixel in the rows above, at and below). Writes the edge magnitudes to
     * {@code out[mid + k]} and returns the largest MONO among them. {@code c}, {@code d}, {@code e}: scratch of
     * {@link #scratchLength}.
     */
    static int interior(byte[] in, byte[] out, int up, int mid, int down, int sw, short[] c, short[] d,
                        short[] e) {
        final int n = 3 * sw;
        final int to = n - 3;
        int k = 0;
        for (int end = n - LANES; k <= end; k += LANES) {
            ShortVector u = load(in, up + k);
            ShortVector w = load(in, down + k);
            u.add(load(in, mid + k)).add(w).intoArray(c, k);
            w.sub(u).intoArray(d, k);
        }
        for (; k < n; k++) {
            int u = in[up + k] & 0xFF;
            int w = in[down + k] & 0xFF;
            c[k] = (short) (u + (in[mid + k] & 0xFF) + w);
            d[k] = (short) (w - u);
        }
        k = 3;
        for (int end = to - LANES; k <= end; k += LANES) {
            ShortVector gx = ShortVector.fromArray(SHORTS, c, k + 3).sub(ShortVector.fromArray(SHORTS, c, k - 3));
            ShortVector gy = ShortVector.fromArray(SHORTS, d, k - 3).add(ShortVector.fromArray(SHORTS, d, k))
                    .add(ShortVector.fromArray(SHORTS, d, k + 3));
            ShortVector m = gx.abs().max(gy.abs());
            ShortVector third = divideBy3(m);
            third.intoArray(e, k);
            third.convertShape(VectorOperators.S2B, BYTES, 0).reinterpretAsBytes().intoArray(out, mid + k);
        }
        for (; k < to; k++) {
            int gx = c[k + 3] - c[k - 3];
            int gy = d[k - 3] + d[k] + d[k + 3];
            int v = Math.max(Math.abs(gx), Math.abs(gy)) / 3;
            e[k] = (short) v;
            out[mid + k] = (byte) v;
        }
        return maxMono(e, 3, to);
    }

    /** {@code m / 3} lane by lane (0 ≤ m ≤ 765) through two int halves. */
    private static ShortVector divideBy3(ShortVector m) {
        IntVector lo = (IntVector) m.convertShape(VectorOperators.S2I, INTS, 0);
        IntVector hi = (IntVector) m.convertShape(VectorOperators.S2I, INTS, 1);
        ShortVector qlo = (ShortVector) lo.mul(43691).lanewise(VectorOperators.LSHR, 17)
                .convertShape(VectorOperators.I2S, SHORTS, 0);
        ShortVector qhi = (ShortVector) hi.mul(43691).lanewise(VectorOperators.LSHR, 17)
                .convertShape(VectorOperators.I2S, SHORTS, -1);
        return qlo.or(qhi);
    }

    /** Largest {@code (11·e[k] + 16·e[k+1] + 5·e[k+2]) >> 5} over pixel starts k in {@code [from, to)}. */
    private static int maxMono(short[] e, int from, int to) {
        ShortVector best = ShortVector.zero(SHORTS);
        int k = from;
        for (int end = to - LANES; k <= end; k += LANES) {
            ShortVector v = ShortVector.fromArray(SHORTS, e, k).mul((short) 11)
                    .add(ShortVector.fromArray(SHORTS, e, k + 1).lanewise(VectorOperators.LSHL, 4))
                    .add(ShortVector.fromArray(SHORTS, e, k + 2).mul((short) 5));
            best = best.blend(best.max(v), FIRST[k % 3]);
        }
        int max = best.reduceLanes(VectorOperators.MAX) >> 5;
        for (k += (3 - (k - from) % 3) % 3; k < to; k += 3) {
            max = Math.max(max, (11 * e[k] + 16 * e[k + 1] + 5 * e[k + 2]) >> 5);
        }
        return max;
    }

    /** {@code stretchMultiplier(maxv)}: see {@link #stretch}. */
    static int stretchMultiplier(int maxv) {
        return (int) (((255L << 16) + maxv - 1) / maxv);
    }

    /**
     * Step 3 over bytes {@code [o, o + n)}, {@code min(255, floor(v·255 / maxv))} for 0 < maxv < 255, as
     * {@code (min(v, maxv) · M) >>> 16} with {@code M = ceil(255·2^16 / maxv)} on int lanes. Exact: for
     * {@code v < maxv} the product overshoots {@code v·255/maxv} by less than {@code v/2^16 < 1/maxv}, the least
     * distance of a non-integer quotient to the next integer; {@code v = maxv} gives 255 (and so does every larger
     * v, clamped first); {@code maxv·M < 255·2^16 + maxv} fits an int. EdgeDetectVectorTest checks every v and maxv.
     */
    static void stretch(byte[] out, int o, int n, int maxv) {
        final int m = stretchMultiplier(maxv);
        int k = o;
        for (int end = o + n - INT_LANES; k <= end; k += INT_LANES) {
            ((IntVector) ByteVector.fromArray(INT_BYTES, out, k).convertShape(VectorOperators.B2I, ALL_INTS, 0))
                    .and(0xFF).min(maxv).mul(m).lanewise(VectorOperators.LSHR, 16)
                    .convertShape(VectorOperators.I2B, INT_BYTES, 0).reinterpretAsBytes().intoArray(out, k);
        }
        for (int end = o + n; k < end; k++) {
            out[k] = (byte) ((Math.min(out[k] & 0xFF, maxv) * m) >>> 16);
        }
    }
}
