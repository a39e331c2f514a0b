package org.medjava.plugin.blur;

/**
 * Division of a non-negative long by a constant {@code d} as a multiply and shift, {@code x / d == (x · m) >>> k},
 * for every {@code 0 ≤ x ≤ maxX}: with {@code m = ceil(2^k / d)} and {@code e = m·d − 2^k}, exact when
 * {@code maxX · e < 2^k} (the argument of {@link BlurOptimized#divide}) and {@code maxX · m} fits a long. The grey
 * blur's interior needs {@code maxX = 65535·d}, which works up to about {@code d = 46000} (n = 215 on full rows);
 * beyond, {@link #of} returns null and the caller divides.
 */
record LongDivision(long multiplier, int shift) {

    /** The smallest shift that works, or null when none does. */
    static LongDivision of(int d, long maxX) {
        for (int k = 0; k <= 62; k++) {
            long m = ((1L << k) + d - 1) / d;
            long e = m * d - (1L << k);
            if (Math.multiplyHigh(maxX, e) == 0 && maxX * e >= 0 && maxX * e < (1L << k)
                    && m <= Long.MAX_VALUE / Math.max(1, maxX)) {
                return new LongDivision(m, k);
            }
        }
        return null;
    }

    long divide(long x) {
        return (x * multiplier) >>> shift;
    }
}
