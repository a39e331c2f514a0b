package org.medjava.store.core.index;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the index lives: a JDBC URL with its credentials. Embedded H2 ({@link #h2(Path)}) by default, PostgreSQL in
 * production ({@link #of(String, String, String)} with a {@code jdbc:postgresql:} URL).
 *
 * @param url       the JDBC URL
 * @param user      the database user (may be empty)
 * @param password  the password (may be empty; never shown by {@link #toString()})
 * @param poolSize  the most connections the index holds to a PostgreSQL server (see {@link ConnectionBudget})
 */
public record IndexDatabase(String url, String user, String password, int poolSize) {

    public IndexDatabase {
        Objects.requireNonNull(url, "url");
        if (!url.startsWith("jdbc:")) {
            throw new IllegalArgumentException("not a JDBC URL: " + describe(url));
        }
        user = user == null ? "" : user;
        password = password == null ? "" : password;
        if (poolSize < 1) {
            throw new IllegalArgumentException("the index needs at least one connection, not " + poolSize);
        }
    }

    public IndexDatabase(String url, String user, String password) {
        this(url, user, password, ConnectionBudget.DEFAULT);
    }

    /** The same database, the index holding at most {@code size} connections to it. */
    public IndexDatabase withPoolSize(int size) {
        return new IndexDatabase(url, user, password, size);
    }

    /**
     * A connection of its own to this PostgreSQL server, outside any pool (a LISTEN session, a probe), named
     * {@code applicationName} in its {@code pg_stat_activity}; TCP keep-alive on, so a dead link is noticed.
     */
    public java.sql.Connection connectPostgres(String applicationName, int connectTimeoutSeconds,
                                               int socketTimeoutSeconds) throws java.sql.SQLException {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("connectTimeout", Integer.toString(connectTimeoutSeconds));
        p.setProperty("socketTimeout", Integer.toString(socketTimeoutSeconds));
        p.setProperty("ApplicationName", applicationName);
        p.setProperty("tcpKeepAlive", "true");
        java.sql.Connection c = new org.postgresql.Driver().connect(url, p);
        if (c == null) {
            throw new java.sql.SQLException("not a PostgreSQL URL: " + describe());
        }
        return c;
    }

    /** Whether this is a PostgreSQL server (pooled by {@link ConnectionPools}; H2 is embedded). */
    public boolean isPostgres() {
        return url.startsWith("jdbc:postgresql:");
    }

    /** The database at {@code url}. */
    public static IndexDatabase of(String url, String user, String password) {
        return new IndexDatabase(url, user, password);
    }

    /** An embedded H2 file database {@code index.mv.db} in {@code directory} (created when missing). */
    public static IndexDatabase h2(Path directory) {
        Path file = directory.toAbsolutePath().normalize().resolve("index");
        return new IndexDatabase("jdbc:h2:file:" + file, "medjava", "");
    }

    /**
     * The URL the index connects with: an H2 file database gets {@code WRITE_DELAY=0} unless the URL sets it, so a
     * commit reaches the file before it returns. H2's default (500 ms) keeps commits in memory for a while: a
     * {@code kill -9} then lost index rows whose objects were durable and acknowledged. And H2's reuse of a prepared
     * query's last result is turned off ({@code OPTIMIZE_REUSE_RESULTS}): with a writer committing while readers
     * ran the same listing, a listing after the last write had returned missed up to 7 of its 20 rows, which plain
     * SQL on the same database found (DicomIndexContract#readersRunWhileWritersWrite, about 1 run in 100).
     */
    public String connectionUrl() {
        String upper = url.toUpperCase(java.util.Locale.ROOT);
        String connect = url;
        if (url.startsWith("jdbc:h2:file:") && !upper.contains(";WRITE_DELAY=")) {
            connect += ";WRITE_DELAY=0";
        }
        if (url.startsWith("jdbc:h2:") && !upper.contains(";OPTIMIZE_REUSE_RESULTS=")) {
            connect += ";OPTIMIZE_REUSE_RESULTS=FALSE";
        }
        return connect;
    }

    /** The JDBC driver class for the URL's database, or null when unknown (then DriverManager looks it up). */
    String driverClass() {
        if (url.startsWith("jdbc:h2:")) {
            return "org.h2.Driver";
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return "org.postgresql.Driver";
        }
        return null;
    }

    /** The URL without its options (which may hold credentials), for messages. */
    public String describe() {
        return describe(url);
    }

    private static String describe(String url) {
        int cut = url.length();
        for (char c : new char[] {'?', ';'}) {
            int at = url.indexOf(c);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return url.substring(0, cut);
    }

    @Override
    public String toString() {
        return "IndexDatabase[" + describe() + ", user=" + user + "]";
    }
}
