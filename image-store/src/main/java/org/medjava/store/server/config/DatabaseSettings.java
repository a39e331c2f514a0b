package org.medjava.store.server.config;

import java.util.Optional;

/** The index database: an H2 file database under the data directory unless a JDBC URL names another. */
public record DatabaseSettings(Optional<String> url, String user, String password) {

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

    public static DatabaseSettings from(SettingsSource source) {
        Optional<String> url = source.text(URL).filter(s -> !s.isBlank());
        url.filter(u -> !u.startsWith("jdbc:")).ifPresent(u -> {
            throw new SettingException(URL, u, "write a JDBC URL, e.g. jdbc:postgresql://db:5432/medjava");
        });
        return new DatabaseSettings(url, source.text(USER).orElse(""), source.text(PASSWORD).orElse(""));
    }

    /** Whether the index is the PostgreSQL a cluster's nodes share. */
    public boolean postgres() {
        return url.filter(u -> u.startsWith("jdbc:postgresql:")).isPresent();
    }

    @Override
    public String toString() { // never the password
        return "DatabaseSettings[url=" + url.orElse("(H2 in the data directory)") + ", user=" + user + "]";
    }
}
