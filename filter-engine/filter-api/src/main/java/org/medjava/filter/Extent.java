package org.medjava.filter;

/**
 * The value of an "N" or "AxB" parameter (Pixelize's block, Spread's distance). {@code pair} tells which form
 * was given: Spread uses it to choose between diamond ("d") and box ("AxB") mode.
 */
public record Extent(int a, int b, boolean pair) {

    public static Extent square(int n) {
        return new Extent(n, n, false);
    }

    public static Extent of(int a, int b) {
        return new Extent(a, b, true);
    }

    @Override
    public String toString() {
        return pair ? a + "x" + b : Integer.toString(a);
    }
}
