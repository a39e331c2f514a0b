package org.medjava.store.core.index;

import java.time.Instant;

/**
 * One instance to forward to one destination by a routing rule ({@code mj_route_task}): the queue's row, and once
 * sent or given up, the study's routing history.
 *
 * @param id             the key
 * @param rule           the rule's name (its destination and options are looked up when the task is sent)
 * @param destination    the destination as it was when the task was queued ({@code dimse:AE} or {@code stow:URL})
 * @param sourceAe       who sent the instance to the store (AE title or account); null when routed on demand
 * @param state          {@link #QUEUED}, {@link #SENDING}, {@link #SENT}, {@link #FAILED} (waiting for a retry) or
 *                       {@link #DEAD} (given up: the dead-letter list)
 * @param attempts       sends tried in all
 * @param tries          sends tried since it was queued or last retried by hand (what the dead-letter limit counts)
 * @param nextAttempt    when it may be sent (next), for a queued or failed task
 * @param leaseUntil     while sending: when another node may take it over (its sender died)
 * @param node           the node sending it, or that sent it last
 * @param lastError      why the last attempt failed, or a note on the send (a duplicate the receiver held)
 */
public record RouteTask(long id, String rule, String destination, String studyInstanceUid,
                        String seriesInstanceUid, String sopInstanceUid, String sourceAe, String state, int attempts,
                        int tries, Instant nextAttempt, Instant leaseUntil, String node, String lastError,
                        Instant created, Instant updated, Instant sent) {

    public static final String QUEUED = "queued";
    public static final String SENDING = "sending";
    public static final String SENT = "sent";
    public static final String FAILED = "failed";
    public static final String DEAD = "dead";
    public static final java.util.List<String> STATES = java.util.List.of(QUEUED, SENDING, SENT, FAILED, DEAD);

    /** An instance to queue. */
    public record Item(String studyInstanceUid, String seriesInstanceUid, String sopInstanceUid) {
    }
}
