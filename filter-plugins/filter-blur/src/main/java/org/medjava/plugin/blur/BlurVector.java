package org.medjava.plugin.blur;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API halves of {@link BlurOptimized}: the column-sum updates and the interior run of a row, on as many
 * int lanes as the CPU has (16 with AVX-512). Integer arithmetic only, so the results equal the scalar code's.
 * Loaded only when {@link VectorSupport#AVAILABLE}.
 */
final class BlurVector {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    /** Bytes with as many lanes as {@link #INTS}: one byte load widens into one int vector. */
    private static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(INTS.length() * Byte.SIZE));
    private static final int LANES = INTS.length();

    private BlurVector() {
    }

    /** Widens {@code LANES} unsigned bytes at {@code i} to ints (sign-extend, then mask: works on JDK 17 and later). */
    private static IntVector load(byte[] in, int i) {
        return ((IntVector) ByteVector.fromArray(BYTES, in, i).convertShape(VectorOperators.B2I, INTS, 0)).and(0xFF);
    }

    static void addRow(byte[] in, int base, int[] col, int len) {
        int k = 0;
        for (int end = len - LANES; k <= end; k += LANES) {
            IntVector.fromArray(INTS, col, k).add(load(in, base + k)).intoArray(col, k);
        }
        for (; k < len; k++) {
            col[k] += in[base + k] & 0xFF;
        }
    }

    static void subRow(byte[] in, int base, int[] col, int len) {
        int k = 0;
        for (int end = len - LANES; k <= end; k += LANES) {
            IntVector.fromArray(INTS, col, k).sub(load(in, base + k)).intoArray(col, k);
        }
        for (; k < len; k++) {
            col[k] -= in[base + k] & 0xFF;
        }
    }

    static void addSubRow(byte[] in, int addBase, int subBase, int[] col, int len) {
        int k = 0;
        for (int end = len - LANES; k <= end; k += LANES) {
            IntVector.fromArray(INTS, col, k).add(load(in, addBase + k)).sub(load(in, subBase + k)).intoArray(col, k);
        }
        for (; k < len; k++) {
            col[k] += (in[addBase + k] & 0xFF) - (in[subBase + k] & 0xFF);
        }
    }

    /**
     * Interior bytes {@code [from, to)} of a row (byte offsets within the region row; their windows hold all
     * {@code 2h+1} columns): {@code out[o+j] = (Σ_{|d|≤h} col[j+3d] · m) >>> shift}. The vector loop stops where fewer
     * than a vector's worth of bytes is left. @return the first byte it did not write
     */
    static int interior(int[] col, byte[] out, int o, int from, int to, int h, int m, int shift) {
        if (h == 1) {
            return interior3(col, out, o, from, to, m, shift);
        }
        int j = from;
        for (int end = to - LANES; j <= end; j += LANES) {
            IntVector sum = IntVector.fromArray(INTS, col, j - 3 * h);
            for (int d = 1 - h; d <= h; d++) {
                sum = sum.add(IntVector.fromArray(INTS, col, j + 3 * d));
            }
            sum.mul(m).lanewise(VectorOperators.LSHR, shift).convertShape(VectorOperators.I2B, BYTES, 0)
                    .reinterpretAsBytes().intoArray(out, o + j);
        }
        return j;
    }

    /** {@link #interior} for n = 3 (the default), written out: no loop-carried vector for the JIT to box. */
    private static int interior3(int[] col, byte[] out, int o, int from, int to, int m, int shift) {
        int j = from;
        for (int end = to - LANES; j <= end; j += LANES) {
            IntVector sum = IntVector.fromArray(INTS, col, j - 3).add(IntVector.fromArray(INTS, col, j))
                    .add(IntVector.fromArray(INTS, col, j + 3));
            sum.mul(m).lanewise(VectorOperators.LSHR, shift).convertShape(VectorOperators.I2B, BYTES, 0)
                    .reinterpretAsBytes().intoArray(out, o + j);
        }
        return j;
    }
}
