package org.medjava.store.core.index;

import java.net.ConnectException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Logger;
import org.medjava.store.core.Outage;

/**
 * Whether a PostgreSQL server answers, known without waiting for it: once a connection to it could not be made,
 * every caller is refused at once ({@link #check}) instead of waiting out a connection timeout each, and a probe
 * tries a fresh connection every {@link Outage#PROBE} until the server is back. A busy pool is not a reason: only a
 * connection refused, reset or timed out at the network.
 */
public final class Reachability implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Reachability.class.getName());
    /** How long a fresh connection's verdict stands for other callers ({@link #confirmAway}). */
    static final Duration CONFIRM = Duration.ofMillis(200);
    /** How long a fresh TCP connection to the server may take before it is taken as away. */
    static final Duration TCP_CONNECT = Duration.ofMillis(500);

    private final IndexDatabase database;
    private final Outage outage;
    private final Object confirmLock = new Object();
    private long lastConfirm = System.nanoTime() - CONFIRM.toNanos(); // guarded by confirmLock

    public Reachability(IndexDatabase database) {
        this.database = database;
        this.outage = new Outage(LOG, "the database " + database.describe(), "database-probe", () -> {
            try (Connection c = database.connectPostgres("medjava-probe", 1, 2)) {
                if (!c.isValid(1)) {
                    throw new SQLException("the connection is not valid");
                }
            }
        });
    }

    /** Whether the server is believed to answer. */
    public boolean reachable() {
        return outage.reachable();
    }

    /**
     * Refuses at once while the server is known to be away.
     *
     * @throws IndexException naming the server and since when
     */
    public void check(String what) {
        Instant since = outage.downSince();
        if (since != null) {
            throw new IndexException(what + ": the database " + database.describe() + " (medjava.db.url) has been"
                    + " unreachable since "
                    + since + " (" + outage.error() + "); try again when it is back");
        }
    }

    /** Takes note of a failure: when it says the server cannot be reached, callers are refused until it is back. */
    public void failed(Throwable failure) {
        if (isUnreachable(failure)) {
            outage.markAway(IndexSession.reason(failure));
        }
    }

    /**
     * Whether the server is away, asked when a caller's wait for a connection ended with a failure to connect: the
     * pool's failure may be an old one (made while the server was restarting), so a fresh connection decides. It is
     * made at most once per {@link #CONFIRM} for all callers; a server that answers, even slowly, is not away, and a
     * connection that takes longer than a second to fail counts as away (the caller would wait longer than that).
     *
     * @return true when the server was found away (callers are then refused until a probe finds it back)
     */
    public boolean confirmAway(Throwable poolFailure) {
        return confirmAway(poolFailure, false);
    }

    /**
     * The same, also asked when the pool holds no connection at all ({@code poolEmpty}): then its wait can only be
     * for a new connection, which may still hang in a name lookup (a stopped container's name) with no failure
     * recorded yet.
     */
    public boolean confirmAway(Throwable poolFailure, boolean poolEmpty) {
        if (!reachable()) {
            return true;
        }
        if (!poolEmpty && !isUnreachable(poolFailure)) {
            return false; // the pool was only busy
        }
        synchronized (confirmLock) {
            long now = System.nanoTime();
            if (now - lastConfirm < CONFIRM.toNanos()) {
                return !reachable();
            }
            String noRoute = tcpUnreachable();
            if (noRoute != null) { // a server that drops packets: known in half a second, not the driver's 1 s
                lastConfirm = System.nanoTime();
                outage.markAway(noRoute);
                return true;
            }
            try (Connection c = database.connectPostgres("medjava-probe", 1, 1)) {
                lastConfirm = System.nanoTime();
                return false;
            } catch (SQLException | RuntimeException e) {
                lastConfirm = System.nanoTime();
                // it answered at TCP: only a server that says it takes no sessions is away; a slow login is not
                if (isShuttingDown(e)) {
                    outage.markAway(IndexSession.reason(e));
                    return true;
                }
                return false;
            }
        }
    }

    /**
     * Why a TCP connection to the server's first host cannot be made within {@link #TCP_CONNECT}, or null when it
     * can (or the URL names no host the driver can tell).
     */
    private String tcpUnreachable() {
        java.util.Properties url = org.postgresql.Driver.parseURL(database.connectionUrl(), null);
        if (url == null || url.getProperty("PGHOST") == null) {
            return null;
        }
        String host = url.getProperty("PGHOST").split(",")[0];
        int port = Integer.parseInt(url.getProperty("PGPORT", "5432").split(",")[0]);
        // the name lookup has no timeout of its own (a stopped container's name can take seconds): bounded together
        java.util.concurrent.CompletableFuture<String> tried = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> {
                    try (java.net.Socket socket = new java.net.Socket()) {
                        socket.connect(new java.net.InetSocketAddress(host, port), (int) TCP_CONNECT.toMillis());
                        return null;
                    } catch (java.io.IOException e) {
                        return "no TCP connection to " + host + ":" + port + " (" + e + ")";
                    }
                }, CHECKS);
        try {
            return tried.get(TCP_CONNECT.toMillis() + 100, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return "no TCP connection to " + host + ":" + port + " within " + TCP_CONNECT.toMillis() + " ms";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (java.util.concurrent.ExecutionException e) {
            return null;
        }
    }

    /** Where the TCP checks run, so that a hanging name lookup does not hold the caller. */
    private static final java.util.concurrent.ExecutorService CHECKS = java.util.concurrent.Executors
            .newCachedThreadPool(r -> {
                Thread t = new Thread(r, "database-reachability-check");
                t.setDaemon(true);
                return t;
            });

    /** The server takes no new sessions (shutting down, starting up: SQLState class 57P). */
    private static boolean isShuttingDown(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("57P")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code failure} says the server could not be reached: a connection refused or timed out (SQLState
     * 08001, 08004, or the network's own exception), not a statement that failed nor a pool that was busy.
     */
    static boolean isUnreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ConnectException || t instanceof java.net.NoRouteToHostException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if ("08001".equals(state) || "08004".equals(state)) {
                    return true;
                }
                SQLException next = sql.getNextException();
                if (next != null && next != sql && isUnreachable(next)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public void close() {
        outage.close();
    }
}
