package org.medjava.store.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.PathLocks;
import org.medjava.store.core.storage.ObjectCache;
import org.medjava.store.core.storage.StorageEntry;
import org.medjava.store.testkit.peers.LocalPostgres;

/**
 * The coordination primitives of a cluster on a real PostgreSQL, with two "nodes" as two sets of objects on their
 * own connections: path locks exclude each other across nodes, shared state reaches the other node's subscribers,
 * and a restarted database is reconnected to.
 */
class ClusterCoordinationTest {

    private static LocalPostgres postgres;
    private static IndexDatabase database;

    @BeforeAll
    static void start() {
        postgres = LocalPostgres.start();
        database = IndexDatabase.of(postgres.jdbcUrl(), postgres.user(), postgres.password());
    }

    @AfterAll
    static void stop() {
        postgres.close();
    }

    @Test
    void pathLocksExcludeEachOtherAcrossNodes() throws Exception {
        try (ClusterDatabase a = new ClusterDatabase(database); ClusterDatabase b = new ClusterDatabase(database)) {
            List<PathLocks> nodes = List.of(new PostgresPathLocks(a, "a"), new PostgresPathLocks(b, "b"));
            StorePath path = StorePath.parse("p/one.dcm");
            AtomicInteger inside = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<?>> writers = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    PathLocks locks = nodes.get(t % 2);
                    writers.add(pool.submit(() -> {
                        for (int i = 0; i < 20; i++) {
                            try (PathLocks.Held held = locks.lock(path)) {
                                if (inside.incrementAndGet() > 1) {
                                    overlaps.incrementAndGet();
                                }
                                Thread.sleep(1);
                                inside.decrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : writers) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(overlaps).as("two writers of one path at once").hasValue(0);

            // a file and its directory form are one lock; another path is not held up
            try (PathLocks.Held held = nodes.get(0).lock(StorePath.parse("p/one.dcm"))) {
                CountDownLatch other = new CountDownLatch(1);
                Thread t = new Thread(() -> {
                    try (PathLocks.Held h = nodes.get(1).lock(StorePath.parse("p/two.dcm"))) {
                        other.countDown();
                    }
                });
                t.start();
                assertThat(other.await(10, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void aNodeWhoseLeaseRanOutLearnsItLostTheLockBeforeItWrites() throws Exception {
        try (ClusterDatabase a = new ClusterDatabase(database); ClusterDatabase b = new ClusterDatabase(database);
             PostgresPathLocks nodeA = new PostgresPathLocks(a, "a"); PostgresPathLocks nodeB =
                     new PostgresPathLocks(b, "b")) {
            StorePath path = StorePath.parse("p/cut.dcm");
            try (PathLocks.Held held = nodeA.lock(path)) {
                held.verify(); // held: no exception
                assertThat(nodeB.tryLock(path)).as("held by node A").isEmpty();
                // node A's lease runs out (as it does when A is cut off from the database and cannot renew it)
                endLeases(b, "a");
                try (PathLocks.Held other = nodeB.lock(path)) {
                    other.verify(); // node B may write now ...
                    assertThatThrownBy(held::verify).as("... and node A must not").isInstanceOfSatisfying(
                            StoreException.class, e -> {
                                assertThat(e.kind()).isEqualTo(StoreException.Kind.UNAVAILABLE);
                                assertThat(e.getMessage()).contains("ran out");
                            });
                    other.settled();
                }
            }
            assertThat(nodeA.unsettled()).as("B's write settled the path; A wrote nothing").isEmpty();
        }
    }

    @Test
    void aWriteThatEndedUnsettledOrWhoseNodeDiedIsLeftForAnyNodeToSettle() throws Exception {
        try (ClusterDatabase a = new ClusterDatabase(database); ClusterDatabase b = new ClusterDatabase(database);
             PostgresPathLocks nodeA = new PostgresPathLocks(a, "a", java.time.Duration.ofSeconds(3));
             PostgresPathLocks nodeB = new PostgresPathLocks(b, "b")) {
            StorePath refused = StorePath.parse("p/refused.dcm");
            StorePath unsettled = StorePath.parse("p/unsettled.dcm");
            StorePath died = StorePath.parse("p/died.dcm");
            StorePath settled = StorePath.parse("p/settled.dcm");
            try (PathLocks.Held h = nodeA.lock(refused)) {
                assertThat(h).isNotNull(); // refused before writing: no verify, nothing to settle
            }
            try (PathLocks.Held h = nodeA.lock(unsettled)) {
                h.verify(); // the object changed, the index did not follow: no settled()
            }
            try (PathLocks.Held h = nodeA.lock(settled)) {
                h.verify();
                h.settled();
            }
            PathLocks.Held dying = nodeA.lock(died);
            dying.verify();
            nodeA.close(); // node A dies mid-write: its lease is no longer renewed
            assertThat(nodeB.unsettled()).containsExactly(unsettled);
            assertThat(nodeB.tryLock(died)).as("A's lease has not run out yet").isEmpty();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (nodeB.unsettled().size() < 2 && System.nanoTime() < end) {
                Thread.sleep(100);
            }
            assertThat(nodeB.unsettled()).containsExactlyInAnyOrder(unsettled, died);

            // a node that takes such a path and reconciles it settles it; one that only looks leaves it unsettled
            try (PathLocks.Held h = nodeB.tryLock(died).orElseThrow()) {
                assertThat(h).isNotNull();
            }
            assertThat(nodeB.unsettled()).containsExactlyInAnyOrder(unsettled, died);
            for (StorePath p : List.of(unsettled, died)) {
                try (PathLocks.Held h = nodeB.tryLock(p).orElseThrow()) {
                    h.settled();
                }
            }
            assertThat(nodeB.unsettled()).isEmpty();
            dying.close(); // the dead node's late release changes nothing
            assertThat(nodeB.unsettled()).isEmpty();
        }
    }

    /** Ends the leases {@code node} holds, as the database's clock would once it stopped renewing them. */
    private static void endLeases(ClusterDatabase db, String node) {
        db.run("ending leases", c -> {
            try (java.sql.PreparedStatement s = c.prepareStatement("update medjava_write set expires_at ="
                    + " clock_timestamp() - interval '1 second' where node = ?")) {
                s.setString(1, node);
                return s.executeUpdate();
            }
        });
    }

    @Test
    void sharedStateReachesTheOtherNodesSubscribers() throws Exception {
        try (ClusterDatabase a = new ClusterDatabase(database); ClusterDatabase b = new ClusterDatabase(database);
             SharedState nodeA = new SharedState(a); SharedState nodeB = new SharedState(b)) {
            CountDownLatch told = new CountDownLatch(1);
            AtomicLong heardAt = new AtomicLong();
            Thread.sleep(500); // let B's listener settle (its first catch-up tells its subscribers once)
            nodeB.subscribe("test", () -> {
                if (nodeB.all("test").containsKey("k")) {
                    heardAt.compareAndSet(0, System.nanoTime());
                    told.countDown();
                }
            });
            long t0 = System.nanoTime();
            nodeA.put("test", "k", "v".getBytes(StandardCharsets.UTF_8));
            assertThat(told.await(10, TimeUnit.SECONDS)).as("node B heard of node A's change").isTrue();
            System.out.printf("ClusterCoordinationTest: a change on node A reached node B's subscriber after %.1f ms%n",
                    (heardAt.get() - t0) / 1e6);
            assertThat(new String(nodeB.all("test").get("k").value(), StandardCharsets.UTF_8)).isEqualTo("v");

            assertThat(nodeA.putIfAbsent("test", "once", new byte[] {1})).isTrue();
            assertThat(nodeB.putIfAbsent("test", "once", new byte[] {2})).isFalse();
            assertThat(nodeA.remove("test", "once")).isTrue();
            assertThat(nodeB.remove("test", "once")).isFalse();
        }
    }

    @Test
    void aRevocationOnOneNodeHoldsOnTheOtherAndExpiredOnesAreForgotten() {
        try (ClusterDatabase a = new ClusterDatabase(database); ClusterDatabase b = new ClusterDatabase(database)) {
            SharedRevocations nodeA = new SharedRevocations(a);
            SharedRevocations nodeB = new SharedRevocations(b);
            java.time.Instant now = java.time.Instant.now();
            assertThat(nodeB.isRevoked("session-1")).isFalse();
            nodeA.revoke("session-1", now.plusSeconds(3600), now);
            nodeA.revoke("session-old", now.plusSeconds(1), now);
            assertThat(nodeB.isRevoked("session-1")).as("revoked on A, seen on B at once").isTrue();
            assertThat(nodeB.isRevoked("session-old")).isTrue();
            nodeB.revoke("session-1", now.plusSeconds(60), now); // an earlier instant does not shorten it
            nodeB.revoke("session-2", now.plusSeconds(3600), now.plusSeconds(120));
            assertThat(nodeA.isRevoked("session-old")).as("forgotten once past its instant").isFalse();
            assertThat(nodeA.isRevoked("session-1")).isTrue();
            assertThat(nodeA.isRevoked("session-2")).isTrue();
        }
    }

    @Test
    void aRestartedDatabaseIsReconnectedToAndMissedChangesAreCaughtUp() throws Exception {
        LocalPostgres own = LocalPostgres.start();
        IndexDatabase db = IndexDatabase.of(own.jdbcUrl(), own.user(), own.password());
        try (ClusterDatabase a = new ClusterDatabase(db); ClusterDatabase b = new ClusterDatabase(db);
             SharedState nodeA = new SharedState(a); SharedState nodeB = new SharedState(b)) {
            AtomicInteger seen = new AtomicInteger();
            nodeB.subscribe("restart", () -> seen.set(nodeB.all("restart").size()));
            PathLocks locks = new PostgresPathLocks(a, "a");
            try (PathLocks.Held held = locks.lock(StorePath.parse("x.gif"))) {
                assertThat(held).isNotNull();
            }
            own.stopServer();
            assertThatThrownBy(() -> locks.lock(StorePath.parse("x.gif"))).isInstanceOfSatisfying(
                    StoreException.class, e -> {
                        assertThat(e.kind()).isEqualTo(StoreException.Kind.UNAVAILABLE);
                        assertThat(e.getMessage()).contains("medjava.db.url");
                    });
            own.startAgain();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            boolean written = false;
            while (!written && System.nanoTime() < end) {
                try {
                    nodeA.put("restart", "after", new byte[] {1});
                    written = true;
                } catch (StoreException e) {
                    Thread.sleep(200);
                }
            }
            assertThat(written).as("a write after the restart, without a manual step").isTrue();
            while (seen.get() == 0 && System.nanoTime() < end) {
                Thread.sleep(100);
            }
            assertThat(seen).as("node B caught up after reconnecting").hasValue(1);
            try (PathLocks.Held held = locks.lock(StorePath.parse("x.gif"))) {
                assertThat(held).isNotNull();
            }
        } finally {
            own.close();
        }
    }

    @Test
    void aWriterReturnsOnlyOnceTheOtherNodesDroppedTheirCopyAndASilentNodeHoldsItUpOneTermAtMost(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.time.Duration term = java.time.Duration.ofSeconds(2);
        try (ClusterDatabase a = new ClusterDatabase(database); ClusterDatabase b = new ClusterDatabase(database)) {
            ObjectCache cacheA = new ObjectCache(dir.resolve("a"), 1 << 20, 1 << 18);
            ObjectCache cacheB = new ObjectCache(dir.resolve("b"), 1 << 20, 1 << 18);
            SharedCacheCoherence nodeA = new SharedCacheCoherence(a, "a", cacheA, term);
            SharedCacheCoherence nodeB = new SharedCacheCoherence(b, "b", cacheB, term);
            try {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!(nodeA.trusted() && nodeB.trusted()) && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
                assertThat(nodeB.trusted()).as("listening, with a lease").isTrue();
                for (int round = 0; round < 20; round++) {
                    String key = "p/" + round % 3 + ".dcm";
                    StorageEntry copy = new StorageEntry(key, false, 3, java.time.Instant.now(), "\"" + round + "\"");
                    assertThat(cacheB.copy(key, copy, new java.io.ByteArrayInputStream(new byte[3]),
                            cacheB.generation(key)).kept()).isTrue();
                    nodeA.changed(key);
                    assertThat(cacheB.peek(key)).as("round %d: dropped on B before A's write returned", round)
                            .isEmpty();
                }
                // B falls silent (as a node killed -9): A's next write waits for B's lease to run out, no longer,
                // and by then B, which may still believe its copies, does not
                nodeB.silence();
                long start = System.nanoTime();
                nodeA.changed("p/after.dcm");
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(nodeB.trusted()).as("B's own reckoning of its lease ends first").isFalse();
                assertThat(waited).as("held up by the silent node, one term at most (and a renewal)")
                        .isLessThan(term.toMillis() + 2_000);
                nodeA.changed("p/again.dcm"); // its row ran out: not waited for again
            } finally {
                nodeA.close();
                nodeB.close();
            }
        }
    }

}
