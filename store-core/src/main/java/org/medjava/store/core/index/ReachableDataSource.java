package org.medjava.store.core.index;

import com.zaxxer.hikari.HikariDataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A pool whose callers learn within a fraction of a second that the server went away: a connection is waited for
 * in slices of {@link ConnectionPools#SLICE}; a slice that ended because a new connection was refused at the network
 * has a fresh connection tried ({@link Reachability#confirmAway}), and if that fails too the server is marked
 * unreachable and the caller fails at once, while a pool that is only busy, or a server that answers slowly, is
 * waited for up to {@link ConnectionPools#WAIT} in all. Without it the first caller after the server
 * stopped waited the whole {@code WAIT} for its 503.
 */
public final class ReachableDataSource implements DataSource {
    private final HikariDataSource pool;
    private final Reachability reachability;

    public ReachableDataSource(HikariDataSource pool, Reachability reachability) {
        this.pool = pool;
        this.reachability = reachability;
    }

    @Override
    public Connection getConnection() throws SQLException {
        long end = System.nanoTime() + ConnectionPools.WAIT.toNanos();
        while (true) {
            try {
                reachability.check("a connection to the database"); // another caller may have found it away
            } catch (IndexException away) {
                // 08000, not 08001: the refusal is no new failure to connect (it would be taken as one again)
                throw new java.sql.SQLTransientConnectionException(away.getMessage(), "08000", away);
            }
            try {
                return pool.getConnection();
            } catch (SQLException e) {
                // the pool's failure may be stale (made while the server restarted): a fresh connection decides
                if (reachability.confirmAway(e, pool.getHikariPoolMXBean() != null
                        && pool.getHikariPoolMXBean().getTotalConnections() == 0)) {
                    throw e;
                }
                if (System.nanoTime() - end >= 0) {
                    // not the pool's (possibly stale) connect failure as the cause: the server answered a fresh one
                    SQLException busy = new java.sql.SQLTransientConnectionException("no database connection free"
                            + " within " + ConnectionPools.WAIT.toMillis() + " ms (" + e.getMessage() + ")", "08000");
                    busy.addSuppressed(e);
                    throw busy;
                }
            }
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the pool logs in with the configured user");
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return type.isInstance(this) ? type.cast(this) : pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
