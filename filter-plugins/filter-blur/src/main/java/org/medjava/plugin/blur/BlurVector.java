package org.medjava.plugin.blur;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API column sums of {@link BlurOptimized}: {@link ShortSums} (n ≤ 11: 16-bit sums, vector output) and
 * {@link IntSums} (larger n: int sums updated on vectors, scalar output). Integer arithmetic only, so the results
 * equal the scalar code's. Loaded only when {@link VectorSupport#AVAILABLE}.
 */
final class BlurVector {
    private static final VectorSpecies<Short> SHORTS = ShortVector.SPECIES_PREFERRED;
    /** Bytes with as many lanes as {@link #SHORTS}: one byte load widens into one short vector. */
    private static final VectorSpecies<Byte> SHORT_BYTES = bytes(SHORTS.length());
    /** Half a short vector widened to ints, and those ints narrowed back to bytes. */
    private static final VectorSpecies<Integer> HALF_INTS =
            VectorSpecies.of(int.class, VectorShape.forBitSize(SHORTS.length() / 2 * Integer.SIZE));
    private static final VectorSpecies<Byte> HALF_BYTES = bytes(SHORTS.length() / 2);
    /** Half a short vector's lanes in a species of their own: its sums widen to {@link #HALF_INTS} as part 0. */
    private static final VectorSpecies<Short> HALF_SHORTS =
            VectorSpecies.of(short.class, VectorShape.forBitSize(SHORTS.length() / 2 * Short.SIZE));
    private static final int HALF_LANES = SHORTS.length() / 2;
    private static final int SHORT_LANES = SHORTS.length();

    private static final VectorSpecies<Integer> INTS = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Byte> INT_BYTES = bytes(INTS.length());
    private static final int INT_LANES = INTS.length();

    private BlurVector() {
    }

    private static VectorSpecies<Byte> bytes(int lanes) {
        return VectorSpecies.of(byte.class, VectorShape.forBitSize(lanes * Byte.SIZE));
    }

    /**
     * 16-bit column sums for n ≤ {@link BlurOptimized#MAX_VECTOR_N}: a column of n bytes sums to at most 255·n and
     * a window of n columns to {@code 255·n·n < 2^15}, so short lanes hold every sum exactly.
     */
    static final class ShortSums implements BlurOptimized.ColumnSums {
        private final short[] col;
        private final int len;
        private final int sw;
        private final int n;
        private final int h;
        /** The interior's reciprocals by row count (1..n), made when first needed. */
        private final IntDivision[] divisions;

        ShortSums(int len, int sw, int n) {
            this.col = new short[len];
            this.len = len;
            this.sw = sw;
            this.n = n;
            this.h = n >> 1;
            this.divisions = new IntDivision[n + 1];
        }

        /** Widens {@code SHORT_LANES} unsigned bytes at {@code i} (sign-extend, then mask: JDK 17 and later). */
        private static ShortVector load(byte[] in, int i) {
            return ((ShortVector) ByteVector.fromArray(SHORT_BYTES, in, i)
                    .convertShape(VectorOperators.B2S, SHORTS, 0)).and((short) 0xFF);
        }

        @Override
        public void add(byte[] in, int base) {
            int k = 0;
            for (int end = len - SHORT_LANES; k <= end; k += SHORT_LANES) {
                ShortVector.fromArray(SHORTS, col, k).add(load(in, base + k)).intoArray(col, k);
            }
            for (; k < len; k++) {
                col[k] += (short) (in[base + k] & 0xFF);
            }
        }

        @Override
        public void sub(byte[] in, int base) {
            int k = 0;
            for (int end = len - SHORT_LANES; k <= end; k += SHORT_LANES) {
                ShortVector.fromArray(SHORTS, col, k).sub(load(in, base + k)).intoArray(col, k);
            }
            for (; k < len; k++) {
                col[k] -= (short) (in[base + k] & 0xFF);
            }
        }

        @Override
        public void addSub(byte[] in, int addBase, int subBase) {
            int k = 0;
            for (int end = len - SHORT_LANES; k <= end; k += SHORT_LANES) {
                ShortVector.fromArray(SHORTS, col, k).add(load(in, addBase + k)).sub(load(in, subBase + k))
                        .intoArray(col, k);
            }
            for (; k < len; k++) {
                col[k] += (short) ((in[addBase + k] & 0xFF) - (in[subBase + k] & 0xFF));
            }
        }

        /**
         * Border columns (clipped windows) sum their windows directly; the interior is {@link #interior}, its last
         * few bytes scalar.
         */
        @Override
        public void output(byte[] out, int o, int rowCount) {
            IntDivision division = divisions[rowCount];
            if (division == null) {
                division = IntDivision.of(rowCount * n, 255L * rowCount * n);
                divisions[rowCount] = division;
            }
            final int last = sw - 1;
            final int leftEnd = Math.min(h, sw);
            final int midEnd = Math.max(leftEnd, sw - h);
            for (int i = 0; i < leftEnd; i++) {
                borderPixel(out, o, i, Math.max(i - h, 0), Math.min(i + h, last), rowCount);
            }
            for (int i = midEnd; i < sw; i++) {
                borderPixel(out, o, i, Math.max(i - h, 0), Math.min(i + h, last), rowCount);
            }
            int m = division.multiplier();
            int shift = division.shift();
            int j = h == 1 ? interior3(out, o, 3 * leftEnd, 3 * midEnd, m, shift)
                    : interior(out, o, 3 * leftEnd, 3 * midEnd, m, shift);
            for (int end = 3 * midEnd; j < end; j++) {
                int sum = 0;
                for (int d = -h; d <= h; d++) {
                    sum += col[j + 3 * d];
                }
                out[o + j] = (byte) division.divide(sum);
            }
        }

        /** Pixel {@code i} of the row from its window columns {@code [c0, c1]}, by direct sums and divisions. */
        private void borderPixel(byte[] out, int o, int i, int c0, int c1, int rowCount) {
            int count = rowCount * (c1 - c0 + 1);
            int s0 = 0;
            int s1 = 0;
            int s2 = 0;
            for (int c = c0; c <= c1; c++) {
                s0 += col[3 * c];
                s1 += col[3 * c + 1];
                s2 += col[3 * c + 2];
            }
            out[o + 3 * i] = (byte) (s0 / count);
            out[o + 3 * i + 1] = (byte) (s1 / count);
            out[o + 3 * i + 2] = (byte) (s2 / count);
        }

        /**
         * Interior bytes {@code [from, to)} of a row (byte offsets within the region row; their windows hold all
         * {@code 2h+1} columns): {@code out[o+j] = (Σ_{|d|≤h} col[j+3d] · m) >>> shift}. The vector loop stops
         * where fewer than a vector's worth of bytes is left. @return the first byte it did not write
         */
        private int interior(byte[] out, int o, int from, int to, int m, int shift) {
            int j = from;
            for (int end = to - HALF_LANES; j <= end; j += HALF_LANES) {
                ShortVector sum = ShortVector.fromArray(HALF_SHORTS, col, j - 3 * h);
                for (int d = 1 - h; d <= h; d++) {
                    sum = sum.add(ShortVector.fromArray(HALF_SHORTS, col, j + 3 * d));
                }
                quotients(sum, m, shift).intoArray(out, o + j);
            }
            return j;
        }

        /**
         * {@link #interior} for n = 3 (the default), written out: no loop-carried vector for the JIT to box. The sums
         * are half-width short vectors, so each widens to ints whole (part 0): JDK 17 compiles the widening of a
         * full vector's upper half (part 1) much worse.
         */
        private int interior3(byte[] out, int o, int from, int to, int m, int shift) {
            int j = from;
            for (int end = to - HALF_LANES; j <= end; j += HALF_LANES) {
                ShortVector sum = ShortVector.fromArray(HALF_SHORTS, col, j - 3)
                        .add(ShortVector.fromArray(HALF_SHORTS, col, j))
                        .add(ShortVector.fromArray(HALF_SHORTS, col, j + 3));
                quotients(sum, m, shift).intoArray(out, o + j);
            }
            return j;
        }

        /** {@code (sum · m) >>> shift} per lane of a {@link #HALF_SHORTS} sum, as bytes: the product needs 32 bits. */
        private static ByteVector quotients(ShortVector sum, int m, int shift) {
            return ((IntVector) sum.convertShape(VectorOperators.S2I, HALF_INTS, 0)).mul(m)
                    .lanewise(VectorOperators.LSHR, shift).convertShape(VectorOperators.I2B, HALF_BYTES, 0)
                    .reinterpretAsBytes();
        }
    }

    /** Int column sums for n > {@link BlurOptimized#MAX_VECTOR_N}, updated on int lanes; the output is scalar. */
    static final class IntSums extends BlurOptimized.IntColumnSums {
        IntSums(int len, int sw, int h) {
            super(len, sw, h);
        }

        /** Widens {@code INT_LANES} unsigned bytes at {@code i} to ints (sign-extend, then mask). */
        private static IntVector load(byte[] in, int i) {
            return ((IntVector) ByteVector.fromArray(INT_BYTES, in, i).convertShape(VectorOperators.B2I, INTS, 0))
                    .and(0xFF);
        }

        @Override
        public void add(byte[] in, int base) {
            int k = 0;
            for (int end = len - INT_LANES; k <= end; k += INT_LANES) {
                IntVector.fromArray(INTS, col, k).add(load(in, base + k)).intoArray(col, k);
            }
            for (; k < len; k++) {
                col[k] += in[base + k] & 0xFF;
            }
        }

        @Override
        public void sub(byte[] in, int base) {
            int k = 0;
            for (int end = len - INT_LANES; k <= end; k += INT_LANES) {
                IntVector.fromArray(INTS, col, k).sub(load(in, base + k)).intoArray(col, k);
            }
            for (; k < len; k++) {
                col[k] -= in[base + k] & 0xFF;
            }
        }

        @Override
        public void addSub(byte[] in, int addBase, int subBase) {
            int k = 0;
            for (int end = len - INT_LANES; k <= end; k += INT_LANES) {
                IntVector.fromArray(INTS, col, k).add(load(in, addBase + k)).sub(load(in, subBase + k))
                        .intoArray(col, k);
            }
            for (; k < len; k++) {
                col[k] += (in[addBase + k] & 0xFF) - (in[subBase + k] & 0xFF);
            }
        }
    }
}
