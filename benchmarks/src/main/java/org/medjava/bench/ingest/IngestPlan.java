package org.medjava.bench.ingest;

/**
 * How long the ingest step measures: {@code rounds} interleaved rounds in which every server receives {@code instances}
 * new instances per protocol and number of senders, after an untimed warm-up per protocol of at least
 * {@code storeWarmUp} instances into the store (its JIT compiles the ingest path, as in a server that has run for a
 * while) and {@code peerWarmUp} into Orthanc, continued until the rate is steady ({@link IngestStep}).
 */
public record IngestPlan(int rounds, int instances, int storeWarmUp, int peerWarmUp) {

    /**
     * The standard run: 3 rounds of 500 instances per cell (about 3 minutes with the store's start). The store's
     * warm-up is at least 10,000 instances a protocol: STOW-RS was still getting faster after 6,000.
     */
    public static IngestPlan standard() {
        return new IngestPlan(3, 500, 10_000, 300).withOverrides();
    }

    /** The full run: 5 rounds of 1,500 instances per cell. */
    public static IngestPlan full() {
        return new IngestPlan(5, 1500, 15_000, 500).withOverrides();
    }

    /** The same with {@code -Dmedjava.bench.ingest.rounds|instances|warmup=N} applied ({@code warmup}: the store's). */
    IngestPlan withOverrides() {
        return new IngestPlan(get("rounds", rounds), get("instances", instances), get("warmup", storeWarmUp),
                peerWarmUp);
    }

    private static int get(String key, int value) {
        return Integer.getInteger("medjava.bench.ingest." + key, value);
    }
}
