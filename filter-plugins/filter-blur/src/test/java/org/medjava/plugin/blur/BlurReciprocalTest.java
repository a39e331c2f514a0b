package org.medjava.plugin.blur;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The interior of {@link BlurOptimized} divides by a reciprocal multiply. This proves, for every count d a window
 * can have (1..255², covering every product of a row count and a column count), that it equals integer division
 * for every sum 0..255·d.
 */
class BlurReciprocalTest {

    /** The inequality the proof in {@link BlurOptimized#divide} rests on, checked for every d. */
    @Test
    void errorTermStaysBelowOneForEveryCount() {
        for (int d = 1; d <= 255 * 255; d++) {
            long m = BlurOptimized.reciprocal(d);
            long e = m * d - (1L << BlurOptimized.SHIFT);
            assertThat(e).as("d=%d", d).isBetween(0L, d - 1L);
            assertThat(255L * d * e).as("d=%d", d).isLessThan(1L << BlurOptimized.SHIFT);
            assertThat(255L * d * m).as("no overflow, d=%d", d).isLessThan(Long.MAX_VALUE / 2);
        }
    }

    /**
     * Exhaustive in effect: both sides are non-decreasing in x, so agreeing at both ends of every quotient's run
     * {@code [q·d, q·d + d − 1]} (q = 0..255) means agreeing on the whole run, i.e. for every sum 0..255·d.
     */
    @Test
    void equalsIntegerDivisionForEverySumAndCount() {
        for (int d = 1; d <= 255 * 255; d++) {
            long m = BlurOptimized.reciprocal(d);
            for (int q = 0; q <= 255; q++) {
                int lo = q * d;
                int hi = q * d + d - 1;
                if (BlurOptimized.divide(lo, m) != q || (q < 255 && BlurOptimized.divide(hi, m) != q)) {
                    throw new AssertionError("d=" + d + " q=" + q);
                }
            }
            if (BlurOptimized.divide(255 * d, m) != 255) {
                throw new AssertionError("d=" + d + " x=255d");
            }
        }
    }

    @Test
    void spotChecksAgainstDivision() {
        for (int d : new int[] {1, 2, 3, 9, 25, 49, 255, 765, 65025, 65024, 254 * 255}) {
            long m = BlurOptimized.reciprocal(d);
            for (int x = 0; x <= 255 * d; x += 1 + d / 97) {
                assertThat(BlurOptimized.divide(x, m)).as("%d / %d", x, d).isEqualTo(x / d);
            }
        }
    }
}
