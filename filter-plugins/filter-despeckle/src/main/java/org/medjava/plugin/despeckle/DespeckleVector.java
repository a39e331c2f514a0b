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
