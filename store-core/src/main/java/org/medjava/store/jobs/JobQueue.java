package org.medjava.store.jobs;

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

    JobStatus submit(String kind, Map<String, String> params);

    Optional<JobStatus> get(String id);

    /** The newest jobs first, at most {@code limit}. */
    List<JobStatus> list(int limit);

    /** How many jobs are in each state (every state present, 0 when none). */
    Map<JobStatus.State, Long> countByState();

    /** Claims the oldest waiting job (or one whose node died) for {@code node}, or nothing. */
    Optional<JobStatus> claim(String node);

    /**
     * Records progress, and that {@code node} is alive and still holds the job.
     *
     * @throws Lost when another node holds it now
     */
    void progress(String id, String node, int done, int total);

    /** Records the end of a job held by {@code node}; ignored when another node holds it now. */
    void finish(String id, String node, boolean ok, String result);

    @Override
    void close();
}
