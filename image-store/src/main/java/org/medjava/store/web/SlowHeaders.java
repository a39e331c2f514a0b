package org.medjava.store.web;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.http.HttpProbe;
import org.glassfish.grizzly.http.server.HttpServerFilter;
import org.glassfish.grizzly.http.server.HttpServerProbe;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.Response;

/**
 * Closes a connection whose request line and headers have not all arrived within the header timeout
 * ({@code medjava.http.header-timeout-seconds}), as nginx's {@code client_header_timeout} does. Grizzly has no such
 * limit, and its idle timeout restarts with every byte: a client sending a header a byte a second held a connection
 * (and a slot of every limit counted in connections) for ever. It watches through Grizzly's public monitoring probes:
 * bytes arriving on a connection with no request in progress start the clock ({@link HttpProbe}); a request whose
 * headers were read stops it, and the end of the connection's last request in progress lets it start again
 * ({@link HttpServerProbe}). A sweep every second closes the connections past their deadline.
 */
final class SlowHeaders implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SlowHeaders.class.getName());

    private final long timeoutNanos;
    /** Every open connection that has sent bytes, until it closes. */
    private final Map<Connection<?>, State> connections = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper;

    /** A connection's requests in progress (HTTP/2 runs several at once) and, with none, its header deadline. */
    private static final class State {
        final AtomicInteger inProgress = new AtomicInteger();
        /** System.nanoTime() by which the headers must be complete; 0: no clock running */
        volatile long deadline;
    }

    SlowHeaders(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
        this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "medjava-header-timeout");
            t.setDaemon(true);
            return t;
        });
        sweeper.scheduleWithFixedDelay(this::sweep, 1, 1, TimeUnit.SECONDS);
    }

    /** The probe for the HTTP codec: bytes arrived. */
    HttpProbe dataProbe() {
        return new HttpProbe.Adapter() {
            @Override
            public void onDataReceivedEvent(Connection connection, Buffer buffer) {
                received(connection);
            }
        };
    }

    /** The probe for the HTTP server filter: a request's headers were read, a request ended. */
    HttpServerProbe requestProbe() {
        return new HttpServerProbe.Adapter() {
            @Override
            public void onRequestReceiveEvent(HttpServerFilter filter, Connection connection, Request request) {
                started(connection);
            }

            @Override
            public void onRequestCompleteEvent(HttpServerFilter filter, Connection connection, Response response) {
                ended(connection);
            }
        };
    }

    void received(Connection<?> connection) {
        State state = connections.get(connection);
        if (state == null) {
            state = new State();
            if (connections.putIfAbsent(connection, state) == null) {
                connection.addCloseListener((Connection.CloseListener) (c, type) -> connections.remove(c));
            } else {
                state = connections.get(connection);
            }
        }
        if (state != null && state.inProgress.get() == 0 && state.deadline == 0) {
            state.deadline = deadline(System.nanoTime() + timeoutNanos);
        }
    }

    void started(Connection<?> connection) {
        State state = connections.get(connection);
        if (state != null) {
            state.inProgress.incrementAndGet();
            state.deadline = 0;
        }
    }

    void ended(Connection<?> connection) {
        State state = connections.get(connection);
        if (state != null && state.inProgress.decrementAndGet() < 0) {
            state.inProgress.set(0); // a request that started before the probes were added
        }
    }

    /** Never 0, which means "no clock running". */
    private static long deadline(long nanos) {
        return nanos == 0 ? 1 : nanos;
    }

    /** Closes the connections past their deadline; whether any was closed. */
    boolean sweep() {
        long now = System.nanoTime();
        boolean closed = false;
        for (Map.Entry<Connection<?>, State> e : connections.entrySet()) {
            long deadline = e.getValue().deadline;
            if (deadline != 0 && now - deadline > 0 && e.getValue().inProgress.get() == 0) {
                LOG.log(Level.FINE, "closing a connection from {0}: its request headers took longer than {1} s",
                        new Object[] {e.getKey().getPeerAddress(), TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)});
                connections.remove(e.getKey());
                e.getKey().closeSilently();
                closed = true;
            }
        }
        return closed;
    }

    /** How many connections are being watched now (for tests). */
    int watched() {
        return connections.size();
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
