package org.medjava.store.core.cluster;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The small state every node of a cluster must agree on (accounts, the filter plugins and their suspensions, who
 * seeded the store), kept in the shared PostgreSQL: one row per (kind, key), a revision from one sequence, and a
 * {@code NOTIFY medjava_state} naming the kind on every change.
 *
 * <p>Each node LISTENs on a connection of its own and calls the kind's subscribers when told, so a change made on
 * one node is applied on the others within milliseconds. Notifications are not stored: a node that was cut off
 * (its listening session broken, the database restarted) reconnects and also compares each kind's latest revision
 * every few seconds, so it catches up on whatever it missed without a manual step.
 */
public final class SharedState implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SharedState.class.getName());
    static final String CHANNEL = "medjava_state";
    private static final long POLL_MILLIS = 2_000;

    /** One value and the revision it was written at. */
    public record Entry(byte[] value, long revision) {
    }

    private final ClusterDatabase database;
    private final Map<String, List<Runnable>> subscribers = new ConcurrentHashMap<>();
    /** Per kind, what the subscribers were last told about: count and highest revision. */
    private final Map<String, String> seen = new ConcurrentHashMap<>();
    private final Thread listener;
    private volatile boolean closed;

    public SharedState(ClusterDatabase database) {
        this.database = database;
        database.createIfMissing(
                "create sequence if not exists medjava_state_revision",
                "create table if not exists medjava_state (kind varchar(32) not null, key varchar(256) not null,"
                        + " value bytea not null, revision bigint not null, primary key (kind, key))");
        listener = new Thread(this::listen, "cluster-state-listener");
        listener.setDaemon(true);
        listener.start();
    }

    /** Every entry of a kind. */
    public Map<String, Entry> all(String kind) {
        return database.run("reading the shared " + kind, c -> {
            Map<String, Entry> entries = new HashMap<>();
            try (PreparedStatement q = c.prepareStatement("select key, value, revision from medjava_state"
                    + " where kind = ?")) {
                q.setString(1, kind);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        entries.put(rs.getString(1), new Entry(rs.getBytes(2), rs.getLong(3)));
                    }
                }
            }
            return entries;
        });
    }

    /** Creates or replaces an entry and tells every node. */
    public void put(String kind, String key, byte[] value) {
        change(kind, "storing the shared " + kind + " " + key, c -> {
            try (PreparedStatement u = c.prepareStatement("insert into medjava_state (kind, key, value, revision)"
                    + " values (?, ?, ?, nextval('medjava_state_revision')) on conflict (kind, key) do update"
                    + " set value = excluded.value, revision = excluded.revision")) {
                u.setString(1, kind);
                u.setString(2, key);
                u.setBytes(3, value);
                u.executeUpdate();
            }
            return true;
        });
    }

    /**
     * Creates an entry unless one exists (one node wins a race).
     *
     * @return whether this call created it
     */
    public boolean putIfAbsent(String kind, String key, byte[] value) {
        return change(kind, "claiming the shared " + kind + " " + key, c -> {
            try (PreparedStatement u = c.prepareStatement("insert into medjava_state (kind, key, value, revision)"
                    + " values (?, ?, ?, nextval('medjava_state_revision')) on conflict (kind, key) do nothing")) {
                u.setString(1, kind);
                u.setString(2, key);
                u.setBytes(3, value);
                return u.executeUpdate() == 1;
            }
        });
    }

    /** @return whether there was such an entry */
    public boolean remove(String kind, String key) {
        return change(kind, "removing the shared " + kind + " " + key, c -> {
            try (PreparedStatement d = c.prepareStatement("delete from medjava_state where kind = ? and key = ?")) {
                d.setString(1, kind);
                d.setString(2, key);
                return d.executeUpdate() == 1;
            }
        });
    }

    /** Runs a change and its NOTIFY in one transaction: the other nodes hear of it only once it is committed. */
    private boolean change(String kind, String what, ClusterDatabase.Work<Boolean> work) {
        return database.run(what, c -> {
            c.setAutoCommit(false);
            try {
                boolean changed = work.run(c);
                if (changed) {
                    try (PreparedStatement n = c.prepareStatement("select pg_notify(?, ?)")) {
                        n.setString(1, CHANNEL);
                        n.setString(2, kind);
                        n.execute();
                    }
                }
                c.commit();
                return changed;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        });
    }

    /** Calls {@code onChange} (on the listener thread) whenever an entry of {@code kind} changed on any node. */
    public void subscribe(String kind, Runnable onChange) {
        subscribers.computeIfAbsent(kind, k -> new CopyOnWriteArrayList<>()).add(onChange);
    }

    private void listen() {
        while (!closed) {
            try (Connection c = database.connect(); Statement s = c.createStatement()) {
                s.execute("listen " + CHANNEL);
                PGConnection pg = c.unwrap(PGConnection.class);
                catchUp(c); // whatever changed while this node was not listening
                while (!closed) {
                    PGNotification[] notes = pg.getNotifications((int) POLL_MILLIS);
                    if (notes != null) {
                        for (PGNotification n : notes) {
                            tell(n.getParameter());
                        }
                    }
                    catchUp(c);
                }
            } catch (SQLException | RuntimeException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "lost the shared database " + database.describe() + " (" + e.getMessage()
                            + "); reconnecting");
                    sleep(1_000);
                }
            }
        }
    }

    /** Tells the subscribers of every kind whose latest revision or count is not what they were last told of. */
    private void catchUp(Connection c) throws SQLException {
        Map<String, String> now = new HashMap<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select kind, count(*), max(revision) from medjava_state group by kind")) {
            while (rs.next()) {
                now.put(rs.getString(1), rs.getLong(2) + "@" + rs.getLong(3));
            }
        }
        for (String kind : subscribers.keySet()) {
            String state = now.getOrDefault(kind, "0@0");
            if (!Objects.equals(seen.get(kind), state)) {
                seen.put(kind, state);
                tell(kind);
            }
        }
    }

    private void tell(String kind) {
        for (Runnable r : subscribers.getOrDefault(kind, List.of())) {
            try {
                r.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "applying a change of the shared " + kind + " failed; retried on the next"
                        + " change or poll", e);
                seen.remove(kind);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closed = true;
        listener.interrupt();
    }
}
