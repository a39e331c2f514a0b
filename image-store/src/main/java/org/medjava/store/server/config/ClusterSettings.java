package org.medjava.store.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;

/**
 * Whether this node is one of several sharing a PostgreSQL index and S3 storage, and its name among them.
 *
 * @param node this node's name: {@code medjava.cluster.node}, else the host name and the data directory's name
 */
public record ClusterSettings(boolean enabled, String node) {

    /**
     * Several nodes as one store, coordinated through the PostgreSQL they share ({@code medjava.db.url}) and S3
     * storage: a node refuses to start without a PostgreSQL {@code medjava.db.url} and {@code medjava.storage=s3}, or
     * when a live node uses another storage (see docs/cluster.md).
     */
    static final Key ENABLED = Key.of("medjava.cluster.enabled", "false");

    /**
     * This node's name, unique in the cluster ({@code node1}, {@code store2}, ...): in logs and in the coordination
     * tables. Unset: the host name and the data directory's name ({@code host:dir}).
     */
    static final Key NODE = Key.of("medjava.cluster.node");

    public static ClusterSettings from(SettingsSource source, Path dataDir) {
        return new ClusterSettings(source.bool(ENABLED), source.text(NODE).filter(s -> !s.isBlank()).map(String::trim)
                .orElseGet(() -> hostName() + ":" + dataDir.getFileName()));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }
}
