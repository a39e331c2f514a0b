package org.medjava.plugin.despeckle;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API half of {@link DespeckleOptimized} for n = 3: the median of nine of a whole interior row at once,
 * every byte (any channel) in its own lane. Java bytes are signed and the Vector API of JDK 17 has signed min/max
 * only, so values are biased by flipping the top bit ({@code v ^ 0x80} orders 0..255 like -128..127) and flipped back
 * when stored. Loaded only when {@link VectorSupport#AVAILABLE}.
 */
final class DespeckleVector {
    private static final VectorSpecies<Byte> BYTES = ByteVector.SPECIES_PREFERRED;
    private static final int LANES = BYTES.length();
    private static final byte BIAS = (byte) 0x80;

    private DespeckleVector() {
    }

    /**
     * Sorts each 3-pixel column of one row segment: for byte offsets {@code [0, len)} from {@code up}, {@code mid},
     * {@code down} (the same column in the rows above, at and below), writes the biased minimum, median and maximum
     * to {@code lo}, {@code md}, {@code hi}.
     */
    static void sortColumns(byte[] in, int up, int mid, int down, int len, byte[] lo, byte[] md, byte[] hi) {
        int k = 0;
        for (int end = len - LANES; k <= end; k += LANES) {
            ByteVector a = ByteVector.fromArray(BYTES, in, up + k).lanewise(VectorOperators.XOR, BIAS);
            ByteVector b = ByteVector.fromArray(BYTES, in, mid + k).lanewise(VectorOperators.XOR, BIAS);
            ByteVector c = ByteVector.fromArray(BYTES, in, down + k).lanewise(VectorOperators.XOR, BIAS);
            ByteVector mn = a.min(b);
            ByteVector mx = a.max(b);
            mn.min(c).intoArray(lo, k);
            mn.max(mx.min(c)).intoArray(md, k);
            mx.max(c).intoArray(hi, k);
        }
        for (; k < len; k++) {
            int a = in[up + k] ^ BIAS;
            int b = in[mid + k] ^ BIAS;
            int c = in[down + k] ^ BIAS;
            int mn = Math.min(a, b);
            int mx = Math.max(a, b);
            lo[k] = (byte) Math.min(mn, c);
            md[k] = (byte) Math.max(mn, Math.min(mx, c));
            hi[k] = (byte) Math.max(mx, c);
        }
    }

    /**
     * The top or bottom row of the region, away from its corners: each window is 2 rows × 3 columns, and its median
     * is the floored mean of the 3rd and 4th smallest of the six values (spec 2.3). For byte offsets {@code p} in
     * {@code [from, to)} from the row bases {@code row} (the one written) and {@code other} (the row next to it):
     * Dobbelaere's 12-comparator sorting network for six inputs, then {@code (a & b) + ((a ^ b) >>> 1)}, the
     * floored mean of two unsigned bytes without overflow.
     */
    static void medians6(byte[] in, int row, int other, byte[] out, int from, int to) {
        int p = from;
        for (int end = to - LANES; p <= end; p += LANES) {
            ByteVector v0 = ByteVector.fromArray(BYTES, in, row + p - 3).lanewise(VectorOperators.XOR, BIAS);
            ByteVector v1 = ByteVector.fromArray(BYTES, in, row + p).lanewise(VectorOperators.XOR, BIAS);
            ByteVector v2 = ByteVector.fromArray(BYTES, in, row + p + 3).lanewise(VectorOperators.XOR, BIAS);
            ByteVector v3 = ByteVector.fromArray(BYTES, in, other + p - 3).lanewise(VectorOperators.XOR, BIAS);
            ByteVector v4 = ByteVector.fromArray(BYTES, in, other + p).lanewise(VectorOperators.XOR, BIAS);
            ByteVector v5 = ByteVector.fromArray(BYTES, in, other + p + 3).lanewise(VectorOperators.XOR, BIAS);
            ByteVector t;
            // [(0,5),(1,3),(2,4)]
            t = v0.min(v5); v5 = v0.max(v5); v0 = t;
            t = v1.min(v3); v3 = v1.max(v3); v1 = t;
            t = v2.min(v4); v4 = v2.max(v4); v2 = t;
            // [(1,2),(3,4)]
            t = v1.min(v2); v2 = v1.max(v2); v1 = t;
            t = v3.min(v4); v4 = v3.max(v4); v3 = t;
            // [(0,3),(2,5)]
            t = v0.max(v3); v0 = v0.min(v3); v3 = t;
            t = v2.min(v5); v5 = v2.max(v5); v2 = t;
            // [(0,1),(2,3),(4,5)] and [(1,2),(3,4)], pruned to what ranks 2 and 3 need
            v1 = v0.max(v1);
            t = v2.min(v3); v3 = v2.max(v3); v2 = t;
            v4 = v4.min(v5);
            ByteVector s2 = v1.max(v2);
            ByteVector s3 = v3.min(v4);
            ByteVector a = s2.lanewise(VectorOperators.XOR, BIAS);
            ByteVector b = s3.lanewise(VectorOperators.XOR, BIAS);
            a.and(b).add(a.lanewise(VectorOperators.XOR, b).lanewise(VectorOperators.LSHR, 1)).intoArray(out, row + p);
        }
        int[] six = new int[6];
        for (; p < to; p++) {
            six[0] = in[row + p - 3] & 0xFF;
            six[1] = in[row + p] & 0xFF;
            six[2] = in[row + p + 3] & 0xFF;
            six[3] = in[other + p - 3] & 0xFF;
            six[4] = in[other + p] & 0xFF;
            six[5] = in[other + p + 3] & 0xFF;
            java.util.Arrays.sort(six);
            out[row + p] = (byte) ((six[2] + six[3]) >> 1);
        }
    }

    /**
     * The median of the columns at {@code p−3, p, p+3} for bytes {@code p} in {@code [from, to)} of the sorted-column
     * arrays, written unbiased to {@code out[o + p]}: {@code med3(max of minima, med3 of medians, min of maxima)}.
     */
    static void medians(byte[] lo, byte[] md, byte[] hi, byte[] out, int o, int from, int to) {
        int p = from;
        for (int end = to - LANES; p <= end; p += LANES) {
            ByteVector maxLo = ByteVector.fromArray(BYTES, lo, p - 3).max(ByteVector.fromArray(BYTES, lo, p))
                    .max(ByteVector.fromArray(BYTES, lo, p + 3));
            ByteVector minHi = ByteVector.fromArray(BYTES, hi, p - 3).min(ByteVector.fromArray(BYTES, hi, p))
                    .min(ByteVector.fromArray(BYTES, hi, p + 3));
            ByteVector m0 = ByteVector.fromArray(BYTES, md, p - 3);
            ByteVector m1 = ByteVector.fromArray(BYTES, md, p);
            ByteVector m2 = ByteVector.fromArray(BYTES, md, p + 3);
            ByteVector medMd = m0.min(m1).max(m0.max(m1).min(m2));
            maxLo.min(medMd).max(maxLo.max(medMd).min(minHi)).lanewise(VectorOperators.XOR, BIAS)
                    .intoArray(out, o + p);
        }
        for (; p < to; p++) {
            int maxLo = Math.max(Math.max(lo[p - 3], lo[p]), lo[p + 3]);
            int minHi = Math.min(Math.min(hi[p - 3], hi[p]), hi[p + 3]);
            int m01 = Math.min(md[p - 3], md[p]);
            int medMd = Math.max(m01, Math.min(Math.max(md[p - 3], md[p]), md[p + 3]));
            int m = Math.max(Math.min(maxLo, medMd), Math.min(Math.max(maxLo, medMd), minHi));
            out[o + p] = (byte) (m ^ BIAS);
        }
    }
}
