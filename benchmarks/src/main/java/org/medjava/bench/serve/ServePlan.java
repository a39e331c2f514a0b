package org.medjava.bench.serve;

/**
 * How long the serve step measures: {@code rounds} interleaved rounds of {@code seconds} of wrk load per server and
 * case ({@code threads} threads, {@code connections} connections), after {@code storeWarmUp} seconds of load on the
 * store just after it started (its first 25 s recorded as its cold rate) and {@code peerWarmUp} seconds on each
 * peer; each other case gets {@code caseWarmUp} seconds per peer and {@code storeCaseWarmUp} on the store before its
 * first round, and before its HTTP/2 run (the store's JIT compiles each path on its own: the 39 KB reads are answered
 * by its front, WADO-RS by the servlet container behind it, which the 39 KB warm-up does not warm). {@code largeMiB} is the large file (0: none),
 * fetched by one connection for {@code largeSeconds} per cell. After the rounds, the store alone: {@code h2Seconds}
 * of HTTP/2 (h2load, 100 streams on one connection; issue 30 asks for a minute) and {@code overloadSeconds} of
 * overload (wrk, 512 connections).
 */
public record ServePlan(int rounds, int seconds, int storeWarmUp, int peerWarmUp, int caseWarmUp,
                        int storeCaseWarmUp, int threads, int connections, int largeMiB, int largeSeconds,
                        int h2Seconds, int overloadSeconds) {

    /** The standard run: 3 rounds of 5 s, 30 s of store warm-up, the 256 MiB file, 15 s of HTTP/2 and overload. */
    public static ServePlan standard() {
        return new ServePlan(3, 5, 30, 5, 2, 15, 2, 16, 256, 6, 15, 10).withOverrides();
    }

    /** The full run: 5 rounds of 10 s, a minute of store warm-up, a minute of HTTP/2 (issue 30's target). */
    public static ServePlan full() {
        return new ServePlan(5, 10, 60, 10, 3, 20, 2, 16, 256, 10, 60, 20).withOverrides();
    }

    /**
     * The same with {@code -Dmedjava.bench.serve.rounds|seconds|warmup|threads|connections|large|h2seconds|
     * overloadseconds=N} applied ({@code warmup}: the store's; {@code large=0} leaves the large file out).
     */
    ServePlan withOverrides() {
        return new ServePlan(get("rounds", rounds), get("seconds", seconds), get("warmup", storeWarmUp), peerWarmUp,
                caseWarmUp, storeCaseWarmUp, get("threads", threads), get("connections", connections), get("large", largeMiB),
                largeSeconds, get("h2seconds", h2Seconds), get("overloadseconds", overloadSeconds));
    }

    private static int get(String key, int value) {
        return Integer.getInteger("medjava.bench.serve." + key, value);
    }
}
