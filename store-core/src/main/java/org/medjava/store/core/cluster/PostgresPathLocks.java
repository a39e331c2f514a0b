package org.medjava.store.core.cluster;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.LocalPathLocks;
import org.medjava.store.core.repo.PathLocks;

/**
 * Path locks shared by every node of a cluster: a <em>write lease</em> per path, a row of {@code medjava_write} in
 * the shared PostgreSQL taken in one short statement (after this process's own striped lock, so writers within one
 * node queue locally), renewed every third of its term while held, and ended by deleting the row. No database
 * connection is held while the object is uploaded: each step borrows one for a statement. A node that cannot reach
 * the database cannot take or renew a lease, so it cannot become a second writer of a path: its writes are refused
 * (503) until the database is back, and {@link Held#verify} refuses a write whose lease ran out.
 *
 * <p>The row is also the cluster's record of the write: it goes when the write ends with the index agreeing with the
 * object ({@link Held#settled}) or without having changed anything. A write that changed the object while the index
 * was away leaves its row, released; a node killed mid-write leaves it until its term runs out. Either way the row
 * names a path whose index may disagree with its object, and every node's reconciler ({@link #unsettled}) takes such
 * a lease in turn and indexes the object, so a write a client never saw acknowledged is found or gone within seconds,
 * whichever node wrote it and whether or not that node ever comes back.
 */
public final class PostgresPathLocks implements PathLocks, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PostgresPathLocks.class.getName());
    /** A lease's term: a node killed holding one keeps its path from other writers this long. */
    public static final Duration LEASE = Duration.ofSeconds(10);
    /** How long a writer waits for another node's writer of the same path before giving up (a 503). */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ClusterDatabase database;
    private final String node;
    private final Duration lease;
    private final LocalPathLocks local = new LocalPathLocks();
    /** The leases this node holds, token to path key: what the renewer extends. */
    private final Map<Long, Long> held = new ConcurrentHashMap<>();
    private final ScheduledExecutorService renewer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "write-lease-renewer");
        t.setDaemon(true);
        return t;
    });

    public PostgresPathLocks(ClusterDatabase database, String node) {
        this(database, node, LEASE);
    }

    /** @param lease the term of a lease (shorter in tests of a node cut off) */
    PostgresPathLocks(ClusterDatabase database, String node, Duration lease) {
        this.database = database;
        this.node = node;
        this.lease = lease;
        database.createIfMissing("create table if not exists medjava_write (path_key bigint primary key,"
                + " path varchar(4096) not null, node varchar(128) not null, token bigint not null,"
                + " expires_at timestamptz not null)",
                "create index if not exists medjava_write_expires on medjava_write (expires_at)");
        long every = Math.max(50, lease.toMillis() / 3);
        renewer.scheduleWithFixedDelay(this::renew, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public Held lock(StorePath path) {
        return take(path, true).orElseThrow();
    }

    @Override
    public Optional<Held> tryLock(StorePath path) {
        return take(path, false);
    }

    private Optional<Held> take(StorePath path, boolean wait) {
        Held localLock = local.lock(path);
        try {
            String keyText = PathLocks.keyOf(path);
            long key = key(keyText);
            long token = ThreadLocalRandom.current().nextLong();
            long deadline = System.nanoTime() + WAIT.toNanos();
            long pause = 2;
            while (true) {
                Boolean inserted = acquire(path, key, keyText, token);
                if (inserted != null) {
                    held.put(token, key);
                    return Optional.of(new Lease(path, key, token, !inserted, localLock));
                }
                if (!wait) {
                    localLock.close();
                    return Optional.empty();
                }
                if (System.nanoTime() > deadline) {
                    throw new StoreException(StoreException.Kind.UNAVAILABLE, "another node has been writing " + path
                            + " for " + WAIT.toSeconds() + " s; try again later");
                }
                Thread.sleep(pause + ThreadLocalRandom.current().nextLong(pause));
                pause = Math.min(pause * 2, 40);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            localLock.close();
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "interrupted while waiting to write " + path);
        } catch (RuntimeException e) {
            localLock.close();
            throw e;
        }
    }

    /**
     * One try at the lease: a new row, or the row of a lease that ran out (its writer died or ended unsettled).
     *
     * @return null when another writer holds it, else whether the row is new (no unsettled write before it)
     */
    private Boolean acquire(StorePath path, long key, String keyText, long token) {
        return database.run("locking " + path, c -> {
            try (PreparedStatement s = c.prepareStatement("insert into medjava_write (path_key, path, node, token,"
                    + " expires_at) values (?, ?, ?, ?, clock_timestamp() + make_interval(secs => ?))"
                    + " on conflict (path_key) do update set path = excluded.path, node = excluded.node,"
                    + " token = excluded.token, expires_at = excluded.expires_at"
                    + " where medjava_write.expires_at <= clock_timestamp() returning (xmax = 0)")) {
                s.setLong(1, key);
                s.setString(2, keyText);
                s.setString(3, node);
                s.setLong(4, token);
                s.setDouble(5, lease.toMillis() / 1000.0);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? rs.getBoolean(1) : null;
                }
            }
        });
    }

    /** Extends every lease this node holds (one statement); one that cannot be renewed runs out, and its write stops. */
    private void renew() {
        if (held.isEmpty()) {
            return;
        }
        try {
            Long[] tokens = held.keySet().toArray(new Long[0]);
            database.run("renewing write leases", c -> {
                try (PreparedStatement s = c.prepareStatement("update medjava_write set expires_at ="
                        + " clock_timestamp() + make_interval(secs => ?) where token = any(?)"
                        + " and expires_at > clock_timestamp()")) {
                    s.setDouble(1, lease.toMillis() / 1000.0);
                    s.setArray(2, c.createArrayOf("bigint", tokens));
                    return s.executeUpdate();
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "write leases not renewed (the shared database is away)", e);
        }
    }

    /** Paths whose lease ran out with its row still there: a write that ended unsettled, or whose node died. */
    @Override
    public List<StorePath> unsettled() {
        return database.run("listing unsettled writes", c -> {
            List<StorePath> paths = new ArrayList<>();
            try (PreparedStatement q = c.prepareStatement("select path from medjava_write where expires_at <="
                    + " clock_timestamp() order by expires_at limit 100");
                 ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    paths.add(StorePath.parse(rs.getString(1)));
                }
            }
            return paths;
        });
    }

    /** One lease held by this node. */
    private final class Lease implements Held {
        private final StorePath path;
        private final long key;
        private final long token;
        /** The row was there before: a write left the path unsettled, and it stays so unless this one settles it. */
        private final boolean inherited;
        private final Held localLock;
        private boolean verified;
        private boolean settled;

        Lease(StorePath path, long key, long token, boolean inherited, Held localLock) {
            this.path = path;
            this.key = key;
            this.token = token;
            this.inherited = inherited;
            this.localLock = localLock;
        }

        @Override
        public void verify() {
            // still this lease, not run out; extended, so the write that follows has a full term
            int rows = database.run("checking the lease of " + path, c -> {
                try (PreparedStatement s = c.prepareStatement("update medjava_write set expires_at ="
                        + " clock_timestamp() + make_interval(secs => ?) where path_key = ? and token = ?"
                        + " and expires_at > clock_timestamp()")) {
                    s.setDouble(1, lease.toMillis() / 1000.0);
                    s.setLong(2, key);
                    s.setLong(3, token);
                    return s.executeUpdate();
                }
            });
            if (rows == 0) {
                throw new StoreException(StoreException.Kind.UNAVAILABLE, "the write lease of " + path + " ran out"
                        + " before the write (this node lost the shared database " + database.describe()
                        + " for longer than " + lease.toSeconds() + " s); nothing was written, try again");
            }
            verified = true;
        }

        @Override
        public void settled() {
            settled = true;
        }

        @Override
        public void close() {
            held.remove(token);
            boolean forget = settled || (!verified && !inherited);
            try {
                database.run("ending the lease of " + path, c -> {
                    // forgotten, or released and left for a reconciler (its term ends now)
                    try (PreparedStatement s = c.prepareStatement(forget
                            ? "delete from medjava_write where path_key = ? and token = ?"
                            : "update medjava_write set expires_at = clock_timestamp() where path_key = ?"
                            + " and token = ?")) {
                        s.setLong(1, key);
                        s.setLong(2, token);
                        return s.executeUpdate();
                    }
                });
            } catch (RuntimeException e) {
                // the database is away: the lease runs out by itself, and its row leaves the path to a reconciler
                LOG.log(Level.FINE, "the lease of " + path + " ends by running out", e);
            } finally {
                localLock.close();
            }
        }
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

    @Override
    public void close() {
        renewer.shutdownNow();
    }
}
