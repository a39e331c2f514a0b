package org.medjava.plugin.spread;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The reciprocal quotient of {@link SpreadOptimized} equals {@code /} for every divisor and every draw. */
class SpreadOptimizedTest {

    /** Every divisor the fast path can meet: 1 .. 2·65535+1. The proof's inequalities, checked for each. */
    @Test
    void proofConditionsHoldForEveryDivisor() {
        for (int m = 1; m <= 2 * 65535 + 1; m++) {
            int s = SpreadOptimized.shift(m);
            long mul = SpreadOptimized.multiplier(m);
            long e = mul * m - (1L << s);
            assertThat(1L << (s - 31)).as("2^L >= m, m=%d", m).isGreaterThanOrEqualTo(m);
            assertThat(e).as("m=%d", m).isBetween(0L, m - 1L);
            // r·e < 2^S for every r < 2^31, and r·M does not overflow
            assertThat(Math.multiplyHigh(Integer.MAX_VALUE, e) == 0 && Integer.MAX_VALUE * e < (1L << s))
                    .as("m=%d", m).isTrue();
            assertThat(Math.multiplyHigh(Integer.MAX_VALUE, mul)).as("m=%d", m).isZero();
            assertThat(Integer.MAX_VALUE * mul).as("m=%d", m).isPositive();
        }
    }

    /** Both sides are non-decreasing in r: checking both ends of runs and extreme draws for every divisor. */
    @Test
    void quotientEqualsDivision() {
        int[] draws = {0, 1, 2, 1804289383, 846930886, Integer.MAX_VALUE, Integer.MAX_VALUE - 1, 1 << 30};
        for (int m = 1; m <= 2 * 65535 + 1; m++) {
            int s = SpreadOptimized.shift(m);
            long mul = SpreadOptimized.multiplier(m);
            for (int r : draws) {
                check(r, m, mul, s);
            }
            // both ends of the last complete quotient run and around multiples near the top
            long qMax = Integer.MAX_VALUE / m;
            for (long q = Math.max(0, qMax - 3); q <= qMax; q++) {
                long lo = q * m;
                if (lo <= Integer.MAX_VALUE) {
                    check((int) lo, m, mul, s);
                }
                if (lo - 1 >= 0 && lo - 1 <= Integer.MAX_VALUE) {
                    check((int) (lo - 1), m, mul, s);
                }
            }
        }
    }

    @Test
    void quotientEqualsDivisionExhaustivelyForSmallDivisors() {
        for (int m : new int[] {1, 2, 3, 5, 7, 11, 131071}) {
            int s = SpreadOptimized.shift(m);
            long mul = SpreadOptimized.multiplier(m);
            for (long r = 0; r <= Integer.MAX_VALUE; r += 4093) {
                check((int) r, m, mul, s);
            }
        }
    }

    private static void check(int r, int m, long mul, int s) {
        if (SpreadOptimized.quotient(r, mul, s) != r / m) {
            throw new AssertionError(r + " / " + m);
        }
    }
}
