package org.medjava.store.server.config;

import java.time.Duration;
import org.medjava.store.core.trash.Trash;

/** Deletion: the trash's grace and purge, the guard against deleting too much, the retention rules' round. */
public record TrashSettings(Trash.Settings trash, Duration purgeInterval, Duration retentionInterval) {

    /**
     * How long a deleted study, series or instance stays in the trash, restorable, before the purge removes its
     * files (fractions allowed; 0: purged at the next round of the purge).
     */
    static final Key GRACE_HOURS = Key.of("medjava.trash.grace-hours", "72");

    /** How often the background purge looks for trashed files whose grace period has ended. */
    static final Key PURGE_INTERVAL = Key.of("medjava.trash.purge-interval-seconds", "60");

    /**
     * The largest share of the store's instances (0 to 1) one deletion may take unless an administrator forces it
     * ({@code force=true}): a guard against deleting everything by mistake.
     */
    static final Key GUARD_SHARE = Key.of("medjava.delete.guard-share", "0.25");

    /**
     * Deletions of fewer instances than this are never held by the guard (a small store's studies are large shares).
     */
    static final Key GUARD_MIN_INSTANCES = Key.of("medjava.delete.guard-min-instances", "1000");

    /** How often the enabled retention rules run (each moves what it selects to the trash). */
    static final Key RETENTION_INTERVAL = Key.of("medjava.retention.interval-minutes", "60");

    public static TrashSettings from(SettingsSource source) {
        double grace = source.decimal(GRACE_HOURS);
        if (!(grace >= 0)) {
            throw new SettingException(GRACE_HOURS, grace, "write a number of hours, 0 or more");
        }
        double share = source.decimal(GUARD_SHARE);
        if (!(share >= 0 && share <= 1)) {
            throw new SettingException(GUARD_SHARE, share, "write a share from 0 to 1, e.g. 0.25");
        }
        return new TrashSettings(new Trash.Settings(Duration.ofMillis(Math.round(grace * 3_600_000)), share,
                SettingsSource.atLeast(GUARD_MIN_INSTANCES, source.whole(GUARD_MIN_INSTANCES), 0)),
                Duration.ofSeconds(Math.max(1, source.integer(PURGE_INTERVAL))),
                Duration.ofMinutes(Math.max(1, source.integer(RETENTION_INTERVAL))));
    }
}
