package org.medjava.store.core.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.cluster.ClusterDatabase;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.testkit.peers.LocalPostgres;

/**
 * The job queues and this node's workers: the shared queue on a real PostgreSQL with two "nodes" (two queues on
 * their own connections) claiming at once, a lapsed lease taken over, the old node told it lost the job; the workers
 * running jobs with their progress visible, failing them with the reason, refusing unknown kinds and parameters their
 * kind refuses; cancellation on both queues (queued: at once; running: at its next report; ended: unchanged), and an
 * older queue table upgraded.
 */
class JobQueueTest {

    private static LocalPostgres postgres;
    private static ClusterDatabase nodeA;
    private static ClusterDatabase nodeB;

    @BeforeAll
    static void start() {
        postgres = LocalPostgres.start();
        IndexDatabase db = IndexDatabase.of(postgres.jdbcUrl(), postgres.user(), postgres.password());
        nodeA = new ClusterDatabase(db);
        nodeB = new ClusterDatabase(db);
    }

    @AfterAll
    static void stop() {
        nodeA.close();
        nodeB.close();
        postgres.close();
    }

    @Test
    void eachQueueKeepsTheOwnerAndListsOneOwnersJobsWhenAsked() {
        for (JobQueue queue : List.of(new LocalJobQueue(), new SharedJobQueue(nodeA, 60))) {
            String mine = queue.submit("owner-test", Map.of(), "ulf").id();
            String theirs = queue.submit("owner-test", Map.of(), "admin").id();
            String stores = queue.submit("owner-test", Map.of()).id();
            assertThat(queue.get(mine).orElseThrow().owner()).isEqualTo("ulf");
            assertThat(queue.get(stores).orElseThrow().owner()).isNull();
            List<String> ulfs = queue.list(1000, "ulf").stream().map(JobStatus::id).toList();
            assertThat(ulfs).contains(mine).doesNotContain(theirs, stores);
            assertThat(queue.list(1, "ulf")).extracting(JobStatus::id).containsExactly(ulfs.get(0));
            assertThat(queue.list(1000).stream().map(JobStatus::id)).contains(mine, theirs, stores);
            for (String id : List.of(mine, theirs, stores)) { // none left queued for the other tests' workers
                assertThat(queue.cancel(id).orElseThrow().job().owner()).isEqualTo(queue.get(id).orElseThrow().owner());
            }
            assertThat(queue.get(mine).orElseThrow().owner()).isEqualTo("ulf");
        }
    }

    @Test
    void nodesClaimingAtOnceNeverGetTheSameJob() throws Exception {
        SharedJobQueue a = new SharedJobQueue(nodeA, 60);
        SharedJobQueue b = new SharedJobQueue(nodeB, 60);
        Set<String> submitted = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            submitted.add(a.submit("claim-test", Map.of("n", Integer.toString(i), "text", "a=b\nc\\d")).id());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<List<String>>> claimers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            SharedJobQueue q = t % 2 == 0 ? a : b;
            String node = "node-" + t;
            claimers.add(pool.submit(() -> {
                List<String> mine = new ArrayList<>();
                for (Optional<JobStatus> j; (j = q.claim(node)).isPresent(); ) {
                    if (submitted.contains(j.get().id())) { // not another test's job in the same database
                        assertThat(j.get().params()).containsEntry("text", "a=b\nc\\d");
                        mine.add(j.get().id());
                    }
                }
                return mine;
            }));
        }
        List<String> claimed = new ArrayList<>();
        for (Future<List<String>> f : claimers) {
            claimed.addAll(f.get(60, TimeUnit.SECONDS));
        }
        pool.shutdownNow();
        assertThat(claimed).as("every job claimed exactly once").hasSize(20).doesNotHaveDuplicates()
                .containsAll(submitted);
    }

    @Test
    void aJobWhoseNodeFellSilentIsTakenOverAndTheOldNodeLearnsIt() throws Exception {
        SharedJobQueue a = new SharedJobQueue(nodeA, 6);
        SharedJobQueue b = new SharedJobQueue(nodeB, 6);
        String id = a.submit("lease-test", Map.of()).id();
        JobStatus first = claimUntil(() -> a.claim("dead"), id);
        assertThat(first.attempts()).isEqualTo(1);
        a.progress(id, "dead", 1, 10);
        assertThat(b.get(id)).get().satisfies(j -> {
            assertThat(j.state()).isEqualTo(JobStatus.State.RUNNING);
            assertThat(j.node()).isEqualTo("dead");
            assertThat(j.done()).isEqualTo(1);
            assertThat(j.total()).isEqualTo(10);
        });
        assertThat(b.claim("alive").map(JobStatus::id)).as("the lease holds for a while").isNotEqualTo(Optional.of(id));

        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Optional<JobStatus> taken = Optional.empty();
        while (taken.isEmpty() && System.nanoTime() < end) {
            Thread.sleep(500);
            taken = b.claim("alive").filter(j -> j.id().equals(id));
        }
        assertThat(taken).as("taken over once the lease lapsed").get().satisfies(j -> {
            assertThat(j.node()).isEqualTo("alive");
            assertThat(j.attempts()).isEqualTo(2);
        });
        assertThatThrownBy(() -> a.progress(id, "dead", 2, 10)).isInstanceOf(JobQueue.Lost.class);
        a.finish(id, "dead", JobStatus.State.DONE, "{}"); // ignored: not the holder any more
        assertThat(b.get(id)).get().extracting(JobStatus::state).isEqualTo(JobStatus.State.RUNNING);
        b.finish(id, "alive", JobStatus.State.DONE, "{\"ok\":true}");
        assertThat(a.get(id)).get().satisfies(j -> {
            assertThat(j.state()).isEqualTo(JobStatus.State.DONE);
            assertThat(j.result()).isEqualTo("{\"ok\":true}");
        });
    }

    @Test
    void aJobRunsAsItsSubmitterForTheAuditTrail() throws Exception {
        JobQueue queue = new LocalJobQueue();
        Map<String, JobKind> kinds = Map.of("who", (params, progress, owner) ->
                owner.isStore() ? "nobody" : owner.userId());
        try (JobWorkers workers = new JobWorkers(queue, "node-u", kinds, 1)) {
            assertThat(awaitEnd(queue, workers.submit("who", Map.of(), "ulf").id()).result()).isEqualTo("ulf");
            assertThat(awaitEnd(queue, workers.submit("who", Map.of()).id()).result()).isEqualTo("nobody");
        }
    }

    @Test
    void workersRunJobsReportProgressAndFailThemWithTheReason() throws Exception {
        for (JobQueue queue : List.of(new LocalJobQueue(), new SharedJobQueue(nodeA, 60))) {
            Map<String, JobKind> kinds = Map.of(
                    "count", (params, progress, owner) -> {
                        int n = Integer.parseInt(params.get("n"));
                        for (int i = 1; i <= n; i++) {
                            progress.update(i, n);
                        }
                        return "{\"counted\":" + n + "}";
                    },
                    "broken", (params, progress, owner) -> {
                        throw new IllegalStateException("the input is gone");
                    });
            try (JobWorkers workers = new JobWorkers(queue, "node-w", kinds, 2)) {
                String ok = workers.submit("count", Map.of("n", "5")).id();
                String bad = workers.submit("broken", Map.of()).id();
                JobStatus done = awaitEnd(queue, ok);
                assertThat(done.state()).isEqualTo(JobStatus.State.DONE);
                assertThat(done.result()).isEqualTo("{\"counted\":5}");
                assertThat(done.done()).isEqualTo(5);
                assertThat(done.total()).isEqualTo(5);
                assertThat(done.node()).isEqualTo("node-w");
                JobStatus failed = awaitEnd(queue, bad);
                assertThat(failed.state()).isEqualTo(JobStatus.State.FAILED);
                assertThat(failed.result()).isEqualTo("the input is gone");
                assertThatThrownBy(() -> workers.submit("nothing", Map.of())).isInstanceOfSatisfying(
                        StoreException.class, e -> {
                            assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST);
                            assertThat(e.getMessage()).contains("broken, count");
                        });
                assertThat(queue.list(10)).extracting(JobStatus::id).contains(ok, bad);
                Map<JobStatus.State, Long> counts = queue.countByState(); // the shared queue holds other tests' too
                assertThat(counts).containsOnlyKeys(JobStatus.State.values());
                assertThat(counts.get(JobStatus.State.DONE)).isPositive();
                assertThat(counts.get(JobStatus.State.FAILED)).isPositive();
                if (queue instanceof LocalJobQueue) {
                    assertThat(counts).containsEntry(JobStatus.State.DONE, 1L)
                            .containsEntry(JobStatus.State.FAILED, 1L).containsEntry(JobStatus.State.QUEUED, 0L);
                }
            }
        }
    }

    @Test
    void cancellingEndsAQueuedJobAtOnceAndARunningOneAtItsNextReport() {
        for (JobQueue queue : List.of(new LocalJobQueue(), new SharedJobQueue(nodeA, 60))) {
            String queued = queue.submit("cancel-test", Map.of()).id();
            JobQueue.Cancellation c = queue.cancel(queued).orElseThrow();
            assertThat(c.outcome()).isEqualTo(JobQueue.CancelOutcome.CANCELLED);
            assertThat(c.job().state()).isEqualTo(JobStatus.State.CANCELLED);
            assertThat(queue.get(queued)).get().satisfies(j -> {
                assertThat(j.state()).isEqualTo(JobStatus.State.CANCELLED);
                assertThat(j.result()).isEqualTo("cancelled before it started");
                assertThat(j.finished()).isNotNull();
            });

            String running = queue.submit("cancel-test", Map.of()).id();
            claimUntil(() -> queue.claim("node-c"), running);
            queue.progress(running, "node-c", 1, 4);
            JobQueue.Cancellation asked = queue.cancel(running).orElseThrow();
            assertThat(asked.outcome()).isEqualTo(JobQueue.CancelOutcome.REQUESTED);
            assertThat(asked.job().state()).isEqualTo(JobStatus.State.RUNNING);
            assertThat(asked.job().cancelRequested()).isTrue();
            assertThatThrownBy(() -> queue.progress(running, "node-c", 2, 4))
                    .isInstanceOf(JobQueue.Cancelled.class).hasMessageContaining(running);
            assertThat(queue.get(running)).get().satisfies(j -> {
                assertThat(j.state()).as("running until its worker ends it").isEqualTo(JobStatus.State.RUNNING);
                assertThat(j.done()).as("the report is recorded all the same").isEqualTo(2);
            });
            queue.finish(running, "node-c", JobStatus.State.CANCELLED, "cancelled after 2 of 4");
            assertThat(queue.get(running)).get().satisfies(j -> {
                assertThat(j.state()).isEqualTo(JobStatus.State.CANCELLED);
                assertThat(j.result()).isEqualTo("cancelled after 2 of 4");
            });

            assertThat(queue.cancel(running)).get().extracting(JobQueue.Cancellation::outcome)
                    .isEqualTo(JobQueue.CancelOutcome.ALREADY_FINISHED);
            assertThat(queue.get(running)).get().extracting(JobStatus::result).isEqualTo("cancelled after 2 of 4");
            assertThat(queue.cancel("no-such-job")).isEmpty();
        }
    }

    @Test
    void aPollReadsOnlyClaimableRowsHoweverManyEndedJobsTheTableKeeps() {
        SharedJobQueue queue = new SharedJobQueue(nodeA, 60);
        nodeA.run("filling the table with ended jobs", c -> {
            try (var s = c.createStatement()) {
                s.execute("insert into medjava_job (id, kind, params, state, created, finished)"
                        + " select 'ended-' || n, 'ended-test', '', 'DONE', now() - n * interval '1 second', now()"
                        + " from generate_series(1, 50000) n");
                s.execute("analyze medjava_job");
            }
            return null;
        });
        try {
            String waiting = queue.submit("poll-test", Map.of()).id();
            String plan = nodeA.run("explaining a poll", c -> {
                try (var q = c.prepareStatement("explain (analyze, buffers, format text) "
                        + SharedJobQueue.CLAIMABLE)) {
                    q.setInt(1, 60);
                    StringBuilder text = new StringBuilder();
                    try (var rs = q.executeQuery()) {
                        while (rs.next()) {
                            text.append(rs.getString(1)).append('\n');
                        }
                    }
                    return text.toString();
                }
            });
            assertThat(plan).as(plan).contains("Index Scan using medjava_job_claimable on medjava_job")
                    .doesNotContain("Seq Scan");
            // the index holds the one queued job (and those other tests left running), not the 50,000 ended ones
            assertThat(plan).as(plan).containsPattern("Index Scan using medjava_job_claimable[^\n]*rows=\\d+ loops=1\\)")
                    .doesNotContainPattern("Rows Removed by Filter: \\d{3,}");
            assertThat(queue.cancel(waiting)).isPresent();
        } finally {
            nodeA.run("removing the ended jobs", c -> {
                try (var s = c.createStatement()) {
                    s.execute("delete from medjava_job where kind = 'ended-test'");
                }
                return null;
            });
        }
    }

    @Test
    void aLocalQueueClaimsTheOldestQueuedJobPastEndedAndCancelledOnes() {
        LocalJobQueue queue = new LocalJobQueue();
        for (int i = 0; i < 1000; i++) {
            String id = queue.submit("ended-test", Map.of()).id();
            queue.claim("node-l");
            queue.finish(id, "node-l", JobStatus.State.DONE, "done");
        }
        String cancelled = queue.submit("poll-test", Map.of()).id();
        String first = queue.submit("poll-test", Map.of()).id();
        String second = queue.submit("poll-test", Map.of()).id();
        queue.cancel(cancelled);
        assertThat(queue.claim("node-l")).get().extracting(JobStatus::id).isEqualTo(first);
        assertThat(queue.claim("node-l")).get().extracting(JobStatus::id).isEqualTo(second);
        assertThat(queue.claim("node-l")).isEmpty();
        assertThat(queue.countByState()).containsEntry(JobStatus.State.DONE, 1000L)
                .containsEntry(JobStatus.State.CANCELLED, 1L).containsEntry(JobStatus.State.RUNNING, 2L);
    }

    @Test
    void aQueueTableFromBeforeCancellationIsUpgraded() {
        new SharedJobQueue(nodeA, 60); // the table exists
        nodeA.run("dropping the column", c -> {
            try (var s = c.createStatement()) {
                s.execute("alter table medjava_job drop column cancel_requested");
            }
            return null;
        });
        SharedJobQueue queue = new SharedJobQueue(nodeB, 60);
        String id = queue.submit("upgrade-test", Map.of()).id();
        assertThat(queue.get(id)).get().extracting(JobStatus::cancelRequested).isEqualTo(false);
        assertThat(queue.cancel(id)).get().extracting(JobQueue.Cancellation::outcome)
                .isEqualTo(JobQueue.CancelOutcome.CANCELLED);
    }

    @Test
    void aWorkerEndsACancelledJobWithWhatTheJobSaysItLeft() throws Exception {
        for (JobQueue queue : List.of(new LocalJobQueue(), new SharedJobQueue(nodeA, 60))) {
            java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
            Map<String, JobKind> kinds = Map.of("slow", (params, progress, owner) -> {
                progress.update(1, 3);
                started.countDown();
                assertThat(cancelled.await(30, TimeUnit.SECONDS)).isTrue();
                try {
                    progress.update(2, 3);
                } catch (JobQueue.Cancelled e) {
                    throw new JobQueue.Cancelled("cancelled after 2 of 3; undone");
                }
                return "{}";
            });
            try (JobWorkers workers = new JobWorkers(queue, "node-x", kinds, 1)) {
                String id = workers.submit("slow", Map.of()).id();
                assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
                assertThat(queue.cancel(id)).get().extracting(JobQueue.Cancellation::outcome)
                        .isEqualTo(JobQueue.CancelOutcome.REQUESTED);
                cancelled.countDown();
                JobStatus end = awaitEnd(queue, id);
                assertThat(end.state()).isEqualTo(JobStatus.State.CANCELLED);
                assertThat(end.result()).isEqualTo("cancelled after 2 of 3; undone");
                assertThat(end.done()).isEqualTo(2);
            }
        }
    }

    @Test
    void aKindRefusesBadParametersBeforeTheJobIsQueued() {
        JobQueue queue = new LocalJobQueue();
        JobKind picky = new JobKind() {
            @Override
            public void validate(Map<String, String> params) {
                if (!params.containsKey("n")) {
                    throw new StoreException(StoreException.Kind.BAD_REQUEST, "needs n");
                }
            }

            @Override
            public String run(Map<String, String> params, Progress progress,
                              org.medjava.store.core.audit.Caller owner) {
                return "{}";
            }
        };
        try (JobWorkers workers = new JobWorkers(queue, "node-v", Map.of("picky", picky), 1)) {
            assertThatThrownBy(() -> workers.submit("picky", Map.of())).hasMessage("needs n");
            assertThat(queue.list(10)).as("nothing queued").isEmpty();
            assertThat(workers.submit("picky", Map.of("n", "1")).state()).isEqualTo(JobStatus.State.QUEUED);
        }
    }

    private static JobStatus claimUntil(Supplier<Optional<JobStatus>> claim, String id) {
        for (int i = 0; i < 100; i++) {
            Optional<JobStatus> j = claim.get();
            if (j.isPresent() && j.get().id().equals(id)) {
                return j.get();
            }
        }
        throw new AssertionError("job " + id + " was not claimed");
    }

    private static JobStatus awaitEnd(JobQueue queue, String id) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JobStatus j = queue.get(id).orElseThrow();
        while (!j.state().finished() && System.nanoTime() < end) {
            Thread.sleep(50);
            j = queue.get(id).orElseThrow();
        }
        return j;
    }
}
