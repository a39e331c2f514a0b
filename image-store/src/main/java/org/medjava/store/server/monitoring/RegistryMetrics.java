package org.medjava.store.server.monitoring;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.Metric;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.store.core.filters.FilterRepository;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexCounts;
import org.medjava.store.core.jobs.JobQueue;
import org.medjava.store.core.jobs.JobStatus;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.storage.DiskSpaceGuard;

/**
 * The store's metrics on MicroProfile Metrics' application registry, served by Payara at {@code /metrics} in the
 * Prometheus text format (names as given, {@code _total} after counters, {@code _count}, {@code _sum}, {@code _max},
 * {@code _mean} and quantiles for timers, a {@code mp_scope="application"} label). The counters and timers are what store-core and dicom-net
 * report through {@link StoreMetrics}; the gauges read the index, the disk, the plugins and the jobs when scraped
 * (-1 when the reading fails), cached for a few seconds so that several scrapers cost the database one query.
 */
@ApplicationScoped
public class RegistryMetrics implements StoreMetrics {

    /** How long a gauge's reading of the index or the jobs is reused. */
    static final Duration GAUGE_CACHE = Duration.ofSeconds(5);

    /**
     * Payara hands out the application's registry only on a thread that runs for the application (it looks the
     * application up from the thread's invocation). The store's parts may be built on a health check's thread and
     * report from DICOM threads, so the registry is taken once where the application runs (its start, or the first
     * report from such a thread) and kept; what is reported before that is dropped, what is watched waits for it.
     */
    @Inject
    Instance<MetricRegistry> registries;

    private volatile MetricRegistry registry;
    /**
     * The counters and timers already registered, by name and tags: every request records one, and asking the
     * registry (metadata built, tags compared) cost a few percent of a small download's CPU.
     */
    private final Map<String, Metric> known = new ConcurrentHashMap<>();
    private final List<Runnable> pendingGauges = new ArrayList<>();

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        registry();
    }

    /** The application's registry, or null while it cannot be had on this thread. */
    private MetricRegistry registry() {
        MetricRegistry r = registry;
        if (r != null) {
            return r;
        }
        try {
            r = registries.get();
        } catch (RuntimeException e) { // not a thread of the application (yet)
            return null;
        }
        List<Runnable> pending;
        synchronized (pendingGauges) {
            registry = r;
            pending = List.copyOf(pendingGauges);
            pendingGauges.clear();
        }
        pending.forEach(Runnable::run);
        return r;
    }

    @Override
    public void ingested(String door, long bytes) {
        count(1, "medjava_ingest_objects", "Objects stored through the ingest door (put: HTTP PUT, jobs; receive:"
                + " C-STORE, STOW-RS, retrieves, derived objects)", "door", door);
        count(bytes, "medjava_ingest_bytes", "Bytes of the objects stored through the ingest door", "door", door);
    }

    @Override
    public void ingestRefused(String door, String reason) {
        count(1, "medjava_ingest_refused", "Writes refused or failed at the ingest door, by reason", "door", door,
                "reason", reason);
    }

    @Override
    public void rendered(String format, long nanos) {
        time(nanos, "medjava_render", "Server-side renderings (decode, filters, encode), by output format",
                "format", format);
    }

    @Override
    public void filtered(String filterId, String implementation, long nanos) {
        time(nanos, "medjava_filter", "Filter runs within renderings, by filter id and implementation",
                "filter", filterId, "implementation", implementation);
    }

    @Override
    public void filterRefused(String filterId, String why) {
        count(1, "medjava_filter_refusals", "Filter calls refused for time (busy: no free slot) or stopped at their"
                + " deadline", "filter", filterId, "why", why);
    }

    @Override
    public void association(boolean accepted) {
        count(1, "medjava_dicom_associations", "DICOM associations asked of the store's SCP, accepted or refused",
                "outcome", accepted ? "accepted" : "refused");
    }

    @Override
    public void dicomStored(String service, String outcome) {
        count(1, "medjava_dicom_stores", "DICOM objects sent to the store (C-STORE, STOW-RS parts), by outcome",
                "service", service, "outcome", outcome);
    }

    @Override
    public void trash(String change, long instances) {
        count(instances, "medjava_trash_files", "Files moved into the trash (deleted), back out (restored) or out"
                + " for good (purged)", "change", change);
    }

    @Override
    public void corrected(String outcome, long instances) {
        count(instances, "medjava_corrected_instances", "Instances rewritten by corrections of patient and study"
                + " attributes (corrected), or that a failed correction left as they were (failed)", "outcome", outcome);
    }

    @Override
    public void routed(String outcome, long instances) {
        count(instances, "medjava_routed_instances", "Routed instances sent (sent: also those the receiver held"
                + " already), failed and waiting for a retry (failed), or given up (dead)", "outcome", outcome);
    }

    @Override
    public void recompressed(String outcome) {
        count(1, "medjava_recompressed_instances", "Received uncompressed instances stored as HTJ2K Lossless (htj2k),"
                + " or kept as received where that could not be done exactly (kept-as-received)", "outcome", outcome);
    }

    /** One HTTP request answered by the store's REST resources. */
    public void request(String method, String endpoint, int status, long nanos) {
        time(nanos, REQUESTS, REQUESTS_HELP, "method", method, "endpoint", endpoint, "status", status / 100 + "xx");
    }

    /** One read answered by the store's front (also counted by {@link #request}). */
    public void directRead() {
        count(1, DIRECT_READS, DIRECT_READS_HELP);
    }

    private static final String REQUESTS = "medjava_http_requests";
    private static final String REQUESTS_HELP = "HTTP requests by method, endpoint (the resource's path template) and"
            + " status class";
    private static final String DIRECT_READS = "medjava_http_direct_reads";
    private static final String DIRECT_READS_HELP = "Reads answered by the store's front itself, not relayed to the"
            + " container: plain file GETs and HEADs, WADO-RS frames and thumbnails (also in medjava_http_requests)";

    /**
     * The timers of one method and endpoint, for a caller on the hot path (the front's reads): looked up once per
     * status class, then recorded with no proxy, key or map lookup per request.
     */
    public EndpointTimers endpointTimers(String method, String endpoint, boolean direct) {
        return new EndpointTimers(method, endpoint, direct);
    }

    /** See {@link #endpointTimers}. */
    public final class EndpointTimers {
        private final String method;
        private final String endpoint;
        private final boolean direct;
        /** By status class (1xx to 5xx). */
        private final AtomicReferenceArray<Timer> timers = new AtomicReferenceArray<>(6);
        private volatile Counter directReads;

        private EndpointTimers(String method, String endpoint, boolean direct) {
            this.method = method;
            this.endpoint = endpoint;
            this.direct = direct;
        }

        /** One request answered with {@code status} after {@code nanos}. */
        public void record(int status, long nanos) {
            int statusClass = Math.max(0, Math.min(5, status / 100));
            Timer timer = timers.get(statusClass);
            if (timer == null) {
                timer = (Timer) metric(REQUESTS, REQUESTS_HELP, true, "method", method, "endpoint", endpoint,
                        "status", status / 100 + "xx");
                if (timer == null) {
                    return; // no registry yet
                }
                timers.set(statusClass, timer); // a benign race: two threads find the same timer
            }
            timer.update(Duration.ofNanos(nanos));
            if (direct) {
                Counter counter = directReads;
                if (counter == null) {
                    counter = (Counter) metric(DIRECT_READS, DIRECT_READS_HELP, false);
                    directReads = counter;
                }
                if (counter != null) {
                    counter.inc();
                }
            }
        }
    }

    /** A timer or counter, registered on first use; null before the registry is there. */
    private Metric metric(String name, String description, boolean timer, String... tags) {
        MetricRegistry r = registry();
        if (r == null) {
            return null;
        }
        return known.computeIfAbsent(key(name, tags), k -> {
            Metadata metadata = Metadata.builder().withName(name).withDescription(description).build();
            return timer ? r.timer(metadata, tags(tags)) : r.counter(metadata, tags(tags));
        });
    }

    /** Registers the gauges that read the store's state when scraped. */
    public void watch(DicomIndex index, DiskSpaceGuard space, FilterRepository filters, JobQueue jobs) {
        Supplier<IndexCounts> counts = new Cached<>(index::counts);
        gauge("medjava_index_instances", "Instances in the DICOM index", () -> counts.get().instances());
        gauge("medjava_index_series", "Series in the DICOM index", () -> counts.get().series());
        gauge("medjava_index_studies", "Studies in the DICOM index", () -> counts.get().studies());
        gauge("medjava_index_patients", "Patients in the DICOM index", () -> counts.get().patients());
        Supplier<Long> stored = new Cached<>(index::storedBytes);
        gauge("medjava_stored_bytes", "Bytes of the indexed DICOM instances' files", stored);
        gauge("medjava_storage_free_bytes", "Usable bytes on the disk of the data directory (the least free of"
                + " the staging and data directories); -1 when unknown", () -> space.status().freeBytes());
        gauge("medjava_storage_min_free_bytes", "The free-space floor below which writes are refused"
                + " (medjava.storage.min-free-bytes)", space::minFreeBytes);
        gauge("medjava_storage_writable", "1 while writes are accepted, 0 while the disk is below the floor",
                () -> space.status().writable() ? 1 : 0);
        for (PluginInfo.State state : PluginInfo.State.values()) {
            gauge("medjava_plugins", "Filter plugins by state", () -> filters.plugins().stream()
                    .filter(p -> p.state() == state).count(), "state", label(state));
        }
        for (FilterInfo.State state : FilterInfo.State.values()) {
            gauge("medjava_filters", "Filters by state (a suspended filter refuses to run)", () -> filters.filters()
                    .stream().filter(f -> f.state() == state).count(), "state", label(state));
        }
        gauge("medjava_filter_quarantines", "Filter calls that ignored their cancellation since start (each left a"
                + " thread running and quarantined its plugin)", () -> filters.registry().abandonedCalls());
        gauge("medjava_filter_slots_free", "Filter slots free now (medjava.filters.max-concurrent)",
                () -> filters.registry().availableSlots());
        Supplier<Map<JobStatus.State, Long>> byState = new Cached<>(jobs::countByState);
        for (JobStatus.State state : JobStatus.State.values()) {
            gauge("medjava_jobs", "Background jobs by state", () -> byState.get().getOrDefault(state, 0L),
                    "state", label(state));
        }
    }

    /** The routing queue's depth by state (queued, sending, failed, dead; sent: the history kept). */
    public void watchRoutes(org.medjava.store.core.route.Routing routing) {
        Supplier<Map<String, Long>> byState = new Cached<>(routing::counts);
        for (String state : org.medjava.store.core.index.RouteTask.STATES) {
            gauge("medjava_route_tasks", "Routing tasks by state (the queue, the dead-letter list, the history)",
                    () -> byState.get().getOrDefault(state, 0L), "state", state);
        }
    }

    /** The node-local copies of S3 objects ({@link org.medjava.store.core.storage.ObjectCache}). */
    public void watchObjectCache(org.medjava.store.core.storage.ObjectCache cache) {
        gauge("medjava_object_cache_bytes", "Bytes of the object copies the node's cache holds now",
                () -> cache.stats().bytes());
        gauge("medjava_object_cache_max_bytes", "The object cache's bound (medjava.storage.cache.max-bytes)",
                () -> cache.stats().maxBytes());
        gauge("medjava_object_cache_entries", "Objects the node's cache holds a copy of now",
                () -> cache.stats().entries());
        gauge("medjava_object_cache_reads", "Reads of the object cache since start: hit (served from the copy) or"
                + " miss (asked the object store)", () -> cache.stats().hits(), "outcome", "hit");
        gauge("medjava_object_cache_reads", "Reads of the object cache since start: hit (served from the copy) or"
                + " miss (asked the object store)", () -> cache.stats().misses(), "outcome", "miss");
        gauge("medjava_object_cache_dropped", "Copies dropped since start: evicted (least recently used, beyond the"
                + " bound) or invalidated (the object changed on some node)", () -> cache.stats().evictions(),
                "reason", "evicted");
        gauge("medjava_object_cache_dropped", "Copies dropped since start: evicted (least recently used, beyond the"
                + " bound) or invalidated (the object changed on some node)", () -> cache.stats().invalidated(),
                "reason", "invalidated");
    }

    private static String label(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** Adds {@code n} to a counter (nothing before the registry is there). */
    private void count(long n, String name, String description, String... tags) {
        Counter counter = (Counter) metric(name, description, false, tags);
        if (counter != null) {
            counter.inc(n);
        }
    }

    /** A metric's name and tags as one key of {@link #known}. */
    private static String key(String name, String... tags) {
        return tags.length == 0 ? name : name + '\0' + String.join("\0", tags);
    }

    /** Records a duration on a timer (nothing before the registry is there). */
    private void time(long nanos, String name, String description, String... tags) {
        Timer timer = (Timer) metric(name, description, true, tags);
        if (timer != null) {
            timer.update(Duration.ofNanos(nanos));
        }
    }

    /** A gauge that reads -1 when its source fails (a database down must not break the whole scrape). */
    private void gauge(String name, String description, Supplier<? extends Number> value, String... tags) {
        Supplier<Double> safe = () -> {
            try {
                return value.get().doubleValue();
            } catch (RuntimeException e) {
                return -1.0;
            }
        };
        registry(); // taken now if this thread can
        Metadata metadata = Metadata.builder().withName(name).withDescription(description).build();
        Runnable register = () -> registry.gauge(metadata, safe, tags(tags));
        synchronized (pendingGauges) {
            if (registry == null) {
                pendingGauges.add(register);
                return;
            }
        }
        register.run();
    }

    private static Tag[] tags(String... pairs) {
        Tag[] tags = new Tag[pairs.length / 2];
        for (int i = 0; i < tags.length; i++) {
            tags[i] = new Tag(pairs[2 * i], pairs[2 * i + 1]);
        }
        return tags;
    }

    /** A reading reused for {@link #GAUGE_CACHE}. */
    private static final class Cached<T> implements Supplier<T> {
        private final Supplier<T> source;
        private T value;
        private long readAt;

        Cached(Supplier<T> source) {
            this.source = source;
        }

        @Override
        public synchronized T get() {
            long now = System.nanoTime();
            if (value == null || now - readAt > GAUGE_CACHE.toNanos()) {
                value = source.get();
                readAt = now;
            }
            return value;
        }
    }
}
