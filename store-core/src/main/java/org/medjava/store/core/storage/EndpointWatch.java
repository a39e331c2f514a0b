package org.medjava.store.core.storage;

import java.io.IOException;
import java.time.Instant;
import java.util.logging.Logger;
import org.medjava.store.core.Outage;

/**
 * Whether an object storage endpoint can be reached, known without asking it each time: once it could not be, every
 * operation is refused at once ({@link #check}) instead of each going through the client's retries, and a probe
 * tries it every {@link Outage#PROBE} until it answers. Only a failure of the transport counts (after the client's
 * own retries), not an error answer.
 */
final class EndpointWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EndpointWatch.class.getName());

    private final String endpoint;
    private final Outage outage;

    EndpointWatch(String endpoint, Outage.Probe probe) {
        this.endpoint = endpoint;
        this.outage = new Outage(LOG, "object storage at " + endpoint, "storage-probe", probe);
    }

    /** Refuses at once while the endpoint is known to be away. */
    void check(String what) throws StorageUnavailableException {
        Instant since = outage.downSince();
        if (since != null) {
            throw new StorageUnavailableException("object storage at " + endpoint + " unreachable: cannot " + what
                    + ": no connection since " + since + " (" + outage.error() + "); try again when it is back", null);
        }
    }

    /** Takes note of a failure: when the transport failed, operations are refused until a probe succeeds. */
    void failed(Throwable failure) {
        Throwable cause = connectFailure(failure);
        if (cause != null) {
            outage.markAway(String.valueOf(cause));
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
        outage.close();
    }
}
