package org.medjava.store.core.index;

/**
 * How many connections one store node may hold to a PostgreSQL server at most ({@code medjava.db.max-connections}),
 * and how they are split. The formula an operator sizes a cluster by is
 * {@code nodes × max-connections ≤ max_connections − superuser_reserved_connections − other clients}: with
 * PostgreSQL's defaults (100, 3 reserved) and the default 12 per node, six nodes hold at most 72, leaving room for
 * backups, {@code psql} and a seventh node.
 *
 * <p>On a cluster node: two LISTEN sessions (the shared state's, the object caches'), a quarter (at least 2) for coordination (write leases, shared state,
 * the job queue), the rest for the index's reads and writes (writes run one at a time per node, so reads get
 * almost all of it). A single store gives the index all of it. Every pool lets a connection idle for a minute go.
 *
 * @param perNode the node's total, at least {@value #MIN}
 */
public record ConnectionBudget(int perNode) {

    /** medjava.db.max-connections when unset. */
    public static final int DEFAULT = 12;
    /** Fewer would leave the index a single connection on a cluster node. */
    public static final int MIN = 6;

    public ConnectionBudget {
        if (perNode < MIN) {
            throw new IllegalArgumentException("medjava.db.max-connections must be at least " + MIN + ", not "
                    + perNode);
        }
    }

    public static ConnectionBudget defaults() {
        return new ConnectionBudget(DEFAULT);
    }

    /** The LISTEN sessions of a cluster node (held for good, outside any pool). */
    public int listeners(boolean cluster) {
        return cluster ? 2 : 0;
    }

    /** The coordination pool of a cluster node. */
    public int coordination() {
        return Math.max(2, perNode / 4);
    }

    /** The index's pool. */
    public int index(boolean cluster) {
        return cluster ? perNode - listeners(true) - coordination() : perNode;
    }
}
