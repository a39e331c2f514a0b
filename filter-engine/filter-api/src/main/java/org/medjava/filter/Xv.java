package org.medjava.filter;

/** Helpers shared by all xv filters (spec section 1). */
public final class Xv {
    private Xv() {
    }

    /** xv's luminance {@code (11r + 16g + 5b) >> 5}; {@code mono(v, v, v) == v}. */
    public static int mono(int r, int g, int b) {
        return (11 * r + 16 * g + 5 * b) >> 5;
    }

    public static int clamp(int v, int lo, int hi) {
        return v < lo ? lo : Math.min(v, hi);
    }

    public static double clamp(double v, double lo, double hi) {
        return v < lo ? lo : Math.min(v, hi);
    }
}
