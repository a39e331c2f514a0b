package org.medjava.bench.setup;

import java.util.Locale;
import org.medjava.filter.GrayRaster16;

/**
 * The format of a 16-bit grey benchmark image as JMH params write it: {@code u16} (16 bits stored, unsigned: OpenCV's
 * {@code CV_16U}), {@code s16} (16 bits, two's complement: {@code CV_16S}); {@code u12}, {@code s10} etc. for fewer
 * bits stored (same OpenCV depth, a smaller value range).
 */
public record GrayFormat(int bitsStored, boolean signed) {
    public static final GrayFormat U16 = new GrayFormat(16, false);
    public static final GrayFormat S16 = new GrayFormat(16, true);

    public GrayFormat {
        GrayRaster16.minValue(bitsStored, signed); // validates bitsStored
    }

    public static GrayFormat parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.length() >= 2 && (t.charAt(0) == 'u' || t.charAt(0) == 's')) {
            try {
                return new GrayFormat(Integer.parseInt(t.substring(1)), t.charAt(0) == 's');
            } catch (IllegalArgumentException e) {
                // fall through to the message below
            }
        }
        throw new IllegalArgumentException("grey format must be uN or sN with N 1..16 (u16, s16, u12), got \""
                + text + "\"");
    }

    public int minValue() {
        return GrayRaster16.minValue(bitsStored, signed);
    }

    public int maxValue() {
        return GrayRaster16.maxValue(bitsStored, signed);
    }

    /** {@code "u16"}: the form {@link #parse} reads and JMH params carry. */
    @Override
    public String toString() {
        return (signed ? "s" : "u") + bitsStored;
    }

    /** {@code "16U"} / {@code "16S"}: OpenCV's name of the matrix depth holding the words. */
    public String openCvDepthName() {
        return signed ? "16S" : "16U";
    }
}
