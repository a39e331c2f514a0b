package org.medjava.store.core.index;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;

/**
 * The bounded connection pools a node keeps to a PostgreSQL server (HikariCP): at most the size its
 * {@link ConnectionBudget} gives, one connection kept when idle and the others closed after a minute, a connection
 * checked before use when it has been idle (a restarted server's are dropped, not handed out), and a caller waiting at
 * most {@link #WAIT} for one (then the request is answered 503, not held) and a server that went away noticed within
 * a fraction of a second, through {@link ReachableDataSource}.
 */
public final class ConnectionPools {

    /**
     * The longest a caller waits for a connection when the pool is busy or the server unreachable: then it is
     * answered 503 with Retry-After (and, once the server is known to be away, at once: see {@link Reachability}).
     * Long enough for a new connection to a server on a loaded machine (a backend's fork and authentication).
     */
    public static final Duration WAIT = Duration.ofSeconds(2);
    /**
     * One wait of the pool's (HikariCP's least): {@link ReachableDataSource} waits in slices, so that a connection
     * refused by a server that went away fails its caller within one, not after {@link #WAIT}.
     */
    static final Duration SLICE = Duration.ofMillis(250);
    private static final Duration IDLE = Duration.ofMinutes(1);

    private ConnectionPools() {
    }

    /**
     * A pool of at most {@code size} connections to {@code database} named {@code name} (in the server's
     * {@code pg_stat_activity} as its application name).
     */
    public static HikariDataSource open(IndexDatabase database, String name, int size, boolean autoCommit) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(database.connectionUrl());
        config.setUsername(database.user());
        config.setPassword(database.password());
        config.setDriverClassName(database.driverClass());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(1);
        config.setIdleTimeout(IDLE.toMillis());
        config.setConnectionTimeout(SLICE.toMillis());
        config.setAutoCommit(autoCommit);
        config.setInitializationFailTimeout(-1); // a node starts (and says why it cannot serve) with the server away
        config.addDataSourceProperty("ApplicationName", name);
        config.addDataSourceProperty("connectTimeout", "1");
        config.addDataSourceProperty("socketTimeout", "60"); // a server that stopped answering frees the caller
        config.addDataSourceProperty("tcpKeepAlive", "true"); // a dead link is noticed
        return new HikariDataSource(config);
    }
}
