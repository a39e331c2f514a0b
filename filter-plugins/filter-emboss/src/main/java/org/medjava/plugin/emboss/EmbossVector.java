package org.medjava.plugin.emboss;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API half of {@link EmbossOptimized}: an interior row on short lanes (|S| ≤ 1020 and the channel values
 * fit 16 bits, so twice the lanes of int): the kernel and {@code 128 + T} per byte, then MONO with
 * {@link MonoVector}. Loaded only when {@link VectorSupport#AVAILABLE}.
 */
final class EmbossVector {
    static final VectorSpecies<Short> SHORTS = MonoVector.SHORTS;
    /** Bytes with as many lanes as {@link #SHORTS}. */
    static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(SHORTS.length() * Byte.SIZE));
    private static final int LANES = SHORTS.length();

    private EmbossVector() {
    }

    /** Scratch an interior row of {@code sw} pixels needs (two short arrays of this length). */
    static int scratchLength(int sw) {
        return 3 * sw + 2 * LANES;
    }

    private static ShortVector load(byte[] in, int i) {
        return ((ShortVector) ByteVector.fromArray(BYTES, in, i).convertShape(VectorOperators.B2S, SHORTS, 0))
                .and((short) 0xFF);
    }

    /**
     * Interior pixels {@code 1 .. sw−2} of one row: {@code up}, {@code mid}, {@code down} are the byte offsets of
     * the region row's first pixel in the rows above, at and below (output row = {@code mid}).
     */
    static void interior(byte[] in, byte[] out, int up, int mid, int down, int sw, boolean floorRounding,
                         short[] c, short[] q) {
        final int to = 3 * sw - 3;
        int k = 3;
        for (int end = to - LANES; k <= end; k += LANES) {
            // S = 2·P(+1,+1) + P(0,+1) + P(+1,0) − P(−1,0) − P(0,−1) − 2·P(−1,−1)
            ShortVector s = load(in, down + k + 3).lanewise(VectorOperators.LSHL, 1)
                    .add(load(in, down + k)).add(load(in, mid + k + 3))
                    .sub(load(in, mid + k - 3)).sub(load(in, up + k))
                    .sub(load(in, up + k - 3).lanewise(VectorOperators.LSHL, 1));
            ShortVector t = floorRounding ? s.lanewise(VectorOperators.ASHR, 3)
                    // toward zero: add 7 to negative sums before the arithmetic shift
                    : s.add(s.lanewise(VectorOperators.ASHR, 15).and((short) 7)).lanewise(VectorOperators.ASHR, 3);
            t.add((short) 128).intoArray(c, k);
        }
        for (; k < to; k++) {
            int s = 2 * (in[down + k + 3] & 0xFF) + (in[down + k] & 0xFF) + (in[mid + k + 3] & 0xFF)
                    - (in[mid + k - 3] & 0xFF) - (in[up + k] & 0xFF) - 2 * (in[up + k - 3] & 0xFF);
            c[k] = (short) (128 + (floorRounding ? s >> 3 : s / 8));
        }
        MonoVector.mono(c, q, out, mid, 3, to);
    }
}
