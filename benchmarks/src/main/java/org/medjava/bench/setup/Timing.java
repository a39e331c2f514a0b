package org.medjava.bench.setup;


/**
 * JMH iteration settings of a group. Iterations are short and few where one operation is long: every iteration runs
 * at least one operation, so a 5-second straightforward despeckle still gives a mean over a few runs. The Vector API
 * kernels run hundreds of times slower until C2 has compiled them (at 256², consecutive 0.25 s iterations measured
 * 262, 32, 16, 0.17, 0.074 ms/op); {@code FilterBenchmark} therefore pre-warms Java variants for a second on a small
 * image before these warm-up iterations start. Here, not in run: the FFM step times its own JMH run with it.
 */
public record Timing(int warmupIterations, double warmupSeconds, int iterations, double seconds, int forks) {

    /** One fork. */
    public Timing(int warmupIterations, double warmupSeconds, int iterations, double seconds) {
        this(warmupIterations, warmupSeconds, iterations, seconds, 1);
    }

    /**
     * The standard run (issue 35): 10 measured iterations in each of 2 forks, so every cell has 20 samples from two
     * JVMs (JIT decisions differ between forks) for its median's confidence interval; shorter iterations than the
     * full run's keep it within about three quarters of an hour.
     */
    public static Timing standard(ImageSize size) {
        return size.pixels() <= 1024 * 1024 ? new Timing(3, 0.2, 10, 0.2, 2) : new Timing(3, 0.3, 10, 0.3, 2);
    }

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
        return forks * (1.6 + warm + measure); // + fork start-up and set-up (pre-warm included)
    }
}
