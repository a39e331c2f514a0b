package org.medjava.store.core.cluster;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The live nodes of a cluster, each with a heartbeat in the shared database. A node joins only when every live node
 * uses the same storage: two nodes writing different buckets (or one on local files) would split the store without
 * anybody noticing, so that is refused at start with the setting to fix.
 */
public final class ClusterNodes implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterNodes.class.getName());
    private static final int HEARTBEAT_SECONDS = 5;
    /** A node not heard of for this long is taken for dead. */
    private static final int ALIVE_SECONDS = 20;

    private final ClusterDatabase database;
    private final String node;
    private final ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cluster-heartbeat");
        t.setDaemon(true);
        return t;
    });

    private ClusterNodes(ClusterDatabase database, String node) {
        this.database = database;
        this.node = node;
    }

    /**
     * Joins the cluster as {@code node} with {@code storage} (its description).
     *
     * @throws IllegalStateException naming the settings when a live node uses another storage, or another live
     *                               node has this name
     */
    public static ClusterNodes join(ClusterDatabase database, String node, String storage) {
        database.createIfMissing("create table if not exists medjava_node (name varchar(128) primary key,"
                + " storage varchar(1024) not null, heartbeat timestamptz not null)");
        database.run("joining the cluster", c -> {
            try (PreparedStatement q = c.prepareStatement("select name, storage from medjava_node where name <> ?"
                    + " and heartbeat > now() - make_interval(secs => ?)")) {
                q.setString(1, node);
                q.setInt(2, ALIVE_SECONDS);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        if (!rs.getString(2).equals(storage)) {
                            throw new IllegalStateException("node " + rs.getString(1) + " of this cluster keeps its"
                                    + " objects in " + rs.getString(2) + ", this node in " + storage + "; every node"
                                    + " must share one storage: check medjava.storage and medjava.storage.s3.*");
                        }
                    }
                }
            }
            return null;
        });
        ClusterNodes nodes = new ClusterNodes(database, node);
        nodes.beat(storage);
        nodes.heartbeat.scheduleWithFixedDelay(() -> nodes.beatQuietly(storage), HEARTBEAT_SECONDS,
                HEARTBEAT_SECONDS, TimeUnit.SECONDS);
        return nodes;
    }

    private void beat(String storage) {
        database.run("the cluster heartbeat", c -> {
            try (PreparedStatement u = c.prepareStatement("insert into medjava_node (name, storage, heartbeat)"
                    + " values (?, ?, now()) on conflict (name) do update set storage = excluded.storage,"
                    + " heartbeat = excluded.heartbeat")) {
                u.setString(1, node);
                u.setString(2, storage);
                u.executeUpdate();
            }
            return null;
        });
    }

    private void beatQuietly(String storage) {
        try {
            beat(storage);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "heartbeat not written (the shared database is away)", e);
        }
    }

    /** The names of the nodes alive now (this one included). */
    public java.util.List<String> alive() {
        return database.run("listing the cluster's nodes", c -> {
            java.util.List<String> names = new java.util.ArrayList<>();
            try (PreparedStatement q = c.prepareStatement("select name from medjava_node where heartbeat > now()"
                    + " - make_interval(secs => ?) order by name")) {
                q.setInt(1, ALIVE_SECONDS);
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        names.add(rs.getString(1));
                    }
                }
            }
            return names;
        });
    }

    public String node() {
        return node;
    }

    @Override
    public void close() {
        heartbeat.shutdownNow();
        try {
            database.run("leaving the cluster", c -> {
                try (PreparedStatement d = c.prepareStatement("delete from medjava_node where name = ?")) {
                    d.setString(1, node);
                    d.executeUpdate();
                }
                return null;
            });
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "left the cluster without saying so", e);
        }
    }
}
