package org.medjava.bench.ipc;

/**
 * What experiment 3 of issue 20 (the transport's building blocks) measures: forks (fresh processes) per column,
 * warm-up seconds and timed runs per block, datagrams per UDP run (the paper's 100,000 in the full run).
 */
public record BlocksPlan(int forks, double warmupSeconds, int runs, int datagrams, int timeoutSeconds) {

    public static BlocksPlan full() {
        return new BlocksPlan(3, 0.5, 5, 100_000, 600);
    }

    /** A smoke test: one fork, one short run of each block, 10,000 datagrams. */
    public static BlocksPlan quick() {
        return new BlocksPlan(1, 0.02, 1, 10_000, 120);
    }
}
