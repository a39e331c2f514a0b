package org.medjava.store.server.config;

/** The background jobs: how long a cluster's job survives its node's silence, and how large a series job may be. */
public record JobSettings(int leaseSeconds, int maxSeriesInstances) {

    /**
     * Seconds a cluster's job survives its node's silence (a running job's node beats every 5 s) before another node
     * runs it again.
     */
    static final Key LEASE_SECONDS = Key.of("medjava.jobs.lease-seconds", "15");

    /** The most instances one derive-series or deidentify job may copy (more: 413 when it is submitted). */
    static final Key MAX_SERIES_INSTANCES = Key.of("medjava.jobs.max-series-instances", "5000");

    public static JobSettings from(SettingsSource source) {
        return new JobSettings(SettingsSource.atLeast(LEASE_SECONDS, source.integer(LEASE_SECONDS), 1),
                SettingsSource.atLeast(MAX_SERIES_INSTANCES, source.integer(MAX_SERIES_INSTANCES), 1));
    }
}
