package org.medjava.store.core.route;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.cluster.SharedState;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.RouteQueue;
import org.medjava.store.core.index.RouteTask;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.Ingested;

/**
 * The one door of routing: the rules (kept in a {@link RouteBook}), the instances they take as they arrive (an
 * after-receive hook of {@link Ingest}) or on demand, and the queue they wait in ({@link RouteQueue}: its tasks, the
 * dead-letter list, a study's history). The {@link RouteWorker} sends what is queued.
 */
public final class Routing implements Ingest.AfterReceive {
    private static final System.Logger LOG = System.getLogger(Routing.class.getName());
    /** How long the rules read on receive are reused: a rule changed on another node applies this much later. */
    static final Duration RULES_FRESH = Duration.ofSeconds(2);
    /** The most tasks one listing shows. */
    public static final int MAX_LISTED = 1000;
    /** Sent tasks forgotten per transaction: a long history goes in short steps. */
    private static final int FORGET_BATCH = 5000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final DicomIndex index;
    private final RouteBook book;
    private final RouteSender sender;
    private final Clock clock;
    private volatile Runnable wake = () -> { };
    private volatile Map<String, RouteRule.Kept> rules;
    private volatile long rulesReadAt;

    Routing(DicomIndex index, RouteBook book, RouteSender sender, Clock clock) {
        this.index = index;
        this.book = book;
        this.sender = sender;
        this.clock = clock;
    }

    /** Rules kept in {@code dir} (one node), or in the cluster's shared state when {@code shared} is not null. */
    public static Routing of(DicomIndex index, java.nio.file.Path dir, SharedState shared, RouteSender sender,
            Clock clock) {
        return new Routing(index, shared == null ? RouteBook.directory(dir) : RouteBook.shared(shared), sender, clock);
    }

    /** Called after tasks were queued (the worker starts at once instead of at its next round). */
    void onQueued(Runnable wake) {
        this.wake = wake;
    }

    public List<RouteRule> rules() {
        return book.load().values().stream().map(RouteRule.Kept::rule).toList();
    }

    public RouteRule rule(String name) {
        RouteRule.Kept kept = book.load().get(name);
        if (kept == null) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no routing rule " + name);
        }
        return kept.rule();
    }

    /** The rule with its secret, or null (for the worker). */
    RouteRule.Kept kept(String name) {
        return book.load().get(name);
    }

    /**
     * Makes or replaces a rule. Refused (BAD_REQUEST, with the reason) when it is malformed, when its DIMSE
     * destination is not a configured remote, or when it matches everything and {@code confirm} is false (the
     * caller checks that an administrator asked). A replaced rule keeps its secret, so it maps UIDs as before.
     */
    public RouteRule put(String name, Map<String, String> match, RouteRule.Destination destination,
            List<String> deidentify, String transcode, boolean enabled, boolean confirm, String by) {
        RouteRule rule;
        try {
            rule = new RouteRule(name, match, destination, deidentify, transcode, enabled, confirm, by,
                    clock.instant());
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        String problem = sender.problem(rule.destination());
        if (problem != null) {
            throw bad(problem);
        }
        if (rule.matchesEverything() && !confirm) {
            throw bad("the rule matches every instance the store receives (no match, or only *); add confirm=true"
                    + " to make it anyway");
        }
        RouteRule.Kept before = book.load().get(name);
        byte[] secret = before != null ? before.secret() : new byte[32];
        if (before == null) {
            RANDOM.nextBytes(secret);
        }
        book.put(new RouteRule.Kept(rule, secret));
        rules = null;
        LOG.log(System.Logger.Level.INFO, "routing rule {0} ({1}) {2} by {3}", name,
                rule.destination().describe(), before == null ? "made" : "replaced", by);
        return rule;
    }

    public void remove(String name) {
        if (!book.remove(name)) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no routing rule " + name);
        }
        rules = null;
    }

    /** Queues the instances that match an enabled rule, as each arrives (who sent it: {@code from}). */
    @Override
    public void received(Ingested stored, AttributeList dataSet, Caller from) {
        String source = from == null ? null : from.user();
        for (RouteRule.Kept kept : freshRules().values()) {
            RouteRule rule = kept.rule();
            if (rule.enabled() && rule.matches(keyword -> values(dataSet, keyword), source)) {
                queue(rule, source, List.of(new RouteTask.Item(stored.studyInstanceUid(),
                        stored.seriesInstanceUid(), stored.sopInstanceUid())));
            }
        }
    }

    /**
     * Queues every instance of a study for one rule now (also when the rule is disabled or would not match: an
     * administrator asked); instances already waiting for that rule are not queued twice.
     *
     * @return how many were queued
     */
    public int run(String name, String studyInstanceUid) {
        RouteRule rule = rule(name);
        List<RouteTask.Item> items = new ArrayList<>();
        for (SeriesSummary s : index.series(studyInstanceUid)) {
            for (InstanceSummary i : index.instances(s.seriesInstanceUid())) {
                items.add(new RouteTask.Item(studyInstanceUid, s.seriesInstanceUid(), i.sopInstanceUid()));
            }
        }
        if (items.isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "the store holds no study " + studyInstanceUid);
        }
        return queue(rule, null, items);
    }

    private int queue(RouteRule rule, String source, List<RouteTask.Item> items) {
        int queued = index.routes().enqueue(rule.name(), rule.destination().describe(), source, items,
                clock.instant());
        if (queued > 0) {
            wake.run();
        }
        return queued;
    }

    /** Tasks in a state (every state when null), the most recently changed first. */
    public List<RouteTask> tasks(String state, int limit) {
        if (state != null && !RouteTask.STATES.contains(state)) {
            throw bad("state: one of " + String.join(", ", RouteTask.STATES) + ", not " + state);
        }
        return index.routes().list(state, Math.min(limit, MAX_LISTED));
    }

    public Map<String, Long> counts() {
        return index.routes().counts();
    }

    /** A study's routing history: each instance and destination, with its state, tries and last error. */
    public List<RouteTask> history(String studyInstanceUid) {
        return index.routes().ofStudy(studyInstanceUid, MAX_LISTED * 10);
    }

    /**
     * Forgets what was sent more than {@code keep} ago (a study's history then shows only what happened since),
     * in batches; the queue and the dead-letter list stay. How many tasks were removed.
     */
    public int forgetSent(java.time.Duration keep) {
        java.time.Instant before = clock.instant().minus(keep);
        int total = 0;
        for (int n; (n = index.routes().forgetSent(before, FORGET_BATCH)) > 0; ) {
            total += n;
        }
        if (total > 0) {
            LOG.log(System.Logger.Level.INFO, "routing history: {0} tasks sent before {1} forgotten", total, before);
        }
        return total;
    }

    /** Puts a dead (or failed) task back in the queue, due now. */
    public RouteTask retry(long id) {
        RouteTask task = task(id);
        if (!index.routes().retry(id, clock.instant())) {
            throw new StoreException(StoreException.Kind.CONFLICT, "task " + id + " is " + task.state()
                    + "; only a dead or failed task can be retried");
        }
        wake.run();
        return task(id);
    }

    public void delete(long id) {
        if (!index.routes().delete(id)) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no routing task " + id);
        }
    }

    public RouteTask task(long id) {
        return index.routes().task(id).orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND,
                "no routing task " + id));
    }

    private Map<String, RouteRule.Kept> freshRules() {
        Map<String, RouteRule.Kept> r = rules;
        long now = System.nanoTime();
        if (r == null || now - rulesReadAt > RULES_FRESH.toNanos()) {
            r = book.load();
            rules = r;
            rulesReadAt = now;
        }
        return r;
    }

    /** The values of an attribute of the data set, each as text (none when absent or not a keyword). */
    private static List<String> values(AttributeList dataSet, String keyword) {
        AttributeTag tag = AttributeList.getDictionary().getTagFromName(keyword);
        Attribute a = tag == null ? null : dataSet.get(tag);
        if (a == null) {
            return List.of();
        }
        try {
            String[] v = a.getStringValues();
            return v == null ? List.of() : Arrays.asList(v);
        } catch (com.pixelmed.dicom.DicomException e) {
            return List.of();
        }
    }

    private static StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
