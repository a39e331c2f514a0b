package org.medjava.store.core.cluster;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;

/**
 * Identifiers revoked until an instant, shared by every node (the web sessions ended by a logout): one row per
 * identifier in the shared PostgreSQL, so a revocation made on one node holds on the next request to any other.
 * Rows past their instant are of no use (what they revoke has expired by itself) and are deleted on later
 * revocations.
 */
public final class SharedRevocations {

    private final ClusterDatabase database;

    public SharedRevocations(ClusterDatabase database) {
        this.database = database;
        database.createIfMissing("create table if not exists medjava_revoked (id varchar(128) primary key,"
                + " until_ms bigint not null)");
    }

    /**
     * Revokes {@code id} until {@code until} (a later revocation of the same id keeps the later instant), and
     * forgets revocations that ended before {@code now}.
     *
     * @throws org.medjava.store.core.StoreException UNAVAILABLE when the database cannot be reached
     */
    public void revoke(String id, Instant until, Instant now) {
        database.run("revoking a session", c -> {
            try (PreparedStatement u = c.prepareStatement("insert into medjava_revoked (id, until_ms) values (?, ?)"
                    + " on conflict (id) do update set until_ms = greatest(medjava_revoked.until_ms,"
                    + " excluded.until_ms)")) {
                u.setString(1, id);
                u.setLong(2, until.toEpochMilli());
                u.executeUpdate();
            }
            try (PreparedStatement d = c.prepareStatement("delete from medjava_revoked where until_ms < ?")) {
                d.setLong(1, now.toEpochMilli());
                d.executeUpdate();
            }
            return null;
        });
    }

    /**
     * Whether {@code id} is revoked (a row past its instant still says so: what it names has expired anyway).
     *
     * @throws org.medjava.store.core.StoreException UNAVAILABLE when the database cannot be reached
     */
    public boolean isRevoked(String id) {
        return database.run("checking a session", c -> {
            try (PreparedStatement q = c.prepareStatement("select 1 from medjava_revoked where id = ?")) {
                q.setString(1, id);
                try (ResultSet rs = q.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }
}
