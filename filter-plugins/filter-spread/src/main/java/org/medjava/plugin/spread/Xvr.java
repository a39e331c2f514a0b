package org.medjava.plugin.spread;

/**
 * XVR, the portable random generator of spec 2.8: an exact re-implementation of glibc's default {@code random()}
 * (the additive "TYPE_3" generator, degree 31, separation 3), so that a seeded Spread reproduces xv on glibc.
 *
 * <pre>
 *   r[0] = s (a seed of 0 is taken as 1)
 *   r[i] = (16807 · r[i−1]) mod (2^31 − 1)    i = 1..30, exact 64-bit product
 *   r[i] = r[i−31]                           i = 31..33
 *   r[i] = (r[i−31] + r[i−3]) mod 2^32       i ≥ 34
 *   output k = r[344 + k] >> 1 (unsigned)    k = 0, 1, …; r[34..343] are discarded
 * </pre>
 *
 * <p>{@code int} addition wraps mod 2^32, and {@code >>> 1} is the unsigned shift. A ring of 32 words holds
 * r[i−32..i−1]; since −31 ≡ 1 (mod 32), r[i−31] sits at {@code (i+1) & 31}, and r[i] overwrites r[i−32].
 * Not thread-safe: one generator per filter run.
 */
public final class Xvr {
    /** Largest seed; seeds are 0..2^31−1. */
    public static final int MAX_SEED = Integer.MAX_VALUE;

    private final int[] ring = new int[32];
    /** Index i of the next r[i] to compute. */
    private int i;

    /**
     * @param seed 0..2^31−1; 0 is treated as 1
     * @throws IllegalArgumentException for a negative seed
     */
    public Xvr(int seed) {
        if (seed < 0) {
            throw new IllegalArgumentException("XVR seed must be 0..2147483647, got " + seed);
        }
        long r = seed == 0 ? 1 : seed;
        int[] init = new int[34];
        init[0] = (int) r;
        for (int k = 1; k <= 30; k++) {
            r = (16807L * r) % 2147483647L;
            init[k] = (int) r;
        }
        init[31] = init[0];
        init[32] = init[1];
        init[33] = init[2];
        for (int k = 2; k <= 33; k++) {
            ring[k & 31] = init[k];
        }
        i = 34;
        for (int k = 34; k < 344; k++) {
            step();
        }
    }

    /** r[i] from the ring, stored in place of r[i−32]. */
    private int step() {
        int v = ring[(i + 1) & 31] + ring[(i - 3) & 31];
        ring[i & 31] = v;
        i++;
        return v;
    }

    /** The next output, 0..2^31−1. */
    public int next() {
        return step() >>> 1;
    }

    /** Writes the next {@code count} outputs to {@code out[0..count)}; the same as {@code count} calls of next(). */
    public void next(int[] out, int count) {
        final int[] ring = this.ring;
        int i = this.i;
        for (int k = 0; k < count; k++, i++) {
            int v = ring[(i + 1) & 31] + ring[(i - 3) & 31];
            ring[i & 31] = v;
            out[k] = v >>> 1;
        }
        this.i = i;
    }
}
