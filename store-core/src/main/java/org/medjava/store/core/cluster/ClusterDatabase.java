package org.medjava.store.core.cluster;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.ConnectionBudget;
import org.medjava.store.core.index.ConnectionPools;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.Reachability;

/**
 * The connections the nodes of a cluster coordinate through: the shared PostgreSQL that also holds the index, used
 * directly over JDBC (write leases, LISTEN/NOTIFY, small shared tables) beside the index's JPA connections. A small
 * bounded pool ({@link ConnectionPools}: its share of the node's {@link ConnectionBudget}, idle connections let go,
 * a broken one dropped), so a restarted database is reconnected to by the next caller without a manual step.
 */
public final class ClusterDatabase implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_SECONDS = 5;

    private final IndexDatabase database;
    private final HikariDataSource pool;
    private final Reachability reachability;
    private final javax.sql.DataSource connections;
    private volatile boolean closed;

    /** With the coordination share of the default budget (tests, tools). */
    public ClusterDatabase(IndexDatabase database) {
        this(database, ConnectionBudget.defaults().coordination());
    }

    /** @param poolSize the most pooled connections (the node's LISTEN session is extra) */
    public ClusterDatabase(IndexDatabase database, int poolSize) {
        if (!database.isPostgres()) {
            throw new IllegalArgumentException("a cluster coordinates through PostgreSQL; medjava.db.url is "
                    + database.describe());
        }
        this.database = database;
        this.pool = ConnectionPools.open(database, "medjava-cluster", poolSize, true);
        this.reachability = new Reachability(database);
        this.connections = new org.medjava.store.core.index.ReachableDataSource(pool, reachability);
    }

    /** Opens a connection of its own (for a LISTEN session), not from the pool. */
    Connection connect() throws SQLException {
        Connection c = database.connectPostgres("medjava-cluster-listen", CONNECT_TIMEOUT_SECONDS, 60);
        c.setAutoCommit(true);
        return c;
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
        if (closed) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "the store is shutting down");
        }
        try {
            reachability.check(what);
        } catch (org.medjava.store.core.index.IndexException e) { // known to be away: refused at once
            throw new StoreException(StoreException.Kind.UNAVAILABLE, e.getMessage() + "; writes are refused until"
                    + " it is back, stored objects can still be read", e);
        }
        Connection c;
        try {
            c = connections.getConnection();
        } catch (SQLException e) {
            reachability.failed(e);
            throw unavailable(what, e);
        }
        boolean broken = true;
        try {
            T result = work.run(c);
            broken = false;
            return result;
        } catch (SQLException e) {
            reachability.failed(e);
            throw unavailable(what, e);
        } finally {
            if (broken) {
                pool.evictConnection(c); // it may belong to a database that restarted
            } else {
                quietlyClose(c);
            }
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
        pool.close();
        reachability.close();
    }
}
