package org.medjava.plugin.blur;

/**
 * Division by a constant {@code d} as a 32-bit multiply and shift, {@code x / d == (x · m) >>> k}, for the vector
 * kernels (vector lanes have a 32-bit multiply, not a 64-bit one). Exact for every {@code 0 ≤ x ≤ maxX} when
 * {@code maxX · e < 2^k} with {@code m = ceil(2^k / d)}, {@code e = m·d − 2^k} (the argument of
 * {@link BlurOptimized#divide}) and {@code maxX · m < 2^31} (no overflow). Blur's interior needs
 * {@code maxX = 255·d}; that works up to about {@code d = 181} (n = 11 on full rows).
 */
record IntDivision(int multiplier, int shift) {

    /** The smallest shift that works, or null when none does (then the scalar code divides). */
    static IntDivision of(int d, long maxX) {
        for (int k = 0; k <= 30; k++) {
            long m = ((1L << k) + d - 1) / d;
            long e = m * d - (1L << k);
            if (maxX * e < (1L << k) && maxX * m < (1L << 31)) {
                return new IntDivision((int) m, k);
            }
        }
        return null;
    }

    int divide(int x) {
        return (x * multiplier) >>> shift;
    }
}
