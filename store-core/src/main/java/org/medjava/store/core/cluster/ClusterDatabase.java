package org.medjava.store.core.cluster;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.IndexDatabase;

/**
 * The connections the nodes of a cluster coordinate through: the shared PostgreSQL that also holds the index, used
 * directly over JDBC (advisory locks, LISTEN/NOTIFY, small shared tables) beside the index's JPA connections. A
 * small pool: connections are opened on demand, kept while they work, and dropped when a statement on them fails,
 * so a restarted database is reconnected to by the next caller without a manual step.
 */
public final class ClusterDatabase implements AutoCloseable {

    private static final int MAX_CONNECTIONS = 24;
    private static final int CONNECT_TIMEOUT_SECONDS = 5;

    private final IndexDatabase database;
    private final BlockingQueue<Connection> idle = new ArrayBlockingQueue<>(MAX_CONNECTIONS);
    private final Semaphore open = new Semaphore(MAX_CONNECTIONS);
    private volatile boolean closed;

    public ClusterDatabase(IndexDatabase database) {
        if (!database.url().startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("a cluster coordinates through PostgreSQL; medjava.db.url is "
                    + database.describe());
        }
        this.database = database;
    }

    /** Opens a connection of its own (for a LISTEN session), not from the pool. */
    Connection connect() throws SQLException {
        Connection c = new org.postgresql.Driver().connect(database.url(), credentials());
        if (c == null) {
            throw new SQLException("not a PostgreSQL URL: " + database.describe());
        }
        c.setAutoCommit(true);
        return c;
    }

    private java.util.Properties credentials() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("user", database.user());
        p.setProperty("password", database.password());
        p.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
        p.setProperty("socketTimeout", "60");
        p.setProperty("ApplicationName", "medjava-cluster");
        p.setProperty("tcpKeepAlive", "true"); // a dead link is noticed, and the session's locks released
        return p;
    }

    /** Work done on a pooled connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} on a pooled connection.
     *
     * @throws StoreException UNAVAILABLE when the database cannot be reached or the statement fails
     */
    public <T> T run(String what, Work<T> work) {
        Connection c = borrow(what);
        boolean broken = true;
        try {
            T result = work.run(c);
            broken = false;
            return result;
        } catch (SQLException e) {
            throw unavailable(what, e);
        } finally {
            giveBack(c, broken);
        }
    }

    /** A pooled connection for a caller that holds it across calls (a path lock); give it back when done. */
    Connection borrow(String what) {
        if (closed) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "the store is shutting down");
        }
        Connection c = idle.poll();
        if (c != null) {
            return c;
        }
        try {
            if (!open.tryAcquire(30, TimeUnit.SECONDS)) {
                throw new StoreException(StoreException.Kind.UNAVAILABLE, what + ": all " + MAX_CONNECTIONS
                        + " coordination connections are busy; try again");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(StoreException.Kind.UNAVAILABLE, what + ": interrupted");
        }
        c = idle.poll(); // one may have come back meanwhile
        if (c != null) {
            open.release();
            return c;
        }
        try {
            return connect();
        } catch (SQLException e) {
            open.release();
            throw unavailable(what, e);
        }
    }

    /** Returns a connection to the pool, or drops it when it failed (it may belong to a database that restarted). */
    void giveBack(Connection c, boolean broken) {
        if (broken || closed || !idle.offer(c)) {
            quietlyClose(c);
            open.release();
        }
    }

    StoreException unavailable(String what, SQLException e) {
        return new StoreException(StoreException.Kind.UNAVAILABLE, what + ": the shared database "
                + database.describe() + " (medjava.db.url) is unreachable or failed (" + e.getMessage()
                + "); writes are refused until it is back, stored objects can still be read", e);
    }

    /** Runs DDL that may race with another node doing the same (CREATE ... IF NOT EXISTS is not race-free). */
    public void createIfMissing(String... ddl) {
        run("creating the cluster tables", c -> {
            for (String statement : ddl) {
                try (Statement s = c.createStatement()) {
                    s.execute("select pg_advisory_lock(7310501)"); // one node at a time
                    try {
                        s.execute(statement);
                    } finally {
                        s.execute("select pg_advisory_unlock(7310501)");
                    }
                }
            }
            return null;
        });
    }

    static void quietlyClose(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // already broken
        }
    }

    public String describe() {
        return database.describe();
    }

    @Override
    public void close() {
        closed = true;
        for (Connection c; (c = idle.poll()) != null; ) {
            quietlyClose(c);
        }
    }
}
