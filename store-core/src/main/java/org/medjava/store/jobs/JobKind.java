package org.medjava.store.jobs;

import java.util.Map;

/** The work behind one kind of job. Runs again from the start when a node died running it: make it idempotent. */
@FunctionalInterface
public interface JobKind {

    /** Where a running job reports its progress (and learns that it was given up). */
    interface Progress {
        /** @throws JobQueue.Lost when the job was taken over by another node: stop at once */
        void update(int done, int total);
    }

    /**
     * Runs a job.
     *
     * @return a short JSON text describing the result
     * @throws Exception the job fails with the exception's message
     */
    String run(Map<String, String> params, Progress progress) throws Exception;
}
