package org.medjava.store.core.jobs;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;

/**
 * This node's workers: each polls the {@link JobQueue} for the next job it can claim and runs it with its
 * {@link JobKind}, reporting progress (its heartbeat) as it goes. A node with more free workers simply claims more
 * jobs; a job of a kind this node does not know is failed with the list of kinds it knows. A job asked to stop
 * learns it at its next progress report ({@link JobQueue.Cancelled}) and ends CANCELLED, with what its kind says it
 * left as the result. While a job runs, its submitter is the thread's {@link Caller}, whom the audit trail names.
 */
public final class JobWorkers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JobWorkers.class.getName());
    private static final long IDLE_MILLIS = 500;
    /** The heartbeat of a job whose work reports no progress for a while. */
    private static final long BEAT_MILLIS = 5_000;

    private final JobQueue queue;
    private final String node;
    private final Map<String, JobKind> kinds;
    private final ExecutorService workers;
    private volatile boolean closed;

    public JobWorkers(JobQueue queue, String node, Map<String, JobKind> kinds, int threads) {
        this.queue = queue;
        this.node = node;
        this.kinds = Map.copyOf(kinds);
        this.workers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "job-worker");
            t.setDaemon(true);
            t.setContextClassLoader(JobWorkers.class.getClassLoader());
            return t;
        });
        for (int i = 0; i < threads; i++) {
            workers.execute(this::work);
        }
    }

    /**
     * Queues a job of a known kind whose parameters its kind accepts ({@link JobKind#validate}).
     *
     * @throws StoreException BAD_REQUEST for an unknown kind, or what the kind's validation throws
     */
    public JobStatus submit(String kind, Map<String, String> params) {
        return submit(kind, params, null);
    }

    /** As {@link #submit(String, Map)}, for the account {@code owner}. */
    public JobStatus submit(String kind, Map<String, String> params, String owner) {
        JobKind known = kinds.get(kind);
        if (known == null) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "no job kind \"" + kind + "\"; kinds: "
                    + String.join(", ", new java.util.TreeSet<>(kinds.keySet())));
        }
        known.validate(params);
        return queue.submit(kind, params, owner);
    }

    public JobQueue queue() {
        return queue;
    }

    private void work() {
        while (!closed) {
            Optional<JobStatus> claimed;
            try {
                claimed = queue.claim(node);
            } catch (RuntimeException e) { // the shared database is away: try again later
                LOG.log(Level.FINE, "no job claimed", e);
                claimed = Optional.empty();
            }
            if (claimed.isEmpty()) {
                sleep(IDLE_MILLIS);
                continue;
            }
            run(claimed.get());
        }
    }

    private void run(JobStatus job) {
        JobKind kind = kinds.get(job.kind());
        if (kind == null) {
            queue.finish(job.id(), node, JobStatus.State.FAILED, "this node does not know job kind " + job.kind());
            return;
        }
        LOG.info("job " + job.id() + " (" + job.kind() + ", attempt " + job.attempts() + ") started on " + node);
        long[] lastBeat = {System.nanoTime()};
        int[] last = {0, 0};
        Thread beat = new Thread(() -> { // keeps the lease while a step of the work takes long
            while (!Thread.currentThread().isInterrupted()) {
                sleep(BEAT_MILLIS);
                if (System.nanoTime() - lastBeat[0] > TimeUnit.MILLISECONDS.toNanos(BEAT_MILLIS)) {
                    try {
                        queue.progress(job.id(), node, last[0], last[1]);
                    } catch (JobQueue.Cancelled e) {
                        // recorded all the same; the job learns it at its own next report and cleans up
                    } catch (RuntimeException e) {
                        return;
                    }
                }
            }
        }, "job-heartbeat");
        beat.setDaemon(true);
        beat.start();
        // what the job stores or deletes is recorded in the audit trail as done by its submitter
        Caller owner = job.owner() == null ? Caller.STORE : Caller.account(job.owner(), null);
        try {
            String result = kind.run(job.params(), (done, total) -> {
                last[0] = done;
                last[1] = total;
                lastBeat[0] = System.nanoTime();
                queue.progress(job.id(), node, done, total);
            }, owner);
            queue.finish(job.id(), node, JobStatus.State.DONE, result);
            LOG.info("job " + job.id() + " (" + job.kind() + ") done on " + node);
        } catch (JobQueue.Lost e) {
            LOG.warning(e.getMessage() + "; " + node + " stops it");
        } catch (JobQueue.Cancelled e) {
            LOG.info("job " + job.id() + " (" + job.kind() + ") cancelled on " + node + ": " + e.getMessage());
            end(job, JobStatus.State.CANCELLED, e.getMessage());
        } catch (Exception e) {
            LOG.log(Level.WARNING, "job " + job.id() + " (" + job.kind() + ") failed on " + node, e);
            end(job, JobStatus.State.FAILED, String.valueOf(e.getMessage()));
        } finally {
            beat.interrupt();
        }
    }

    private void end(JobStatus job, JobStatus.State state, String result) {
        try {
            queue.finish(job.id(), node, state, result);
        } catch (RuntimeException ignored) {
            // the database is away: the lease lapses and another node runs the job again
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
        workers.shutdownNow();
    }
}
