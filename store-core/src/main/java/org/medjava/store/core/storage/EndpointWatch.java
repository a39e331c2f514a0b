package org.medjava.store.core.storage;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Whether an object storage endpoint can be connected to, known without asking it each time: once a connection to
 * it failed, every operation is refused at once ({@link #check}) instead of each going through the client's retries,
 * and a probe tries it every {@link #PROBE} until it answers. Only a failure of the transport counts (after the client's own retries), not an error answer.
 */
final class EndpointWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EndpointWatch.class.getName());
    static final Duration PROBE = Duration.ofMillis(500);

    /** Asks the endpoint something cheap; throws when it cannot be reached. */
    interface Probe {
        void run() throws Exception;
    }

    private final String endpoint;
    private final Probe probe;
    private final ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "storage-probe");
        t.setDaemon(true);
        return t;
    });
    private volatile Instant downSince;
    private volatile String error;
    private ScheduledFuture<?> probing; // guarded by this

    EndpointWatch(String endpoint, Probe probe) {
        this.endpoint = endpoint;
        this.probe = probe;
    }

    /** Refuses at once while the endpoint is known to be away. */
    void check(String what) throws StorageUnavailableException {
        Instant since = downSince;
        if (since != null) {
            throw new StorageUnavailableException("object storage at " + endpoint + " unreachable: cannot " + what
                    + ": no connection since " + since + " (" + error + "); try again when it is back", null);
        }
    }

    /** Takes note of a failure: when it was a failure to connect, operations are refused until a probe succeeds. */
    void failed(Throwable failure) {
        Throwable cause = connectFailure(failure);
        if (cause == null) {
            return;
        }
        synchronized (this) {
            error = String.valueOf(cause);
            if (downSince == null) {
                downSince = Instant.now();
                LOG.warning("object storage at " + endpoint + " cannot be connected to (" + error + "): requests"
                        + " that need it are answered 503 at once until it is back");
                probing = prober.scheduleWithFixedDelay(this::probe, PROBE.toMillis(), PROBE.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
        }
    }

    private void probe() {
        try {
            probe.run();
        } catch (Exception e) {
            LOG.log(Level.FINE, "object storage still unreachable", e);
            return;
        }
        synchronized (this) {
            LOG.info("object storage at " + endpoint + " answers again (unreachable since " + downSince + ")");
            downSince = null;
            probing.cancel(false);
        }
    }

    /**
     * The transport failure in {@code failure}'s causes, or null: a connection refused, no route, an unknown host, or
     * any other I/O failure below HTTP (a connection closed or reset before an answer: what a relay or balancer in
     * front of a stopped server gives). The client has retried it already, so the endpoint is taken as away; an
     * error answered by the server is not such a failure.
     */
    static Throwable connectFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IOException) { // ConnectException, UnknownHostException, NoHttpResponseException, ...
                return t;
            }
        }
        return null;
    }

    @Override
    public void close() {
        prober.shutdownNow();
    }
}
