package org.medjava.store.core.route;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.deid.DeidRefused;
import org.medjava.store.core.deid.SendDeidentification;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.RouteQueue;
import org.medjava.store.core.index.RouteTask;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.transcode.NotTranscodable;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.core.transcode.Transcoder;

/**
 * Sends what {@link Routing} queued: claims due tasks (a batch at a time, leased, so a node that dies leaves them to
 * another), prepares each instance as its rule says (de-identified with the rule's secret, so the same study maps to
 * the same UIDs on every try and every node; transcoded), hands them to the {@link RouteSender} by rule, and records
 * each outcome: sent, or failed and tried again after the {@link Backoff}'s wait, or dead after its last try. An
 * instance that cannot be prepared (refused by the de-identification, not transcodable, no longer stored) is dead at
 * once: trying again would not change it. Each study sent is recorded in the audit trail (an Export event).
 */
public final class RouteWorker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RouteWorker.class.getName());

    /** How the worker runs: its node's name, the lease of a claim, the batch claimed at once, the back-off. */
    public record Settings(String node, Duration lease, int batch, Backoff backoff, Duration poll) {
    }

    private final Routing routing;
    private final DicomIndex index;
    private final ImageRepository images;
    private final RouteSender sender;
    private final Settings settings;
    private final Path workDir;
    private final AuditTrail audit;
    private final StoreMetrics metrics;
    private final Clock clock;
    private final Object signal = new Object();
    private boolean woken;
    private volatile Thread thread;

    public RouteWorker(Routing routing, DicomIndex index, ImageRepository images, RouteSender sender,
            Settings settings, Path workDir, AuditTrail audit, StoreMetrics metrics, Clock clock) {
        this.routing = routing;
        this.index = index;
        this.images = images;
        this.sender = sender;
        this.settings = settings;
        this.workDir = workDir;
        this.audit = audit;
        this.metrics = metrics;
        this.clock = clock;
        routing.onQueued(this::wake);
    }

    /** Runs rounds on a thread of its own until closed: at once when woken, else every {@code poll}. */
    public RouteWorker start() {
        Thread t = new Thread(this::loop, "route-worker");
        t.setDaemon(true);
        thread = t;
        t.start();
        return this;
    }

    private void loop() {
        while (!Thread.currentThread().isInterrupted()) {
            int done = 0;
            try {
                done = round();
            } catch (RuntimeException e) { // the database down a moment: the next round tries again
                LOG.log(System.Logger.Level.WARNING, "routing failed (tried again at the next round): {0}",
                        e.getMessage());
            }
            if (done == 0) {
                synchronized (signal) {
                    try {
                        if (!woken) {
                            signal.wait(settings.poll().toMillis());
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    woken = false;
                }
            }
        }
    }

    void wake() {
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
    }

    /** Claims one batch and sends it; how many tasks it took. */
    public int round() {
        RouteQueue.Claimed claimed = index.routes().claim(settings.node(), clock.instant(), settings.lease(),
                settings.batch());
        Map<String, List<RouteTask>> byRule = new LinkedHashMap<>();
        for (RouteTask t : claimed.tasks()) {
            byRule.computeIfAbsent(t.rule(), r -> new ArrayList<>()).add(t);
        }
        byRule.forEach((rule, tasks) -> send(rule, tasks, claimed.token()));
        return claimed.tasks().size();
    }

    /** An instance ready to go, and what must be cleaned up after. */
    private record Prepared(RouteTask task, InstanceSummary source, Part10File file, LocalCopy copy, List<Path> temps) {
    }

    private void send(String ruleName, List<RouteTask> tasks, String token) {
        RouteRule.Kept kept = routing.kept(ruleName);
        if (kept == null) {
            tasks.forEach(t -> dead(t, token, "the routing rule " + ruleName + " was removed"));
            return;
        }
        SendDeidentification deid;
        try {
            deid = kept.rule().deidentify() == null ? null
                    : new SendDeidentification(kept.rule().deidentify(), kept.secret());
        } catch (IllegalArgumentException e) { // options that exclude each other: no instance could be prepared
            tasks.forEach(t -> dead(t, token, "cannot be de-identified: " + e.getMessage()));
            return;
        }
        List<Prepared> ready = new ArrayList<>();
        try {
            for (RouteTask t : tasks) {
                Prepared p = prepare(t, kept, deid, token);
                if (p != null) {
                    ready.add(p);
                }
            }
            Map<String, RouteSender.Outcome> outcomes = ready.isEmpty() ? Map.of()
                    : sender.send(kept.rule().destination(), ready.stream().map(Prepared::file).toList());
            record(kept.rule(), ready, outcomes, token);
        } finally {
            for (Prepared p : ready) {
                p.copy().close();
                p.temps().forEach(RouteWorker::deleteQuietly);
            }
        }
    }

    /** The instance as the rule sends it; null when it cannot go (recorded: dead, or failed for a retry). */
    private Prepared prepare(RouteTask t, RouteRule.Kept kept, SendDeidentification deid, String token) {
        List<String> paths = index.pathsOf(t.sopInstanceUid());
        InstanceSummary source = paths.isEmpty() ? null : index.instance(paths.get(0)).orElse(null);
        if (source == null) {
            dead(t, token, "the store no longer holds the instance");
            return null;
        }
        LocalCopy copy = null;
        List<Path> temps = new ArrayList<>();
        try {
            copy = images.localCopy(StorePath.parse(source.path()));
            Path file = copy.path();
            RouteRule rule = kept.rule();
            if (deid != null) {
                file = temp(temps);
                deid.deidentify(copy.path(), file, source.patientId());
            }
            Part10File part10 = Part10File.read(file);
            if (rule.transcode() != null && !rule.transcode().equals(part10.transferSyntaxUid())) {
                Path transcoded = temp(temps);
                Files.write(transcoded, Transcoder.part10(file, part10.transferSyntaxUid(), rule.transcode(), null,
                        TransferSyntaxes.LOSSY_ENCODED.contains(rule.transcode())));
                part10 = Part10File.read(transcoded);
            }
            return new Prepared(t, source, part10, copy, temps);
        } catch (DeidRefused e) {
            dead(t, token, "cannot be de-identified: " + e.getMessage());
        } catch (NotTranscodable e) {
            dead(t, token, "cannot be transcoded to " + kept.rule().transcode() + ": " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            failed(t, token, "cannot prepare the instance: " + e.getMessage());
        }
        if (copy != null) {
            copy.close();
        }
        temps.forEach(RouteWorker::deleteQuietly);
        return null;
    }

    private void record(RouteRule rule, List<Prepared> ready, Map<String, RouteSender.Outcome> outcomes,
            String token) {
        Map<String, int[]> byStudy = new LinkedHashMap<>(); // sent, failed
        Map<String, String> patients = new LinkedHashMap<>();
        Map<String, String> firstError = new LinkedHashMap<>();
        for (Prepared p : ready) {
            RouteSender.Outcome o = outcomes.getOrDefault(p.file().sopInstanceUid(),
                    RouteSender.Outcome.failed("the destination did not answer for this instance"));
            int[] n = byStudy.computeIfAbsent(p.task().studyInstanceUid(), s -> new int[2]);
            patients.putIfAbsent(p.task().studyInstanceUid(), p.source().patientId());
            if (o.sent()) {
                n[0]++;
                index.routes().sent(p.task().id(), token, o.note(), clock.instant());
                metrics.routed("sent", 1);
            } else {
                n[1]++;
                firstError.putIfAbsent(p.task().studyInstanceUid(), o.note());
                failed(p.task(), token, o.note());
            }
        }
        RouteRule.Destination d = rule.destination();
        byStudy.forEach((study, n) -> audit.record(AuditEvents.exported(Caller.account("route:" + rule.name(), null),
                "route", clock.instant(), RouteRule.DIMSE.equals(d.kind()) ? d.ae() : d.url(), sender.address(d),
                study, patients.get(study), "routing rule " + rule.name() + " to " + d.describe() + ": " + n[0]
                        + " sent, " + n[1] + " failed", n[1] == 0, firstError.get(study))));
    }

    private void failed(RouteTask t, String token, String error) {
        Duration wait = settings.backoff().after(t.tries() + 1);
        Instant now = clock.instant();
        index.routes().failed(t.id(), token, error, wait == null ? null : now.plus(wait), now);
        metrics.routed(wait == null ? "dead" : "failed", 1);
        LOG.log(System.Logger.Level.INFO, "routing {0} by {1}: {2}; {3}", t.sopInstanceUid(), t.rule(), error,
                wait == null ? "given up (dead letter)" : "tried again in " + wait.toSeconds() + " s");
    }

    private void dead(RouteTask t, String token, String error) {
        Instant now = clock.instant();
        index.routes().failed(t.id(), token, error, null, now);
        metrics.routed("dead", 1);
        LOG.log(System.Logger.Level.WARNING, "routing {0} by {1} given up: {2}", t.sopInstanceUid(), t.rule(), error);
    }

    private Path temp(List<Path> temps) throws IOException {
        Files.createDirectories(workDir);
        Path p = Files.createTempFile(workDir, "route-", ".dcm");
        temps.add(p);
        return p;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // in the work directory, which is emptied at the next start
        }
    }

    @Override
    public void close() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }
}
