package org.medjava.store.server.config;

import java.time.Duration;
import org.medjava.store.core.route.Backoff;

/** Routing: the back-off of failed sends, the lease, batch and poll of the sending worker, the history's length. */
public record RouteSettings(Backoff backoff, Duration lease, int batch, Duration poll, Duration history) {

    /** The wait before a failed routing send is tried again; it doubles with each further failure. */
    static final Key BACKOFF_INITIAL = Key.of("medjava.route.backoff-initial-seconds", "5");

    /** The longest wait between two tries of a routing send. */
    static final Key BACKOFF_MAX = Key.of("medjava.route.backoff-max-seconds", "3600");

    /** Failed tries after which a routed instance is given up (the dead-letter list; an administrator may retry). */
    static final Key MAX_ATTEMPTS = Key.of("medjava.route.max-attempts", "10");

    /** How long a node holds the routing tasks it claimed: a node that dies leaves them to another after this. */
    static final Key LEASE_SECONDS = Key.of("medjava.route.lease-seconds", "300");

    /** The most instances a node sends to one destination at once (one association, one STOW-RS request). */
    static final Key BATCH = Key.of("medjava.route.batch", "50");

    /** How often an idle node looks for routing tasks that became due (queued ones are sent at once). */
    static final Key POLL_SECONDS = Key.of("medjava.route.poll-seconds", "2");

    /**
     * How long the routing history keeps a sent instance ({@code GET /routes/history}); older ones are forgotten
     * hourly. The queue and the dead-letter list are kept until sent, retried or removed.
     */
    static final Key HISTORY_DAYS = Key.of("medjava.route.history-days", "30");

    public static RouteSettings from(SettingsSource source) {
        double initial = source.decimal(BACKOFF_INITIAL);
        Backoff backoff = new Backoff(seconds(initial, 1, BACKOFF_INITIAL),
                seconds(Math.max(source.decimal(BACKOFF_MAX), initial), 1, BACKOFF_MAX),
                Math.max(1, source.integer(MAX_ATTEMPTS)));
        return new RouteSettings(backoff, Duration.ofSeconds(Math.max(10, source.integer(LEASE_SECONDS))),
                Math.max(1, Math.min(500, source.integer(BATCH))), seconds(source.decimal(POLL_SECONDS), 1,
                POLL_SECONDS), seconds(source.decimal(HISTORY_DAYS), 86_400, HISTORY_DAYS));
    }

    /** {@code value} units of {@code unitSeconds} each, when above 0. */
    private static Duration seconds(double value, double unitSeconds, Key key) {
        if (!(value > 0)) {
            throw new SettingException(key, value, "write a number above 0");
        }
        return Duration.ofMillis(Math.max(1, Math.round(value * unitSeconds * 1000)));
    }
}
