package org.medjava.store.server.config;

import java.util.Optional;
import org.medjava.store.core.index.ConnectionBudget;

/** The index database: an H2 file database under the data directory unless a JDBC URL names another. */
public record DatabaseSettings(Optional<String> url, String user, String password, ConnectionBudget connections) {

    /**
     * The JDBC URL of the index database. Unset: an H2 file database in the data directory's {@code index/}, opened
     * with {@code WRITE_DELAY=0} (a URL given here decides that itself). A cluster needs the PostgreSQL all nodes
     * share, e.g. {@code jdbc:postgresql://db:5432/medjava}.
     */
    static final Key URL = Key.of("medjava.db.url");

    /** The index database's user, with {@code medjava.db.url}. */
    static final Key USER = Key.of("medjava.db.user");

    /** The index database's password, with {@code medjava.db.url}. */
    static final Key PASSWORD = Key.of("medjava.db.password");

    /**
     * The most connections this node holds to a PostgreSQL index database, all its pools together (at least 6;
     * unused with H2). Size a cluster by nodes × this ≤ the server's {@code max_connections} − its reserved
     * connections − other clients: PostgreSQL's default 100 with 3 reserved takes six nodes at 12, with room left for
     * backups and {@code psql}. On a cluster node one is its LISTEN session, a quarter (at least 2) coordinate (write
     * leases, shared state, jobs), the rest serve the index.
     */
    static final Key MAX_CONNECTIONS = Key.of("medjava.db.max-connections", "12");

    public static DatabaseSettings from(SettingsSource source) {
        Optional<String> url = source.text(URL).filter(s -> !s.isBlank());
        url.filter(u -> !u.startsWith("jdbc:")).ifPresent(u -> {
            throw new SettingException(URL, u, "write a JDBC URL, e.g. jdbc:postgresql://db:5432/medjava");
        });
        int max = SettingsSource.atLeast(MAX_CONNECTIONS, source.integer(MAX_CONNECTIONS), ConnectionBudget.MIN);
        return new DatabaseSettings(url, source.text(USER).orElse(""), source.text(PASSWORD).orElse(""),
                new ConnectionBudget(max));
    }

    /** Whether the index is the PostgreSQL a cluster's nodes share. */
    public boolean postgres() {
        return url.filter(u -> u.startsWith("jdbc:postgresql:")).isPresent();
    }

    @Override
    public String toString() { // never the password
        return "DatabaseSettings[url=" + url.orElse("(H2 in the data directory)") + ", user=" + user
                + ", max-connections=" + connections.perNode() + "]";
    }
}
