package org.medjava.plugin.oilpaint;

/**
 * The window around (x, y): columns {@code x+lo .. x+hi} and rows {@code y+lo .. y+hi} (before clipping to the
 * region); {@code size = hi − lo + 1}.
 */
final class Window {
    final int lo;
    final int hi;
    final int size;

    private Window(int lo, int hi) {
        this.lo = lo;
        this.hi = hi;
        this.size = hi - lo + 1;
    }

    static Window of(int n, boolean centred) {
        if (centred) {
            int h = n / 2;
            return new Window(-h, h);
        }
        int adjusted = (n & 1) == 1 ? n + 1 : n; // xv's "force odd" step adds 1 to an odd n
        int h = adjusted / 2;
        return new Window(-h, h - 1);
    }

    @Override
    public String toString() {
        return "[" + lo + ".." + hi + "]";
    }
}
