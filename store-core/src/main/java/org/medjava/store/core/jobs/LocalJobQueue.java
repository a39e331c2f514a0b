package org.medjava.store.core.jobs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** The jobs of a single store node, in memory: they do not survive a restart (nothing else would run them). */
public final class LocalJobQueue implements JobQueue {

    private final Map<String, JobStatus> jobs = new LinkedHashMap<>();
    /** The queued jobs' ids, oldest first: a claim takes the first, whatever number of ended jobs is kept. */
    private final Set<String> queued = new LinkedHashSet<>();

    @Override
    public synchronized JobStatus submit(String kind, Map<String, String> params, String owner) {
        JobStatus job = new JobStatus(UUID.randomUUID().toString(), kind, Map.copyOf(params),
                JobStatus.State.QUEUED, null, 0, 0, 0, null, Instant.now(), null, null, false, owner);
        jobs.put(job.id(), job);
        queued.add(job.id());
        return job;
    }

    @Override
    public synchronized Optional<JobStatus> get(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    @Override
    public synchronized List<JobStatus> list(int limit, String owner) {
        List<JobStatus> all = new ArrayList<>(jobs.values());
        all.removeIf(j -> owner != null && !owner.equals(j.owner()));
        all.sort(Comparator.comparing(JobStatus::created).reversed());
        return all.subList(0, Math.min(limit, all.size()));
    }

    @Override
    public synchronized Map<JobStatus.State, Long> countByState() {
        Map<JobStatus.State, Long> counts = new java.util.EnumMap<>(JobStatus.State.class);
        for (JobStatus.State state : JobStatus.State.values()) {
            counts.put(state, 0L);
        }
        jobs.values().forEach(j -> counts.merge(j.state(), 1L, Long::sum));
        return counts;
    }

    @Override
    public synchronized Optional<JobStatus> claim(String node) {
        Iterator<String> next = queued.iterator();
        if (!next.hasNext()) {
            return Optional.empty();
        }
        JobStatus j = jobs.get(next.next());
        next.remove();
        JobStatus running = new JobStatus(j.id(), j.kind(), j.params(), JobStatus.State.RUNNING, node, 0, 0,
                j.attempts() + 1, null, j.created(), Instant.now(), null, false, j.owner());
        jobs.put(j.id(), running);
        return Optional.of(running);
    }

    @Override
    public synchronized void progress(String id, String node, int done, int total) {
        JobStatus j = jobs.get(id);
        jobs.put(id, new JobStatus(id, j.kind(), j.params(), j.state(), node, done, total, j.attempts(), null,
                j.created(), j.started(), null, j.cancelRequested(), j.owner()));
        if (j.cancelRequested()) {
            throw new Cancelled("job " + id + " was cancelled");
        }
    }

    @Override
    public synchronized void finish(String id, String node, JobStatus.State end, String result) {
        JobStatus j = jobs.get(id);
        if (j.state() != JobStatus.State.RUNNING) {
            return;
        }
        jobs.put(id, new JobStatus(id, j.kind(), j.params(), end, node, j.done(), j.total(), j.attempts(), result,
                j.created(), j.started(), Instant.now(), j.cancelRequested(), j.owner()));
    }

    @Override
    public synchronized Optional<Cancellation> cancel(String id) {
        JobStatus j = jobs.get(id);
        if (j == null) {
            return Optional.empty();
        }
        JobStatus now;
        CancelOutcome outcome;
        switch (j.state()) {
            case QUEUED -> {
                outcome = CancelOutcome.CANCELLED;
                queued.remove(id);
                now = new JobStatus(id, j.kind(), j.params(), JobStatus.State.CANCELLED, null, 0, 0, j.attempts(),
                        "cancelled before it started", j.created(), null, Instant.now(), true, j.owner());
            }
            case RUNNING -> {
                outcome = CancelOutcome.REQUESTED;
                now = new JobStatus(id, j.kind(), j.params(), j.state(), j.node(), j.done(), j.total(), j.attempts(),
                        j.result(), j.created(), j.started(), null, true, j.owner());
            }
            default -> {
                outcome = CancelOutcome.ALREADY_FINISHED;
                now = j;
            }
        }
        jobs.put(id, now);
        return Optional.of(new Cancellation(outcome, now));
    }

    @Override
    public void close() {
    }
}
