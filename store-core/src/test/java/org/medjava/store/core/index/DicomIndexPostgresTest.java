package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.medjava.store.testkit.peers.LocalPostgres;

/**
 * The {@link DicomIndex} contract on a real PostgreSQL: one private server for the class ({@link LocalPostgres}),
 * a fresh database per test. PostgreSQL must be installed ({@code bootstrap/install-deps.sh}); a missing server is
 * a failure, not a skip.
 */
class DicomIndexPostgresTest extends DicomIndexContract {
    private static LocalPostgres postgres;
    private static int databases;

    @BeforeAll
    static void startPostgres() {
        postgres = LocalPostgres.start();
    }

    @AfterAll
    static void stopPostgres() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Override
    IndexDatabase newDatabase() {
        String url = postgres.createDatabase("index_" + databases++);
        return IndexDatabase.of(url, postgres.user(), postgres.password());
    }

    /** The online backup of a PostgreSQL index (pg_dump) loads with pg_restore into an empty database, whole. */
    @Test
    void anOnlineBackupIsAPgDumpThatPgRestoreLoadsIntoAnEmptyDatabase() throws Exception {
        Path ct = TestDicom.ct().patient("P9", "Backup^Test").study("1.2.826.9.1", "20240101")
                .series("1.2.826.9.1.1", "CT", 1).instance("1.2.826.9.1.1.1", 1).writeTo(tmp.resolve("ct.dcm"));
        IndexFiles.put(index, "backup/ct.dcm", ct);

        Path dump = IndexBackup.write(database, tmp.resolve("backup"));
        assertThat(dump.getFileName().toString()).isEqualTo(IndexBackup.PG_DUMP);

        String restoredUrl = postgres.createDatabase("restored_" + databases++);
        Path pgRestore = Path.of(IndexBackup.findPgDump().orElseThrow()).resolveSibling("pg_restore");
        ProcessBuilder pb = new ProcessBuilder(pgRestore.toString(), "--no-owner", "--no-privileges", "--dbname",
                IndexBackup.libpqUri(restoredUrl), dump.toString()).redirectErrorStream(true);
        pb.environment().put("PGUSER", postgres.user());
        pb.environment().put("PGPASSWORD", postgres.password());
        Process restore = pb.start();
        String output = new String(restore.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(restore.waitFor()).as(output).isZero();
        DicomIndex restored = new DicomIndex(IndexDatabase.of(restoredUrl, postgres.user(), postgres.password()));
        try {
            assertThat(restored.instance("backup/ct.dcm")).hasValueSatisfying(i -> assertThat(i.sopInstanceUid())
                    .isEqualTo("1.2.826.9.1.1.1"));
            assertThat(restored.counts()).isEqualTo(index.counts());
        } finally {
            restored.close();
        }
    }

    /**
     * Two nodes on one database write one series at once: the same SOP Instance UIDs at paths of their own, others
     * beside, then one node removes its copies while the other writes the same UIDs into a second series. The kept
     * counts are what counting gives (each node's writes count under locks the other's respect).
     */
    @Test
    void twoNodesWritingTheSameInstancesAtOnceKeepExactCounts() throws Exception {
        int n = 24;
        Path files = java.nio.file.Files.createDirectories(tmp.resolve("race"));
        List<Path> ct = new ArrayList<>();
        List<Path> mr = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ct.add(TestDicom.ct().patient("PR", "Race^Rita").study("1.2.826.77.1", "20240101")
                    .series("1.2.826.77.1.1", "CT", 1).instance("1.2.826.77.1.1." + i, i)
                    .writeTo(files.resolve("ct" + i + ".dcm")));
            mr.add(TestDicom.mr().patient("PR", "Race^Rita").study("1.2.826.77.1", "20240101")
                    .series("1.2.826.77.1.2", "MR", 2).instance("1.2.826.77.1.1." + i, i)
                    .writeTo(files.resolve("mr" + i + ".dcm")));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (DicomIndex other = new DicomIndex(database)) {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                writes.add(pool.submit(() -> IndexFiles.put(index, "a/" + k + ".dcm", ct.get(k))));
                writes.add(pool.submit(() -> IndexFiles.put(other, "b/" + k + ".dcm", ct.get(k))));
            }
            for (Future<?> w : writes) {
                w.get();
            }
            assertThat(index.count()).isEqualTo(n);
            assertCountsKept();
            writes.clear();
            for (int i = 0; i < n; i++) {
                int k = i;
                writes.add(pool.submit(() -> index.remove("a/" + k + ".dcm")));
                writes.add(pool.submit(() -> IndexFiles.put(other, "a/" + k + "/mr.dcm", mr.get(k))));
                writes.add(pool.submit(() -> other.remove("b/" + (n - 1 - k) + ".dcm")));
            }
            for (Future<?> w : writes) {
                w.get();
            }
            assertCountsKept();
            assertThat(other.count()).isEqualTo(n);
            assertThat(other.series("1.2.826.77.1")).extracting(SeriesSummary::numberOfSeriesRelatedInstances)
                    .containsExactly((long) n); // the CT copies are gone: each instance is in the MR series
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aLocalServerIsPrivateAndLeavesNothingBehind() throws Exception {
        long start = System.nanoTime();
        LocalPostgres other = LocalPostgres.start();
        Path dir = other.directory();
        try {
            assertThat(dir.toString()).startsWith("/tmp/medjava-pg-");
            assertThat(other.port()).isNotEqualTo(postgres.port());
            try (Connection c = DriverManager.getConnection(other.jdbcUrl(), other.user(), other.password());
                    ResultSet rs = c.createStatement().executeQuery(
                            "SELECT current_database(), current_user, current_setting('listen_addresses')")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo(LocalPostgres.DATABASE);
                assertThat(rs.getString(2)).isEqualTo(LocalPostgres.USER);
                assertThat(rs.getString(3)).isEqualTo("127.0.0.1");
            }
        } finally {
            other.close();
        }
        System.out.printf("LocalPostgres: started, checked and stopped in %d ms%n",
                (System.nanoTime() - start) / 1_000_000);
        assertThat(dir).doesNotExist();
        assertThatThrownBy(() -> DriverManager.getConnection(other.jdbcUrl(), other.user(), other.password()))
                .isInstanceOf(SQLException.class);
        other.close(); // idempotent
    }

    @Test
    void theTablesAndIndexesAreCreated() throws SQLException {
        try (Connection c = DriverManager.getConnection(database.url(), postgres.user(), postgres.password());
                ResultSet rs = c.createStatement().executeQuery(
                        "SELECT indexname FROM pg_indexes WHERE tablename LIKE 'mj\\_%' ORDER BY indexname")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            assertThat(names).contains("mj_patient_id_ix", "mj_patient_name_ix", "mj_study_date_ix",
                    "mj_study_accession_ix", "mj_series_modality_ix", "mj_instance_dir_ix", "mj_instance_pkey",
                    "mj_study_pkey", "mj_series_pkey");
        }
    }

    @Test
    void aUserWhoCannotCreateTheTablesGetsTheDatabasesReason() throws SQLException {
        String url = postgres.createDatabase("index_readonly");
        try (Connection c = DriverManager.getConnection(url, postgres.user(), postgres.password())) {
            // PostgreSQL 15 and later: only the owner creates in schema public
            c.createStatement().execute("CREATE ROLE plain_user LOGIN");
        }
        assertThatThrownBy(() -> new DicomIndex(IndexDatabase.of(url, "plain_user", "")))
                .isInstanceOf(IndexException.class)
                .hasMessageContaining("cannot create or extend the DICOM index tables in " + url)
                .hasMessageContaining("permission denied");
    }

    @Test
    void aDatabaseThatDoesNotExistFailsWithTheUrl() {
        String url = postgres.jdbcUrl("no_such_database");
        assertThatThrownBy(() -> new DicomIndex(IndexDatabase.of(url, postgres.user(), postgres.password())))
                .isInstanceOf(IndexException.class).hasMessageContaining("cannot open the DICOM index database " + url)
                .hasMessageContaining("no_such_database");
    }

    /**
     * A claim holds the rows it selected until it commits: another node's claim meanwhile skips them (SKIP LOCKED)
     * instead of taking the ones this claim has not updated yet, or waiting for it. Each update here is slowed by a
     * trigger, so the second claim comes while the first is between its select and its last update.
     */
    @Test
    void aRouteClaimHoldsItsCandidatesSoThatAnotherNodesClaimSkipsThemWithoutWaiting() throws Exception {
        Instant now = Instant.parse("2026-12-07T00:00:00Z");
        RouteQueue queue = index.routes();
        assertThat(queue.enqueue("r", "dimse:X", null, List.of(new RouteTask.Item("1.2.3", "1.2.3.1", "1.2.3.1.1"),
                new RouteTask.Item("1.2.3", "1.2.3.1", "1.2.3.1.2"), new RouteTask.Item("1.2.3", "1.2.3.1",
                        "1.2.3.1.3")), now)).isEqualTo(3);
        try (Connection c = DriverManager.getConnection(database.url(), postgres.user(), postgres.password())) {
            c.createStatement().execute("create function slow_claim() returns trigger language plpgsql as"
                    + " $$ begin perform pg_sleep(1); return new; end $$");
            c.createStatement().execute("create trigger slow_claim before update on mj_route_task for each row"
                    + " execute function slow_claim()");
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<RouteQueue.Claimed> first = pool.submit(() -> queue.claim("node-a", now,
                        Duration.ofMinutes(5), 10));
                while (!first.isDone() && !sleeping(c)) {
                    Thread.sleep(20);
                }
                long t0 = System.nanoTime();
                RouteQueue.Claimed second = queue.claim("node-b", now, Duration.ofMinutes(5), 10);
                long waited = (System.nanoTime() - t0) / 1_000_000;
                assertThat(second.tasks()).as("what node b claimed while node a was claiming").isEmpty();
                assertThat(waited).as("ms node b waited").isLessThan(1_000);
                assertThat(first.get().tasks()).hasSize(3);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /**
     * One instance queued for one rule on two nodes at once (a study routed on demand from two nodes) is one task,
     * not two sent twice: "where not exists" alone does not see the other node's uncommitted row. Each insert here
     * is slowed by a trigger, so the second queueing comes while the first has checked but not committed.
     */
    @Test
    void anInstanceQueuedForARuleOnTwoNodesAtOnceIsOneTask() throws Exception {
        Instant now = Instant.parse("2026-12-07T00:00:00Z");
        RouteQueue queue = index.routes();
        List<RouteTask.Item> item = List.of(new RouteTask.Item("1.2.3", "1.2.3.1", "1.2.3.1.1"));
        try (Connection c = DriverManager.getConnection(database.url(), postgres.user(), postgres.password())) {
            c.createStatement().execute("create function slow_queue() returns trigger language plpgsql as"
                    + " $$ begin perform pg_sleep(1); return new; end $$");
            c.createStatement().execute("create trigger slow_queue before insert on mj_route_task for each row"
                    + " execute function slow_queue()");
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<Integer> first = pool.submit(() -> queue.enqueue("r", "dimse:X", null, item, now));
                while (!first.isDone() && !sleeping(c)) {
                    Thread.sleep(20);
                }
                int second = queue.enqueue("r", "dimse:X", null, item, now);
                assertThat(first.get() + second).as("tasks queued by the two nodes").isEqualTo(1);
            } finally {
                pool.shutdownNow();
            }
        }
        assertThat(queue.list(null, 10)).hasSize(1);
        assertThat(queue.enqueue("other", "dimse:X", null, item, now)).as("another rule's task").isEqualTo(1);
    }

    /** Whether a statement is in the test's trigger (sleeping). */
    private static boolean sleeping(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("select count(*) from pg_stat_activity"
                + " where wait_event = 'PgSleep'")) {
            return rs.next() && rs.getInt(1) > 0;
        }
    }
}
