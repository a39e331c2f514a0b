package org.medjava.store.core.cluster;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.storage.CacheCoherence;
import org.medjava.store.core.storage.ObjectCache;
import org.medjava.store.core.storage.StorageUnavailableException;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * Keeps the nodes' object caches ({@link ObjectCache}) from serving an older version after a write acknowledged
 * on any node, through the shared PostgreSQL: a writer numbers its change from one sequence and announces it
 * ({@code NOTIFY medjava_object}) under a transaction lock, so the numbers are delivered in order; every node
 * LISTENs, drops its copy, and records the last number it has applied in its row of {@code medjava_cache_node};
 * the writer returns (and its client is answered) only once every other node's row says it has applied the change.
 *
 * <p>A node that does not answer must not hold the writers up for ever, nor serve what it missed: its row carries a
 * <em>cache lease</em>, renewed with every answer and every second, and a writer waits only for the nodes whose
 * lease has not run out by the database's clock. A node serves from its cache only until its lease's end as it
 * reckons it itself — the term counted from before it sent the renewal, less a margin — which is never later than
 * the database's. A node that loses its listening session stops serving copies as its lease ends, and when it
 * listens again it drops every copy before it serves one again (whatever it missed is gone with them). A node
 * killed holds writers up for at most one term ({@link #TERM}).
 */
public final class SharedCacheCoherence implements CacheCoherence, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SharedCacheCoherence.class.getName());
    static final String CHANNEL = "medjava_object";
    /** A cache lease's term: a node gone silent holds up the writers of the others this long at most. */
    public static final Duration TERM = Duration.ofSeconds(3);
    /** How often a node renews its lease when it has nothing to answer. */
    private static final long RENEW_MILLIS = 1_000;
    /** The advisory lock that orders the announcements (any constant no other MedJava lock uses). */
    private static final long ORDER_LOCK = 0x4D4A4F424A454354L;
    /** How long a writer waits for the others' answers before it gives up. */
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ClusterDatabase database;
    private final String node;
    private final ObjectCache cache;
    private final long termNanos;
    private final Thread listener;
    /** Until when (System.nanoTime) this node may serve its copies. */
    private volatile long trustedUntil;
    private volatile boolean closed;

    public SharedCacheCoherence(ClusterDatabase database, String node, ObjectCache cache) {
        this(database, node, cache, TERM);
    }

    SharedCacheCoherence(ClusterDatabase database, String node, ObjectCache cache, Duration term) {
        this.database = database;
        this.node = node;
        this.cache = cache;
        this.termNanos = term.toNanos();
        this.trustedUntil = System.nanoTime() - 1;
        database.createIfMissing("create sequence if not exists medjava_cache_change",
                "create table if not exists medjava_cache_node (node varchar(128) primary key, seen bigint not null,"
                        + " expires_at timestamptz not null)");
        listener = new Thread(this::listen, "cluster-cache-listener");
        listener.setDaemon(true);
        listener.start();
    }

    @Override
    public boolean trusted() {
        return System.nanoTime() - trustedUntil < 0;
    }

    /** Announces the change, then waits until every other node with a live lease has applied it. */
    @Override
    public void changed(String key) throws IOException {
        long seq;
        try {
            seq = database.run("announcing a change of " + key, c -> {
                // the lock is held until the commit, which queues the notification: numbers go out in order
                try (PreparedStatement s = c.prepareStatement("with l as (select pg_advisory_xact_lock(?)),"
                        + " n as (select nextval('medjava_cache_change') as seq from l)"
                        + " select seq, pg_notify(?, seq || ' ' || ?) from n")) {
                    s.setLong(1, ORDER_LOCK);
                    s.setString(2, CHANNEL);
                    s.setString(3, key);
                    try (ResultSet rs = s.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                }
            });
        } catch (StoreException e) {
            throw new StorageUnavailableException("the change of " + key + " is stored, but the other nodes' caches"
                    + " could not be told: " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        long pause = 1;
        while (true) {
            int behind;
            try {
                behind = database.run("waiting for the caches of the other nodes", c -> {
                    try (PreparedStatement s = c.prepareStatement("select count(*) from medjava_cache_node"
                            + " where node <> ? and seen < ? and expires_at > clock_timestamp()")) {
                        s.setString(1, node);
                        s.setLong(2, seq);
                        try (ResultSet rs = s.executeQuery()) {
                            rs.next();
                            return rs.getInt(1);
                        }
                    }
                });
            } catch (StoreException e) {
                behind = -1; // the database is away: the leases run out meanwhile, ask again
            }
            if (behind == 0) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new StorageUnavailableException("the change of " + key + " is stored, but other nodes did not"
                        + " confirm dropping their cached copy within " + WAIT.toSeconds() + " s", null);
            }
            sleep(pause);
            pause = Math.min(pause * 2, 20);
        }
    }

    private void listen() {
        while (!closed) {
            try (Connection c = database.connect(); Statement s = c.createStatement()) {
                s.execute("listen " + CHANNEL);
                // announced before this number were installed before it was drawn, so before the copies dropped
                // next; those after it are heard here
                long seen;
                try (ResultSet rs = s.executeQuery("select case when is_called then last_value else 0 end"
                        + " from medjava_cache_change")) {
                    rs.next();
                    seen = rs.getLong(1);
                }
                cache.invalidateAll();
                try (PreparedStatement up = c.prepareStatement("insert into medjava_cache_node (node, seen,"
                        + " expires_at) values (?, ?, clock_timestamp() + make_interval(secs => ?))"
                        + " on conflict (node) do update set seen = excluded.seen, expires_at = excluded.expires_at")) {
                    long sent = System.nanoTime();
                    up.setString(1, node);
                    up.setLong(2, seen);
                    up.setDouble(3, termNanos / 1e9);
                    up.executeUpdate();
                    trust(sent);
                }
                PGConnection pg = c.unwrap(PGConnection.class);
                try (PreparedStatement renew = c.prepareStatement("update medjava_cache_node set seen = ?,"
                        + " expires_at = clock_timestamp() + make_interval(secs => ?) where node = ?")) {
                    long renewed = System.nanoTime();
                    while (!closed) {
                        PGNotification[] notes = pg.getNotifications((int) RENEW_MILLIS);
                        if (closed) {
                            break; // nothing more applied nor answered
                        }
                        boolean heard = notes != null && notes.length > 0;
                        if (heard) {
                            for (PGNotification n : notes) {
                                String text = n.getParameter();
                                int space = text.indexOf(' ');
                                cache.invalidate(text.substring(space + 1));
                                seen = Math.max(seen, Long.parseLong(text.substring(0, space)));
                            }
                        }
                        if (heard || System.nanoTime() - renewed > TimeUnit.MILLISECONDS.toNanos(RENEW_MILLIS)) {
                            long sent = System.nanoTime();
                            renew.setLong(1, seen);
                            renew.setDouble(2, termNanos / 1e9);
                            renew.setString(3, node);
                            if (renew.executeUpdate() == 1) {
                                trust(sent);
                                renewed = sent;
                            }
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                trustedUntil = System.nanoTime() - 1; // what comes next may not be heard
                if (!closed) {
                    LOG.log(Level.WARNING, "the object cache lost the shared database " + database.describe() + " ("
                            + e.getMessage() + "); it serves no copies until it listens again");
                    sleep(1_000);
                }
            }
        }
    }

    /** A renewal sent at {@code sent} succeeded: copies may be served until its term, less a tenth, from then. */
    private void trust(long sent) {
        trustedUntil = sent + termNanos - termNanos / 10;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops listening and renewing without leaving, as a node killed does (tests). */
    void silence() {
        closed = true;
        listener.interrupt();
    }

    @Override
    public void close() {
        closed = true;
        trustedUntil = System.nanoTime() - 1;
        listener.interrupt();
        try {
            database.run("leaving the cluster's caches", c -> {
                try (PreparedStatement d = c.prepareStatement("delete from medjava_cache_node where node = ?")) {
                    d.setString(1, node);
                    return d.executeUpdate();
                }
            });
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "the cache lease runs out by itself", e);
        }
    }
}
