package org.medjava.store.core.cluster;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.LocalPathLocks;
import org.medjava.store.core.repo.PathLocks;

/**
 * Path locks shared by every node of a cluster: a PostgreSQL session-level advisory lock per path (keyed by 64 bits
 * of the path's SHA-256), taken after this process's own striped lock so that writers within one node queue locally
 * and hold one database connection at a time. A node that cannot reach the database cannot take a lock, so it cannot
 * become a second writer of a path; its writes are refused (503) until the database is back. The lock dies with its
 * session: a node killed while holding one frees it at once.
 */
public final class PostgresPathLocks implements PathLocks {

    /** How long a writer waits for another node's writer of the same path before giving up (a 503). */
    private static final String LOCK_TIMEOUT = "30s";

    private final ClusterDatabase database;
    private final LocalPathLocks local = new LocalPathLocks();

    public PostgresPathLocks(ClusterDatabase database) {
        this.database = database;
    }

    @Override
    public Held lock(StorePath path) {
        Held localLock = local.lock(path);
        long key = key(PathLocks.keyOf(path));
        Connection c;
        try {
            c = database.borrow("locking " + path);
        } catch (RuntimeException e) {
            localLock.close();
            throw e;
        }
        try (Statement s = c.createStatement();
             PreparedStatement lock = c.prepareStatement("select pg_advisory_lock(?)")) {
            s.execute("set lock_timeout = '" + LOCK_TIMEOUT + "'");
            lock.setLong(1, key);
            lock.execute();
        } catch (SQLException e) {
            database.giveBack(c, true);
            localLock.close();
            throw database.unavailable("locking " + path, e);
        }
        return new Held() {
            @Override
            public void verify() {
                // a bigint advisory key is kept as classid (high 32 bits) and objid (low 32 bits), objsubid 1
                try (PreparedStatement held = c.prepareStatement("select count(*) from pg_locks where"
                        + " locktype = 'advisory' and pid = pg_backend_pid() and granted and objsubid = 1"
                        + " and classid::bigint = ((?::bigint >> 32) & 4294967295)"
                        + " and objid::bigint = (?::bigint & 4294967295)")) {
                    held.setLong(1, key);
                    held.setLong(2, key);
                    try (java.sql.ResultSet rs = held.executeQuery()) {
                        if (rs.next() && rs.getLong(1) > 0) {
                            return;
                        }
                    }
                    throw new SQLException("the advisory lock is no longer held by this session");
                } catch (SQLException e) {
                    throw database.unavailable("the lock of " + path + " was lost before the write", e);
                }
            }

            @Override
            public void close() {
                boolean broken = true;
                try (PreparedStatement unlock = c.prepareStatement("select pg_advisory_unlock(?)")) {
                    unlock.setLong(1, key);
                    unlock.execute();
                    broken = false;
                } catch (SQLException e) {
                    // the session is gone, and its locks with it
                } finally {
                    database.giveBack(c, broken);
                    localLock.close();
                }
            }
        };
    }

    static long key(String path) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(path.getBytes(StandardCharsets.UTF_8));
            long k = 0;
            for (int i = 0; i < 8; i++) {
                k = (k << 8) | (d[i] & 0xff);
            }
            return k;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
