package org.medjava.store.core;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Whether a dependency (the index database, the object storage) is known to be away, so that callers are refused at
 * once instead of each waiting out its timeouts: {@link #markAway} starts it, a probe every {@link #PROBE} ends it
 * when the dependency answers again. What counts as "away" is the caller's to decide.
 */
public final class Outage implements AutoCloseable {

    /** How often an absent dependency is tried again. */
    public static final Duration PROBE = Duration.ofMillis(500);

    /** Asks the dependency something cheap; throws when it does not answer. */
    @FunctionalInterface
    public interface Probe {
        void run() throws Exception;
    }

    private final Logger log;
    private final String what;
    private final Probe probe;
    private final ScheduledExecutorService prober;
    private volatile Instant downSince;
    private volatile String error;
    private ScheduledFuture<?> probing; // guarded by this

    /**
     * @param what   the dependency as the log names it ("the database jdbc:postgresql://...")
     * @param thread the name of the probe's thread
     */
    public Outage(Logger log, String what, String thread, Probe probe) {
        this.log = log;
        this.what = what;
        this.probe = probe;
        this.prober = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, thread);
            t.setDaemon(true);
            return t;
        });
    }

    /** Whether the dependency is believed to answer. */
    public boolean reachable() {
        return downSince == null;
    }

    /** Since when it is away, or null. */
    public Instant downSince() {
        return downSince;
    }

    /** Why it is taken as away (the last failure), or null. */
    public String error() {
        return error;
    }

    /** Takes it as away because of {@code reason} (the first one is kept), until a probe finds it back. */
    public synchronized void markAway(String reason) {
        if (downSince == null) {
            error = reason;
            downSince = Instant.now();
            log.warning(what + " is unreachable (" + reason + "): requests that need it are answered 503 at once"
                    + " until it is back");
            probing = prober.scheduleWithFixedDelay(this::probe, PROBE.toMillis(), PROBE.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
    }

    private void probe() {
        try {
            probe.run();
        } catch (Exception e) {
            log.log(Level.FINE, what + " is still unreachable", e);
            return;
        }
        synchronized (this) {
            log.info(what + " answers again (unreachable since " + downSince + ")");
            downSince = null;
            probing.cancel(false);
        }
    }

    @Override
    public void close() {
        prober.shutdownNow();
    }
}
