package org.medjava.store.core.jobs;

import java.util.Map;
import org.medjava.store.core.audit.Caller;

/** The work behind one kind of job. Runs again from the start when a node died running it: make it idempotent. */
@FunctionalInterface
public interface JobKind {

    /** Where a running job reports its progress (and learns that it was given up or cancelled). */
    interface Progress {
        /**
         * @throws JobQueue.Lost      when the job was taken over by another node: stop at once
         * @throws JobQueue.Cancelled when someone cancelled the job: undo what the run wrote, then throw a
         *                            {@link JobQueue.Cancelled} whose message says what is left (it becomes the result)
         */
        void update(int done, int total);
    }

    /**
     * Checks a job's parameters (and what they name) when it is submitted, before it is queued, so that a request
     * that cannot succeed is answered at once. Nothing by default.
     *
     * @throws org.medjava.store.core.StoreException saying what is wrong (its kind becomes the HTTP status)
     */
    default void validate(Map<String, String> params) {
    }

    /**
     * Runs a job.
     *
     * @param owner who submitted it ({@link Caller#STORE} when the store did): what the job stores or deletes is
     *              recorded in the audit trail as done by them
     * @return a short JSON text describing the result
     * @throws Exception the job fails with the exception's message ({@link JobQueue.Cancelled}: it is cancelled)
     */
    String run(Map<String, String> params, Progress progress, Caller owner) throws Exception;
}
