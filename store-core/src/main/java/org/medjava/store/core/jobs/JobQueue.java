package org.medjava.store.core.jobs;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where jobs wait and are claimed: this process's memory ({@link LocalJobQueue}) or the cluster's PostgreSQL
 * ({@link SharedJobQueue}), where any node with a free worker claims the oldest waiting job and a job whose node
 * stopped beating is claimed again.
 */
public interface JobQueue extends AutoCloseable {

    /** The job's node lost it (its heartbeat lapsed and another node took it over). */
    final class Lost extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Lost(String id) {
            super("job " + id + " was taken over by another node");
        }
    }

    /**
     * The job was cancelled: thrown by {@link #progress} to the job's worker, and by a job that has cleaned up after
     * itself, with the message saying what it left (the job's result).
     */
    final class Cancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Cancelled(String message) {
            super(message);
        }
    }

    /** What {@link #cancel} did. */
    enum CancelOutcome {
        /** the job was waiting: it is CANCELLED now and will not run */
        CANCELLED,
        /** the job is running: it was asked to stop and will, at its next progress report */
        REQUESTED,
        /** the job had ended already (DONE, FAILED or CANCELLED): nothing changed */
        ALREADY_FINISHED
    }

    /** The outcome of a cancellation and the job as it is now. */
    record Cancellation(CancelOutcome outcome, JobStatus job) {
    }

    /** Queues a job for {@code owner} (an account name; null for the store's own jobs). */
    JobStatus submit(String kind, Map<String, String> params, String owner);

    /** Queues a job of the store's own, owned by nobody (administrators see it). */
    default JobStatus submit(String kind, Map<String, String> params) {
        return submit(kind, params, null);
    }

    Optional<JobStatus> get(String id);

    /** The newest jobs first, at most {@code limit}. */
    default List<JobStatus> list(int limit) {
        return list(limit, null);
    }

    /** The newest jobs of {@code owner} first (every job's when null), at most {@code limit}. */
    List<JobStatus> list(int limit, String owner);

    /** How many jobs are in each state (every state present, 0 when none). */
    Map<JobStatus.State, Long> countByState();

    /** Claims the oldest waiting job (or one whose node died) for {@code node}, or nothing. */
    Optional<JobStatus> claim(String node);

    /**
     * Records progress, and that {@code node} is alive and still holds the job.
     *
     * @throws Lost      when another node holds it now
     * @throws Cancelled when the job was asked to stop (the progress is recorded all the same)
     */
    void progress(String id, String node, int done, int total);

    /**
     * Records the end of a job held by {@code node} (DONE, FAILED or CANCELLED); ignored when another node holds it
     * now.
     */
    void finish(String id, String node, JobStatus.State end, String result);

    /**
     * Asks a job to stop: a QUEUED job is CANCELLED at once, a RUNNING one learns it at its next progress report.
     *
     * @return empty for an unknown job
     */
    Optional<Cancellation> cancel(String id);

    @Override
    void close();
}
