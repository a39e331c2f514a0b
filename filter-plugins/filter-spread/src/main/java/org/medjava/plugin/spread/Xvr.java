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
    /** Scratch of the bulk {@link #next(int[], int)}: the 31 previous words, then the new ones. */
    private int[] work = new int[0];
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

    /**
     * Writes the next {@code count} outputs to {@code out[0..count)}; the same as {@code count} calls of next().
     * A copy of {@link #words}.
     */
    public void next(int[] out, int count) {
        final int[] w = words(count);
        for (int k = 0; k < count; k++) {
            out[k] = w[31 + k] >>> 1;
        }
    }

    /**
     * Advances by {@code count} outputs and returns the generator's scratch, whose words {@code [31, 31 + count)} are
     * r[i..i+count) (output k is {@code w[31 + k] >>> 1}); valid until the next call. Saves the caller a copy.
     *
     * <p>Bulk form: the 31 previous words and the new ones sit in one linear array ({@code w[j] = r[i − 31 + j]}), and
     * the recurrence runs as its three interleaved chains ({@code r[i]} needs {@code r[i−3]}, the previous word of its
     * own chain), each chain's last word kept in a local. In the one-word loop every word waited for a store and a
     * load three words back; here a chain step is one add, and the {@code r[i−31]} loads are long since stored.
     */
    int[] words(int count) {
        if (work.length < 31 + count) {
            work = new int[31 + count];
        }
        final int[] w = work;
        final int[] ring = this.ring;
        int i = this.i;
        for (int j = 0; j < 31; j++) {
            w[j] = ring[(i - 31 + j) & 31];
        }
        int c0 = w[28]; // r[i−3], r[i−2], r[i−1]: the last word of each chain
        int c1 = w[29];
        int c2 = w[30];
        int j = 31;
        for (int end = 31 + count - 2; j < end; j += 3) {
            c0 += w[j - 31];
            c1 += w[j - 30];
            c2 += w[j - 29];
            w[j] = c0;
            w[j + 1] = c1;
            w[j + 2] = c2;
        }
        for (; j < 31 + count; j++) {
            w[j] = w[j - 31] + w[j - 3];
        }
        i += count;
        for (int k = 0; k < 31; k++) { // r[i−31..i−1] back into the ring
            ring[(i - 31 + k) & 31] = w[count + k];
        }
        this.i = i;
        return w;
    }
}
