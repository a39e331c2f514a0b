package org.medjava.bench.zmq;

import java.util.List;

/**
 * What the ØMQ experiment runs: message sizes with their counts for latency (round trips) and throughput
 * (messages), how many times every process pair runs (the report gives the median and range), and the time limit
 * of one process.
 */
public record MessagingPlan(PerfPlan latency, PerfPlan throughput, int runs, int timeoutSeconds, boolean smokeTest) {
    /** ØMQ's whitepaper sizes, 1 B to 64 KiB. */
    public static final List<Integer> SIZES = List.of(1, 8, 64, 512, 4096, 65536);

    /**
     * The standard run: up to 20,000 round trips and 1,000,000 messages per size (fewer for big ones: at most
     * 256 MiB of round trips and 1 GiB of messages per size), three runs of every pair; about 5–8 minutes on 2 cores.
     */
    public static MessagingPlan full() {
        return new MessagingPlan(PerfPlan.scaled(SIZES, 20_000, 2_000, 256L << 20),
                PerfPlan.scaled(SIZES, 1_000_000, 10_000, 1L << 30), 3, 300, false);
    }

    /** The quick run's smoke test: tiny counts, one run; proves the pipeline, measures nothing worth reading. */
    public static MessagingPlan quick() {
        return new MessagingPlan(PerfPlan.scaled(SIZES, 300, 30, 4L << 20),
                PerfPlan.scaled(SIZES, 3_000, 100, 16L << 20), 1, 60, true);
    }
}
