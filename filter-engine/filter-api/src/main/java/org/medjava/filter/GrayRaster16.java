package org.medjava.filter;

import java.util.Arrays;

/**
 * A grey image of up to 16 bits per pixel, as medical modalities store it (DICOM's BitsStored and
 * PixelRepresentation): rows top to bottom, pixels left to right, one 16-bit word per pixel, no padding.
 *
 * <p><b>Values.</b> The raster holds {@code bitsStored} bits (1..16), unsigned or signed (two's complement). Its
 * value range is {@code [minValue(), maxValue()]}: {@code [0, 2^b − 1]} unsigned, {@code [−2^(b−1), 2^(b−1) − 1]}
 * signed. A word holds its value as Java holds it: unsigned values as the bit pattern ({@code word & 0xFFFF}),
 * signed values sign-extended to 16 bits (the {@code short} itself). A value outside the range is bad input:
 * {@link #requireValuesInRange()} names it; hosts check before filtering (high bits or overlay bits that DICOM may
 * carry above BitsStored are the decoder's business, never masked here).
 *
 * <p><b>Offset values.</b> The filters of {@code docs/xv-filters-16bit.md} work on {@code u = v − minValue()}, which
 * lies in {@code [0, range()]} for signed and unsigned rasters alike. From a word it is
 * {@code (word − minValue()) & 0xFFFF}, and back {@code (short) (u + minValue())} ({@link #offsetValue},
 * {@link #word}).
 *
 * <p>The word array is exposed directly, as {@link Raster}'s bytes are, because filters are kernels over it.
 */
public final class GrayRaster16 {
    /** Largest pixel count a raster may hold: the word array must stay addressable by an int. */
    public static final long MAX_PIXELS = Integer.MAX_VALUE - 8;

    private final int width;
    private final int height;
    private final int bitsStored;
    private final boolean signed;
    private final short[] words;

    /** A raster whose every value is 0 (for signed data the middle of the range, for unsigned the bottom). */
    public GrayRaster16(int width, int height, int bitsStored, boolean signed) {
        this(width, height, bitsStored, signed, new short[checkedLength(width, height)]);
    }

    /** Wraps {@code words} (not copied); its length must be exactly {@code width * height}. */
    public GrayRaster16(int width, int height, int bitsStored, boolean signed, short[] words) {
        int length = checkedLength(width, height);
        checkBits(bitsStored);
        if (words == null || words.length != length) {
            throw new IllegalArgumentException("word array of " + width + "x" + height + " grey raster must hold "
                    + length + " values, got " + (words == null ? "null" : words.length));
        }
        this.width = width;
        this.height = height;
        this.bitsStored = bitsStored;
        this.signed = signed;
        this.words = words;
    }

    private static int checkedLength(int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("raster size must be at least 1x1, got " + width + "x" + height);
        }
        if ((long) width * height > MAX_PIXELS) {
            throw new IllegalArgumentException("raster " + width + "x" + height + " exceeds " + MAX_PIXELS + " pixels");
        }
        return width * height;
    }

    private static void checkBits(int bitsStored) {
        if (bitsStored < 1 || bitsStored > 16) {
            throw new IllegalArgumentException("bits stored must be an integer from 1 to 16, got " + bitsStored
                    + "; grey data of more than 16 bits (or float data) has no raster the filters can run on");
        }
    }

    /** Smallest value of a {@code bitsStored}-bit signed or unsigned range: {@code −2^(b−1)} or 0. */
    public static int minValue(int bitsStored, boolean signed) {
        checkBits(bitsStored);
        return signed ? -(1 << (bitsStored - 1)) : 0;
    }

    /** Largest value of a {@code bitsStored}-bit signed or unsigned range: {@code 2^(b−1) − 1} or {@code 2^b − 1}. */
    public static int maxValue(int bitsStored, boolean signed) {
        return minValue(bitsStored, signed) + (1 << bitsStored) - 1;
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** DICOM's BitsStored: 1..16. */
    public int bitsStored() {
        return bitsStored;
    }

    /** DICOM's PixelRepresentation 1 (two's complement) when true, 0 (unsigned) when false. */
    public boolean signed() {
        return signed;
    }

    public int minValue() {
        return signed ? -(1 << (bitsStored - 1)) : 0;
    }

    public int maxValue() {
        return minValue() + range();
    }

    /** {@code maxValue() − minValue() = 2^bitsStored − 1}: the top of the offset values (255 for 8 bits). */
    public int range() {
        return (1 << bitsStored) - 1;
    }

    /** The backing array itself, not a copy: one word per pixel, row-major. */
    public short[] words() {
        return words;
    }

    /** The value a word holds in a raster of this signedness. */
    public static int value(short word, boolean signed) {
        return signed ? word : word & 0xFFFF;
    }

    /** The value of the pixel at (x, y), in {@code [minValue(), maxValue()]} for valid data. */
    public int valueAt(int x, int y) {
        return value(words[index(x, y)], signed);
    }

    /**
     * Sets the pixel at (x, y).
     *
     * @throws IllegalArgumentException if the value is outside {@code [minValue(), maxValue()]}
     */
    public void setValue(int x, int y, int value) {
        int i = index(x, y);
        if (value < minValue() || value > maxValue()) {
            throw new IllegalArgumentException("grey value " + value + " for (" + x + "," + y + ") is outside "
                    + rangeText());
        }
        words[i] = (short) value;
    }

    /** {@code u = v − minValue()} of the word at array index {@code i}, in {@code [0, range()]}. */
    public int offsetValue(int i) {
        return (words[i] - minValue()) & 0xFFFF;
    }

    /** The word holding offset value {@code u} in a raster whose range starts at {@code minValue}. */
    public static short word(int u, int minValue) {
        return (short) (u + minValue);
    }

    private int index(int x, int y) {
        if (x < 0 || y < 0 || x >= width || y >= height) {
            throw new IndexOutOfBoundsException("(" + x + "," + y + ") outside " + width + "x" + height);
        }
        return y * width + x;
    }

    /** Array index of the first pixel whose value is outside the range, or −1. */
    public int firstValueOutOfRange() {
        int min = minValue();
        int max = maxValue();
        if (bitsStored == 16) {
            return -1; // every word is a valid value
        }
        for (int i = 0; i < words.length; i++) {
            int v = signed ? words[i] : words[i] & 0xFFFF;
            if (v < min || v > max) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Checks that every value lies in the raster's range.
     *
     * @throws IllegalArgumentException naming the first value outside it, its position and the range
     */
    public void requireValuesInRange() {
        int i = firstValueOutOfRange();
        if (i >= 0) {
            throw new IllegalArgumentException("grey value " + value(words[i], signed) + " at (" + i % width + ","
                    + i / width + ") is outside " + rangeText() + "; the data does not match its bits stored "
                    + "and signedness");
        }
    }

    /** E.g. "the 12-bit signed range -2048..2047". */
    private String rangeText() {
        return "the " + bitsStored + "-bit " + (signed ? "signed" : "unsigned") + " range " + minValue() + ".."
                + maxValue();
    }

    /** What the data is, for messages: e.g. "12-bit signed grey". */
    public String describe() {
        return describe(bitsStored, signed);
    }

    /** E.g. "16-bit unsigned grey". */
    public static String describe(int bitsStored, boolean signed) {
        return bitsStored + "-bit " + (signed ? "signed" : "unsigned") + " grey";
    }

    public GrayRaster16 copy() {
        return new GrayRaster16(width, height, bitsStored, signed, words.clone());
    }

    /** Copies all values of {@code source}, which must have the same size and representation. */
    public void copyFrom(GrayRaster16 source) {
        requireSameFormat(source);
        System.arraycopy(source.words, 0, words, 0, words.length);
    }

    public boolean sameSize(GrayRaster16 other) {
        return other.width == width && other.height == height;
    }

    /** Same size, bits stored and signedness. */
    public boolean sameFormat(GrayRaster16 other) {
        return sameSize(other) && other.bitsStored == bitsStored && other.signed == signed;
    }

    /** @throws IllegalArgumentException naming what differs */
    public void requireSameFormat(GrayRaster16 other) {
        if (!sameSize(other)) {
            throw new IllegalArgumentException("raster sizes differ: " + width + "x" + height + " and "
                    + other.width + "x" + other.height);
        }
        if (other.bitsStored != bitsStored || other.signed != signed) {
            throw new IllegalArgumentException("raster formats differ: " + describe() + " and " + other.describe());
        }
    }

    /** Same size, format and words. */
    public boolean sameContent(GrayRaster16 other) {
        return sameFormat(other) && Arrays.equals(words, other.words);
    }

    public Region bounds() {
        return new Region(0, 0, width, height);
    }

    @Override
    public String toString() {
        return "GrayRaster16[" + width + "x" + height + ", " + describe() + "]";
    }
}
