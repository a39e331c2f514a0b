package org.medjava.store.core.jobs;

import java.time.Instant;
import java.util.Map;

/**
 * What a job is and how far it got, as every node sees it.
 *
 * @param node            the node running it (or that ran it last); null while queued
 * @param done            units of work done (instances, files), of {@code total} (0 while unknown)
 * @param attempts        how many times it was started: more than 1 when a node died running it and another took it
 *                        over
 * @param result          what it produced (a short JSON text) once DONE, or why it FAILED or what a CANCELLED job
 *                        left behind
 * @param cancelRequested someone asked a RUNNING job to stop; it stops (CANCELLED) at its next progress report
 * @param owner           the account that submitted it (only it and administrators see the job); null for jobs the
 *                        store queued itself and for jobs queued before owners were recorded
 */
public record JobStatus(String id, String kind, Map<String, String> params, State state, String node, int done,
                        int total, int attempts, String result, Instant created, Instant started, Instant finished,
                        boolean cancelRequested, String owner) {

    public enum State {
        QUEUED, RUNNING, DONE, FAILED, CANCELLED;

        public boolean finished() {
            return this == DONE || this == FAILED || this == CANCELLED;
        }
    }
}
