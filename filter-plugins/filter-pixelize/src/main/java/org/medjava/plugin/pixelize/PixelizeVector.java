package org.medjava.plugin.pixelize;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API half of {@link PixelizeOptimized}: the per-column sums of a block row, a row of bytes widened and
 * added to int lanes at a time. Loaded only when {@link VectorSupport#AVAILABLE}.
 */
final class PixelizeVector {
    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(INTS.length() * Byte.SIZE));
    private static final int LANES = INTS.length();

    private PixelizeVector() {
    }

    private static IntVector load(byte[] in, int i) {
        return ((IntVector) ByteVector.fromArray(BYTES, in, i).convertShape(VectorOperators.B2I, INTS, 0)).and(0xFF);
    }

    /** {@code col[k] = in[base + k]} (unsigned) for k in {@code [0, len)}. */
    static void setRow(byte[] in, int base, int[] col, int len) {
        int k = 0;
        for (int end = len - LANES; k <= end; k += LANES) {
            load(in, base + k).intoArray(col, k);
        }
        for (; k < len; k++) {
            col[k] = in[base + k] & 0xFF;
        }
    }

    /** {@code col[k] += in[base + k]} (unsigned) for k in {@code [0, len)}. */
    static void addRow(byte[] in, int base, int[] col, int len) {
        int k = 0;
        for (int end = len - LANES; k <= end; k += LANES) {
            IntVector.fromArray(INTS, col, k).add(load(in, base + k)).intoArray(col, k);
        }
        for (; k < len; k++) {
            col[k] += in[base + k] & 0xFF;
        }
    }
}
