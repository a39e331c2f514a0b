package org.medjava.store.core.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The audit trail an administrator can search: each event goes to the trail it wraps (audit.log, syslog: the
 * evidence, as before) and, as an {@link AuditRecord}, into a queue that a background thread writes in batches to
 * {@code store} (the index database's {@code mj_audit}). The caller never waits for the database; when it is down
 * or slower than the events for long, records beyond the queue's bound are left out of the searchable copy (said
 * once in the log; audit.log still has them).
 */
public final class SearchableTrail implements AuditTrail, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SearchableTrail.class.getName());
    private static final int QUEUE = 100_000;
    private static final int BATCH = 500;

    private final AuditTrail evidence;
    private final String self;
    private volatile Consumer<List<AuditRecord>> store;
    private final BlockingQueue<AuditRecord> queue = new ArrayBlockingQueue<>(QUEUE);
    private final Thread writer;
    private volatile boolean closed;
    private volatile boolean troubled;
    /** Records queued or being written. */
    private final java.util.concurrent.atomic.AtomicLong pending = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A trail whose records wait in the queue until {@link #open} (the index opens after the first events).
     *
     * @param self the store's AuditSourceID (the user of the events the store does by itself)
     */
    public SearchableTrail(AuditTrail evidence, String self) {
        this.evidence = evidence;
        this.self = self;
        this.writer = new Thread(this::run, "audit-index");
        writer.setDaemon(true);
    }

    /** Starts writing the records, queued and to come, to {@code store} (which throws when it cannot). */
    public void open(Consumer<List<AuditRecord>> store) {
        this.store = store;
        writer.start();
    }

    @Override
    public void record(AuditEvent event) {
        evidence.record(event);
        AuditRecord r;
        try {
            r = AuditRecord.of(event, self);
        } catch (RuntimeException e) {
            LOG.warning("an audit event could not be made searchable: " + e);
            return;
        }
        pending.incrementAndGet();
        if (!queue.offer(r)) {
            pending.decrementAndGet();
        }
        if (pending.get() >= QUEUE && !troubled) {
            troubled = true;
            LOG.warning("the searchable audit trail falls behind (the database?): events are left out of it until it"
                    + " catches up; audit.log has them all");
        }
    }

    /** Returns when everything recorded so far is in the database, or was given up (for a query to see it). */
    public void sync() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        synchronized (this) {
            while (pending.get() > 0 && System.nanoTime() < deadline && writer.isAlive() && !closed) {
                try {
                    wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void run() {
        List<AuditRecord> batch = new ArrayList<>(BATCH);
        while (!closed || !queue.isEmpty()) {
            try {
                AuditRecord first = queue.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, BATCH - 1);
                write(batch);
            } catch (InterruptedException e) {
                return;
            } finally {
                pending.addAndGet(-batch.size());
                batch.clear();
                synchronized (this) {
                    notifyAll();
                }
            }
        }
    }

    private void write(List<AuditRecord> batch) {
        if (batch.isEmpty()) {
            return;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                store.accept(batch);
                if (troubled && queue.isEmpty()) {
                    troubled = false;
                    LOG.info("the searchable audit trail is written again");
                }
                return;
            } catch (RuntimeException e) {
                if (attempt == 3 || closed) {
                    if (!troubled) {
                        troubled = true;
                        LOG.warning("cannot write the searchable audit trail (" + e.getMessage() + "): " + batch.size()
                                + " events left out of it; audit.log has them");
                    }
                    return;
                }
                try {
                    Thread.sleep(1000L * attempt);
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Writes what is queued, then stops. */
    @Override
    public void close() {
        closed = true;
        if (store == null) {
            return;
        }
        try {
            writer.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
