package org.medjava.store.core.audit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The audit of reads, queries and exports, aggregated so that the read path stays fast: a read only counts, in a
 * concurrent map, under its (kind, caller, door, study, patient, …) — no file, no database, no lock on the caller's
 * thread (an event loop of the front may call it thousands of times a second). A background thread closes the
 * window every {@code window} and records one audit event per key with its counts (e.g. "12 instances, 30
 * requests"). A plain read by store path ({@link #file}) does not know its study: the path is kept, and resolved
 * by the index ({@code studies}) on the background thread when the window closes; a path the index does not hold
 * (not a DICOM instance) is not a study read and is not recorded.
 *
 * <p>Nothing is lost between windows: the map is swapped, drained, and drained again at the next window (a count
 * made on a thread that had fetched the old map just before the swap is recorded then).
 */
public final class ReadAudit implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ReadAudit.class.getName());
    /** Keys in one window beyond which it is closed early (a flood of distinct reads must not grow the heap). */
    static final int MAX_KEYS = 100_000;

    /** A study and its patient, as the index knows a stored instance. */
    public record StudyRef(String studyInstanceUid, String patientId) {
    }

    /** Records nothing: the audit of reads turned off (medjava.audit.reads=false), or a part run without it. */
    public static final ReadAudit OFF = new ReadAudit();

    private enum Kind { FILE, READ, QUERY, EXPORT }

    /**
     * What one event aggregates. {@code subject}: the store path (FILE), the query (QUERY), the destination
     * (EXPORT); {@code what}: the query's SOP class or URI, the destination's address.
     */
    private record Key(Kind kind, Caller caller, String door, String study, String patient, String subject,
                       String what) {
    }

    /** The counts of one key in one window. */
    private static final class Tally {
        final long first = System.currentTimeMillis();
        volatile long last = first;
        final LongAdder requests = new LongAdder();
        final LongAdder instances = new LongAdder();
    }

    /** One window's counts. */
    private static final class Window {
        final ConcurrentHashMap<Key, Tally> tallies = new ConcurrentHashMap<>();
        final AtomicInteger keys = new AtomicInteger();
        final AtomicBoolean closing = new AtomicBoolean();
    }

    private final boolean on;
    private final AuditTrail trail;
    private final Function<String, StudyRef> studies;
    private final ScheduledExecutorService writer;
    private final AtomicReference<Window> current = new AtomicReference<>(new Window());
    /**
     * The windows closed in the last {@link #LATE_MILLIS}, with what was recorded of each tally: drained again at each
     * close (only the writer thread uses them).
     */
    private final java.util.ArrayDeque<Closed> recent = new java.util.ArrayDeque<>();

    /** How long a closed window is watched for counts that come late into it. */
    static final long LATE_MILLIS = 5_000;

    private record Closed(Window window, Map<Tally, long[]> recorded, long at) {
    }

    private ReadAudit() {
        this.on = false;
        this.trail = AuditTrail.NONE;
        this.studies = path -> null;
        this.writer = null;
    }

    /**
     * @param studies the study and patient of the instance at a store path; null when the index holds none there.
     *                Called on the background thread only.
     */
    public ReadAudit(AuditTrail trail, Duration window, Function<String, StudyRef> studies) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the window of the audit of reads must be positive: " + window);
        }
        this.on = true;
        this.trail = trail;
        this.studies = studies;
        this.writer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "audit-reads");
            t.setDaemon(true);
            return t;
        });
        long every = window.toMillis();
        writer.scheduleWithFixedDelay(this::closeWindow, every, every, TimeUnit.MILLISECONDS);
    }

    /** A stored file read by store path (its study looked up later); {@code caller} null: anonymous. */
    public void file(Caller caller, String door, String storePath) {
        count(new Key(Kind.FILE, caller, door, null, null, storePath, null), 1);
    }

    /** {@code instances} instances of a study read (retrieved, rendered, their metadata or frames sent). */
    public void read(Caller caller, String door, String studyInstanceUid, String patientId, int instances) {
        if (studyInstanceUid != null) {
            count(new Key(Kind.READ, caller, door, studyInstanceUid, patientId, null, null), instances);
        }
    }

    /**
     * A query, as asked ({@code query}: the QIDO-RS query string, the C-FIND keys), of {@code what} (the C-FIND SOP
     * class UID, or the QIDO-RS path); the study and patient when the query names them.
     */
    public void query(Caller caller, String door, String what, String query, String studyInstanceUid,
                      String patientId) {
        count(new Key(Kind.QUERY, caller, door, studyInstanceUid, patientId, query == null ? "" : query, what), 0);
    }

    /** {@code instances} instances of a study sent to another system ({@code destination}, at {@code address}). */
    public void export(Caller caller, String door, String destination, String address, String studyInstanceUid,
                       String patientId, int instances) {
        count(new Key(Kind.EXPORT, caller, door, studyInstanceUid, patientId, destination, address), instances);
    }

    private void count(Key key, int instances) {
        if (!on) {
            return;
        }
        Window w = current.get();
        Tally t = w.tallies.get(key);
        if (t == null) {
            t = w.tallies.computeIfAbsent(key, k -> new Tally());
            if (w.keys.incrementAndGet() > MAX_KEYS && w.closing.compareAndSet(false, true)) {
                writer.execute(this::closeWindow);
            }
        } else {
            t.last = System.currentTimeMillis();
        }
        t.requests.increment();
        t.instances.add(instances);
    }

    /**
     * Closes the current window now and returns when its events are recorded: what an administrator's query sees
     * includes the reads up to the moment it asks.
     */
    public void flush() {
        if (!on) {
            return;
        }
        try {
            writer.submit(this::closeWindow).get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warning("the audit of reads could not be written at once: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closed: everything was written
        }
    }

    /** On the writer thread: swaps the window, records its events and what came late into the ones before. */
    private void closeWindow() {
        try {
            Window closed = current.getAndSet(new Window());
            long now = System.currentTimeMillis();
            Map<Key, long[]> counts = new LinkedHashMap<>();
            for (Closed c : recent) {
                for (Map.Entry<Key, Tally> e : c.window().tallies.entrySet()) {
                    long[] seen = c.recorded().getOrDefault(e.getValue(), new long[4]); // made late: all new
                    long[] sum = sum(e.getValue());
                    if (sum[0] > seen[0]) {
                        counts.merge(e.getKey(), new long[] {sum[0] - seen[0], sum[1] - seen[1], sum[3], sum[3]},
                                ReadAudit::add);
                        c.recorded().put(e.getValue(), sum);
                    }
                }
            }
            while (!recent.isEmpty() && recent.peekFirst().at() < now - LATE_MILLIS) {
                recent.pollFirst();
            }
            Map<Tally, long[]> recorded = new HashMap<>();
            for (Map.Entry<Key, Tally> e : closed.tallies.entrySet()) {
                long[] sum = sum(e.getValue());
                recorded.put(e.getValue(), sum);
                counts.merge(e.getKey(), sum.clone(), ReadAudit::add);
            }
            recent.addLast(new Closed(closed, recorded, now));
            record(counts);
        } catch (RuntimeException e) {
            LOG.warning("the audit of reads failed to close a window: " + e);
        }
    }

    /** Requests, instances, first and last time of a tally. */
    private static long[] sum(Tally t) {
        return new long[] {t.requests.sum(), t.instances.sum(), t.first, t.last};
    }

    private static long[] add(long[] a, long[] b) {
        return new long[] {a[0] + b[0], a[1] + b[1], Math.min(a[2], b[2]), Math.max(a[3], b[3])};
    }

    /** The events of a window: reads by path resolved to their studies, then one event per key. */
    private void record(Map<Key, long[]> counts) {
        Map<String, StudyRef> resolved = new HashMap<>();
        Map<Key, long[]> byStudy = new LinkedHashMap<>();
        Map<Key, Integer> files = new HashMap<>();
        for (Map.Entry<Key, long[]> e : counts.entrySet()) {
            Key k = e.getKey();
            if (k.kind() != Kind.FILE) {
                byStudy.merge(k, e.getValue(), ReadAudit::add);
                continue;
            }
            StudyRef study = resolved.computeIfAbsent(k.subject(), this::study);
            if (study == null) {
                continue; // not a DICOM instance
            }
            Key read = new Key(Kind.READ, k.caller(), k.door(), study.studyInstanceUid(), study.patientId(), null,
                    null);
            long[] c = e.getValue().clone();
            c[1] = 0; // a file's reads are one instance, counted once below
            byStudy.merge(read, c, ReadAudit::add);
            files.merge(read, 1, Integer::sum);
        }
        for (Map.Entry<Key, long[]> e : byStudy.entrySet()) {
            long[] c = e.getValue();
            trail.record(event(e.getKey(), c[0], c[1] + files.getOrDefault(e.getKey(), 0), c[2], c[3]));
        }
    }

    private StudyRef study(String path) {
        try {
            return studies.apply(path);
        } catch (RuntimeException e) {
            LOG.warning("the study of a read file could not be looked up (" + e.getMessage() + "); recorded as"
                    + " its store path");
            return new StudyRef(path, null);
        }
    }

    private static AuditEvent event(Key k, long requests, long instances, long first, long last) {
        Caller caller = k.caller() == null ? Caller.account(null, null) : k.caller();
        Instant at = Instant.ofEpochMilli(first);
        String when = first == last ? " at " + at : " from " + at + " to " + Instant.ofEpochMilli(last);
        String times = requests == 1 ? "1 request" : requests + " requests";
        return switch (k.kind()) {
            case QUERY -> AuditEvents.queried(caller, k.door(), at, k.what(), !k.what().matches("[0-9.]+"),
                    k.subject().getBytes(StandardCharsets.UTF_8), k.study(), k.patient(),
                    "asked over " + k.door() + " (" + times + ")" + when);
            case EXPORT -> AuditEvents.exported(caller, k.door(), at, k.subject(), k.what(), k.study(), k.patient(),
                    instances + " instances sent to " + k.subject() + " over " + k.door() + " (" + times + ")"
                            + when, true, null);
            default -> AuditEvents.accessed(caller, k.door(), at, k.study(), k.patient(),
                    instances + " instances read over " + k.door() + " (" + times + ")" + when);
        };
    }

    /** Records what is pending and stops the background thread. */
    @Override
    public void close() {
        if (!on) {
            return;
        }
        flush();
        writer.shutdown();
        try {
            writer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The keys of the window open now (for tests). */
    int openKeys() {
        return current.get().tallies.size();
    }
}
