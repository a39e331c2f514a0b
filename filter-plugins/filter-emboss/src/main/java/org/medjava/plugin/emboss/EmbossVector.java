package org.medjava.plugin.emboss;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;
import org.medjava.filter.VectorSupport;

/**
 * The Vector API half of {@link EmbossOptimized}: an interior row on short lanes (|S| ≤ 1020 and the channel values
 * fit 16 bits, so twice the lanes of int), then MONO across the interleaved channels, one of two ways:
 * <ul>
 *   <li>{@link #interiorShuffled}: in registers. A vector starts at a pixel; three lane shuffles give every lane its
 *       pixel's R, G and B, so {@code (11·R + 16·G + 5·B) >> 5} lands in all three of the pixel's lanes and the vector
 *       is stored as it is. The last {@code LANES mod 3} lanes hold a partial pixel: the next vector starts there and
 *       writes them again.</li>
 *   <li>{@link #interiorScratch}: the channel values to a scratch row, then {@link MonoVector} (shifted loads and
 *       blends).</li>
 * </ul>
 * The shuffles pay where a short shuffle is one instruction (AVX-512's {@code vpermw}: 512-bit short vectors):
 * JMH at 1024², JDK 17, ÷ C -O3 native 1.32 → 1.13 (4096²: 1.18 → 1.01). With {@code -XX:UseAVX=2} (256-bit
 * vectors), three alternating runs at 1024²: scratch row 1.32–1.60 ms, shuffles 1.90–1.97 (4096²: no clear
 * difference), so narrower vectors keep the scratch row ({@link #SHUFFLES_PAY}). Loaded only when
 * {@link VectorSupport#AVAILABLE}.
 */
final class EmbossVector {
    static final VectorSpecies<Short> SHORTS = MonoVector.SHORTS;
    /** Bytes with as many lanes as {@link #SHORTS}. */
    static final VectorSpecies<Byte> BYTES =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(SHORTS.length() * Byte.SIZE));
    private static final int LANES = SHORTS.length();
    /** Whether {@link EmbossOptimized} takes {@link #interiorShuffled}: 512-bit short vectors (see above). */
    static final boolean SHUFFLES_PAY = SHORTS.vectorBitSize() >= 512;
    /** Whole pixels a vector: how far a shuffled vector moves each step. */
    private static final int STEP = LANES - LANES % 3;
    /** Lane → the lane of its pixel's first, second, third channel (the partial pixel's lanes keep their own). */
    private static final VectorShuffle<Short> RED = channelOfPixel(0);
    private static final VectorShuffle<Short> GREEN = channelOfPixel(1);
    private static final VectorShuffle<Short> BLUE = channelOfPixel(2);

    private EmbossVector() {
    }

    private static VectorShuffle<Short> channelOfPixel(int channel) {
        int[] lanes = new int[LANES];
        for (int l = 0; l < LANES; l++) {
            lanes[l] = l < STEP ? l - l % 3 + channel : l;
        }
        return VectorShuffle.fromArray(SHORTS, lanes, 0);
    }

    /** Scratch an interior row of {@code sw} pixels needs for {@link #interiorScratch} (two short arrays). */
    static int scratchLength(int sw) {
        return 3 * sw + 2 * LANES;
    }

    private static ShortVector load(byte[] in, int i) {
        return ((ShortVector) ByteVector.fromArray(BYTES, in, i).convertShape(VectorOperators.B2S, SHORTS, 0))
                .and((short) 0xFF);
    }

    /** {@code 128 + T} of the row's bytes {@code k ..} (offsets as in {@link #interiorShuffled}). */
    private static ShortVector channels(byte[] in, int up, int mid, int down, int k, boolean floorRounding) {
        // S = 2·P(+1,+1) + P(0,+1) + P(+1,0) − P(−1,0) − P(0,−1) − 2·P(−1,−1)
        ShortVector s = load(in, down + k + 3).lanewise(VectorOperators.LSHL, 1)
                .add(load(in, down + k)).add(load(in, mid + k + 3))
                .sub(load(in, mid + k - 3)).sub(load(in, up + k))
                .sub(load(in, up + k - 3).lanewise(VectorOperators.LSHL, 1));
        ShortVector t = floorRounding ? s.lanewise(VectorOperators.ASHR, 3)
                // toward zero: add 7 to negative sums before the arithmetic shift
                : s.add(s.lanewise(VectorOperators.ASHR, 15).and((short) 7)).lanewise(VectorOperators.ASHR, 3);
        return t.add((short) 128);
    }

    /**
     * Interior pixels {@code 1 .. sw−2} of one row: {@code up}, {@code mid}, {@code down} are the byte offsets of
     * the region row's first pixel in the rows above, at and below (output row = {@code mid}).
     */
    static void interiorShuffled(byte[] in, byte[] out, int up, int mid, int down, int sw, boolean floorRounding) {
        final int to = 3 * sw - 3;
        int k = 3;
        for (int end = to - LANES; k <= end; k += STEP) {
            ShortVector t = channels(in, up, mid, down, k, floorRounding);
            t.rearrange(RED).mul((short) 11)
                    .add(t.rearrange(GREEN).lanewise(VectorOperators.LSHL, 4))
                    .add(t.rearrange(BLUE).mul((short) 5))
                    .lanewise(VectorOperators.ASHR, 5)
                    .convertShape(VectorOperators.S2B, BYTES, 0).reinterpretAsBytes().intoArray(out, mid + k);
        }
        for (; k < to; k += 3) { // the last pixels, one at a time (k is a pixel's first byte)
            int r = channel(in, up, mid, down, k, floorRounding);
            int g = channel(in, up, mid, down, k + 1, floorRounding);
            int b = channel(in, up, mid, down, k + 2, floorRounding);
            byte v = (byte) ((11 * r + 16 * g + 5 * b) >> 5);
            out[mid + k] = v;
            out[mid + k + 1] = v;
            out[mid + k + 2] = v;
        }
    }

    /** {@link #interiorShuffled} through the scratch rows {@code c} and {@code q} ({@link #scratchLength}). */
    static void interiorScratch(byte[] in, byte[] out, int up, int mid, int down, int sw, boolean floorRounding,
                                short[] c, short[] q) {
        final int to = 3 * sw - 3;
        int k = 3;
        for (int end = to - LANES; k <= end; k += LANES) {
            channels(in, up, mid, down, k, floorRounding).intoArray(c, k);
        }
        for (; k < to; k++) {
            c[k] = (short) channel(in, up, mid, down, k, floorRounding);
        }
        MonoVector.mono(c, q, out, mid, 3, to);
    }

    /** {@code 128 + T} of byte {@code k} of the row. */
    private static int channel(byte[] in, int up, int mid, int down, int k, boolean floorRounding) {
        int s = 2 * (in[down + k + 3] & 0xFF) + (in[down + k] & 0xFF) + (in[mid + k + 3] & 0xFF)
                - (in[mid + k - 3] & 0xFF) - (in[up + k] & 0xFF) - 2 * (in[up + k - 3] & 0xFF);
        return 128 + (floorRounding ? s >> 3 : s / 8);
    }
}
