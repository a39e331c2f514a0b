package org.medjava.bench.setup;


/**
 * JMH iteration settings of a group. Iterations are short and few where one operation is long: every iteration runs
 * at least one operation, so a 5-second straightforward despeckle still gives a mean over a few runs. The Vector API
 * kernels run hundreds of times slower until C2 has compiled them (at 256², consecutive 0.25 s iterations measured
 * 262, 32, 16, 0.17, 0.074 ms/op); {@code FilterBenchmark} therefore pre-warms Java variants for a second on a small
 * image before these warm-up iterations start. Here, not in run: the FFM step times its own JMH run with it.
 */
public record Timing(int warmupIterations, double warmupSeconds, int iterations, double seconds) {

    /** The full run: longer iterations for bigger images, fewer for the slow straightforward ports. */
    public static Timing full(ImageSize size, boolean slowImplementations) {
        long px = size.pixels();
        if (px <= 1024 * 1024) {
            return new Timing(2, 0.3, 3, 0.3);
        }
        if (slowImplementations) {
            return new Timing(1, 0.5, 2, 0.5);
        }
        return new Timing(2, 0.4, 3, 0.5);
    }

    /** The quick run: enough to prove the pipeline, not to measure. */
    public static Timing quick() {
        return new Timing(1, 0.1, 2, 0.1);
    }

    /** Rough wall time of one benchmark with this timing whose operation takes {@code opSeconds}. */
    public double estimateSeconds(double opSeconds) {
        double warm = warmupIterations * Math.max(warmupSeconds, opSeconds);
        double measure = iterations * Math.max(seconds, opSeconds);
        return 1.6 + warm + measure; // + fork start-up and set-up (pre-warm included)
    }
}
