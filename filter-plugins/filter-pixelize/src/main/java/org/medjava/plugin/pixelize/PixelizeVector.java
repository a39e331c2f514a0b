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
    /** Rows of a block row summed in registers at once: one stream of the image per row in flight. */
    static final int ROWS_AT_ONCE = 8;

    private PixelizeVector() {
    }

    private static IntVector load(byte[] in, int i) {
        return ((IntVector) ByteVector.fromArray(BYTES, in, i).convertShape(VectorOperators.B2I, INTS, 0)).and(0xFF);
    }

    /**
     * {@code col[k] = Σ in[base + r·stride + k]} (unsigned) over {@code rows} rows, for k in {@code [0, len)}. Up
     * to {@link #ROWS_AT_ONCE} rows are added in registers before a vector of sums is stored: with a row at a time,
     * the int sums (four times the row's bytes, beyond L1 for wide images) were loaded and stored once per row.
     */
    static void sumRows(byte[] in, int base, int stride, int rows, int[] col, int len) {
        for (int r0 = 0; r0 < rows; r0 += ROWS_AT_ONCE) {
            int n = Math.min(ROWS_AT_ONCE, rows - r0);
            int first = base + r0 * stride;
            boolean more = r0 > 0;
            int k = 0;
            for (int end = len - LANES; k <= end; k += LANES) {
                IntVector sum = load(in, first + k);
                for (int r = 1, o = first + stride + k; r < n; r++, o += stride) {
                    sum = sum.add(load(in, o));
                }
                if (more) {
                    sum = sum.add(IntVector.fromArray(INTS, col, k));
                }
                sum.intoArray(col, k);
            }
            for (; k < len; k++) {
                int sum = more ? col[k] : 0;
                for (int r = 0, o = first + k; r < n; r++, o += stride) {
                    sum += in[o] & 0xFF;
                }
                col[k] = sum;
            }
        }
    }
}
