package org.medjava.plugin.emboss;

import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * MONO of interleaved RGB on short lanes, where a pixel's three channels straddle lanes (and vectors): first
 * {@code q[k] = 11·c[k] + 16·c[k+1] + 5·c[k+2]} for every k (right at the first channel of each pixel), then every
 * lane takes {@code q} of its pixel's first channel, {@code q[k − k mod 3] >> 5}, from three shifted loads and two
 * blends. The blend masks depend on where a vector starts modulo 3; there are three of each.
 */
final class MonoVector {
    static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    static final int LANES = SHORTS.length();
    /** {@code SECOND[p]}: lanes that are a pixel's second channel when the vector starts at phase p (mod 3). */
    private static final VectorMask<Short>[] SECOND = masks(1);
    /** {@code THIRD[p]}: lanes that are a pixel's third channel. */
    private static final VectorMask<Short>[] THIRD = masks(2);

    private MonoVector() {
    }

    @SuppressWarnings("unchecked")
    private static VectorMask<Short>[] masks(int channel) {
        VectorMask<Short>[] m = new VectorMask[3];
        for (int phase = 0; phase < 3; phase++) {
            boolean[] bits = new boolean[LANES];
            for (int l = 0; l < LANES; l++) {
                bits[l] = (phase + l) % 3 == channel;
            }
            m[phase] = VectorMask.fromArray(SHORTS, bits, 0);
        }
        return m;
    }

    /**
     * For channel values {@code c[from..to)} (from a multiple of 3, c readable to {@code to + 2}) writes
     * {@code MONO} of each pixel to all three of its bytes {@code out[o + k]}. {@code q} is scratch of c's length.
     */
    static void mono(short[] c, short[] q, byte[] out, int o, int from, int to) {
        int k = Math.max(0, from - 2);
        for (int end = to - LANES; k <= end; k += LANES) {
            ShortVector.fromArray(SHORTS, c, k).mul((short) 11)
                    .add(ShortVector.fromArray(SHORTS, c, k + 1).lanewise(VectorOperators.LSHL, 4))
                    .add(ShortVector.fromArray(SHORTS, c, k + 2).mul((short) 5)).intoArray(q, k);
        }
        for (; k < to; k++) {
            q[k] = (short) (11 * c[k] + 16 * c[k + 1] + 5 * c[k + 2]);
        }
        int j = from;
        for (int end = to - LANES; j <= end; j += LANES) {
            int phase = j % 3;
            ShortVector v = ShortVector.fromArray(SHORTS, q, j)
                    .blend(ShortVector.fromArray(SHORTS, q, j - 1), SECOND[phase])
                    .blend(ShortVector.fromArray(SHORTS, q, j - 2), THIRD[phase]);
            v.lanewise(VectorOperators.ASHR, 5).convertShape(VectorOperators.S2B, EmbossVector.BYTES, 0)
                    .reinterpretAsBytes().intoArray(out, o + j);
        }
        for (; j < to; j++) {
            out[o + j] = (byte) (q[j - j % 3] >> 5);
        }
    }
}
