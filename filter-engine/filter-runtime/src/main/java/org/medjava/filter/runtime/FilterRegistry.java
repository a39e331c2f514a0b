package org.medjava.filter.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.runtime.isolation.IsolationReport;
import org.medjava.filter.runtime.isolation.WorkerOptions;

/**
 * The Service Configurator: filter plugins are loaded, replaced, suspended, resumed and removed while the host
 * runs. Each plugin JAR gets its own class loader (over a private copy of the JAR, parent = filter-api's loader).
 *
 * <p>Hosts name filters by id and never hold plugin objects; {@link #apply} returns a fresh raster. Replacing a
 * plugin swaps in the new version atomically: calls already running on the old version are cancelled (they stop at
 * their next row), then it is finalized and its loader closed. A new version that fails to load leaves the old one active. A plugin that
 * throws while filtering is marked FAILED with the reason; other plugins are unaffected. Mutations are serialized;
 * {@code apply} takes no lock.
 *
 * <p>Filter calls run on a bounded pool ({@link CallLimits}) under a deadline, each with a cancellation token the
 * filter checks per row ({@link org.medjava.filter.Cancellation}); the token is cancelled when the deadline passes,
 * when the caller cancels its {@link CallControl}, and when the plugin is removed, replaced or FAILED. A call that
 * does not stop within the grace period is abandoned and its plugin quarantined (FAILED with the reason,
 * {@link RegistryEvent.PluginQuarantined}), so a runaway plugin cannot exhaust the pool.
 */
public final class FilterRegistry implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FilterRegistry.class.getName());

    private final Path workDir;
    private final boolean ownsWorkDir;
    private final PluginLoader loader;
    private final ReentrantLock mutation = new ReentrantLock();
    private final Map<String, Slot> slots = new ConcurrentHashMap<>();
    private final Map<String, String> filterOwners = new ConcurrentHashMap<>();
    private final Set<String> suspended = ConcurrentHashMap.newKeySet();
    private final List<RegistryListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean timing;
    private volatile PluginTrust trust = PluginTrust.off();
    private final BoundedCalls calls = new BoundedCalls(CallLimits.defaults(), this::quarantine);
    /** Null when plugin code runs in this process. */
    private final FilterWorkers workers;

    /** A registry running plugins in this process, with private JAR copies in a temporary directory. */
    public FilterRegistry() {
        this(createTempDir(), true, null);
    }

    /** A registry running plugins in this process, with private JAR copies in {@code workDir} (created if missing). */
    public FilterRegistry(Path workDir) {
        this(workDir, false, null);
    }

    /**
     * A registry whose plugins run in confined filter worker processes ({@link FilterWorkers}): no plugin code runs
     * in this process, not even to load it; calls pass their rasters through shared memory.
     */
    public FilterRegistry(Path workDir, WorkerOptions isolation) {
        this(workDir, false, java.util.Objects.requireNonNull(isolation, "isolation"));
    }

    private FilterRegistry(Path workDir, boolean ownsWorkDir, WorkerOptions isolation) {
        try {
            Files.createDirectories(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create plugin work directory " + workDir, e);
        }
        this.workDir = workDir;
        this.ownsWorkDir = ownsWorkDir;
        this.workers = isolation == null ? null : new FilterWorkers(isolation, this::quarantine);
        this.loader = new PluginLoader(workDir, workers);
    }

    /** A filter worker's own registry: plugins read in place (the host copied them), one call at a time. */
    static FilterRegistry forWorker() {
        return new FilterRegistry(true);
    }

    private FilterRegistry(boolean inWorker) {
        this.workDir = null;
        this.ownsWorkDir = false;
        this.workers = null;
        this.loader = new PluginLoader(null, null);
        // the host bounds the call (it kills the worker); here it only must never be abandoned
        calls.setLimits(new CallLimits(1, null, java.time.Duration.ofDays(1)));
    }

    private static Path createTempDir() {
        try {
            return Files.createTempDirectory("medjava-plugins-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary plugin work directory", e);
        }
    }

    // ---------------------------------------------------------------- directives

    /**
     * The {@code load} directive: loads {@code jar} as plugin {@code pluginId}, or replaces the running version.
     *
     * @throws RegistryException.PluginLoadException with the reason; a running older version stays active
     */
    public PluginInfo load(String pluginId, Path jar, Map<String, String> properties) {
        mutation.lock();
        try {
            Slot slot = slots.get(pluginId);
            LoadedPlugin previous = slot == null ? null : slot.active;
            LoadedPlugin next;
            try {
                verifySignature(pluginId, jar); // before any of the plugin's code runs
                next = loader.load(pluginId, jar.toAbsolutePath(), properties);
                checkNoConflicts(next);
            } catch (RegistryException.PluginLoadException e) {
                recordLoadFailure(pluginId, jar, properties, previous, e.getMessage());
                throw e;
            }
            if (slot == null) {
                slot = new Slot();
                slots.put(pluginId, slot);
            }
            slot.active = next;
            slot.failure = null;
            slot.failedDescriptors = Map.of();
            next.filters.keySet().forEach(filterId -> filterOwners.put(filterId, pluginId));
            if (previous != null) {
                previous.filters.keySet().stream().filter(f -> !next.filters.containsKey(f))
                        .forEach(filterOwners::remove);
                previous.retire("plugin " + pluginId + " was replaced by version " + next.version);
                fire(new RegistryEvent.PluginReplaced(previous.info(null), next.info(null)));
                LOG.log(Level.INFO, "replaced plugin " + pluginId + " " + previous.version + " by " + next.version);
            } else {
                fire(new RegistryEvent.PluginLoaded(next.info(null)));
                LOG.log(Level.INFO, "loaded plugin " + pluginId + " " + next.version + " " + next.filters.keySet());
            }
            return next.info(null);
        } finally {
            mutation.unlock();
        }
    }

    private void verifySignature(String pluginId, Path jar) {
        try {
            PluginSignatures.Signer signer = PluginSignatures.verify(jar, trust);
            if (signer != null) {
                LOG.log(Level.DEBUG, "plugin " + pluginId + " is signed by " + signer);
            }
        } catch (RegistryException.PluginLoadException e) {
            throw new RegistryException.PluginLoadException("plugin " + pluginId + ": " + e.getMessage(), e);
        }
    }

    private void checkNoConflicts(LoadedPlugin next) {
        for (String filterId : next.filters.keySet()) {
            String owner = filterOwners.get(filterId);
            if (owner != null && !owner.equals(next.id)) {
                next.retire();
                throw new RegistryException.PluginLoadException("plugin " + next.id + ": filter id " + filterId
                        + " is already provided by plugin " + owner + "; remove that plugin first", null);
            }
        }
    }

    private void recordLoadFailure(String pluginId, Path jar, Map<String, String> properties, LoadedPlugin active,
                                   String reason) {
        if (active != null) {
            slots.get(pluginId).failure = reason + " (version " + active.version + " stays active)";
            fire(new RegistryEvent.PluginFailed(pluginId, reason, true));
            LOG.log(Level.WARNING, "rejected new version: " + reason + "; version " + active.version + " stays active");
            return;
        }
        Slot slot = slots.computeIfAbsent(pluginId, id -> new Slot());
        slot.failure = reason;
        slot.failedJar = jar.toAbsolutePath();
        slot.failedProperties = Map.copyOf(properties);
        fire(new RegistryEvent.PluginFailed(pluginId, reason, false));
        LOG.log(Level.WARNING, reason);
    }

    /** The {@code remove} directive: unloads a plugin (calls in flight finish first) or forgets a FAILED one. */
    public void remove(String pluginId) {
        mutation.lock();
        try {
            Slot slot = slots.get(pluginId);
            if (slot == null) {
                throw new RegistryException.UnknownIdException("no plugin " + pluginId + "; loaded: "
                        + String.join(", ", new TreeSet<>(slots.keySet())));
            }
            filterOwners.values().removeIf(pluginId::equals);
            slots.remove(pluginId);
            if (slot.active != null) {
                suspended.removeAll(slot.active.filters.keySet()); // a plugin loaded again later starts active
                slot.active.retire("plugin " + pluginId + " was removed");
            }
            fire(new RegistryEvent.PluginRemoved(pluginId));
            LOG.log(Level.INFO, "removed plugin " + pluginId);
        } finally {
            mutation.unlock();
        }
    }

    /** The {@code suspend} directive: the filter stays loaded but refuses calls until resumed. */
    public void suspend(String filterId) {
        mutation.lock();
        try {
            requireFilter(filterId);
            if (suspended.add(filterId)) {
                fire(new RegistryEvent.FilterSuspended(filterId));
            }
        } finally {
            mutation.unlock();
        }
    }

    /** The {@code resume} directive. */
    public void resume(String filterId) {
        mutation.lock();
        try {
            requireFilter(filterId);
            if (suspended.remove(filterId)) {
                fire(new RegistryEvent.FilterResumed(filterId));
            }
        } finally {
            mutation.unlock();
        }
    }

    private void requireFilter(String filterId) {
        if (!filterOwners.containsKey(filterId)) {
            throw unknownFilter(filterId);
        }
    }

    // ---------------------------------------------------------------- calls

    /**
     * Runs a filter on a copy of {@code src}.
     *
     * @param region {@code null} for the whole image; clipped to the image
     * @param params raw {@code name -> value}; defaults fill the rest
     * @throws InvalidParameterException          a parameter breaks its rule (the message quotes it)
     * @throws RegistryException.UnknownIdException no such filter (the message lists the available ones)
     * @throws RegistryException.FilterUnavailableException suspended, or its plugin FAILED
     * @throws RegistryException.FilterFailedException the filter threw; its plugin is now FAILED
     */
    public Raster apply(String filterId, Raster src, Region region, Map<String, String> params,
                        Implementation implementation) {
        return apply(filterId, src, region, params, implementation, CallControl.unlimited());
    }

    /**
     * As {@link #apply(String, Raster, Region, Map, Implementation)}, on the registry's bounded pool under the
     * deadline of {@code control} (capped by {@link CallLimits#deadline()}), cancellable through it.
     *
     * @throws RegistryException.BusyException             every slot of the pool is taken
     * @throws RegistryException.DeadlineExceededException the deadline passed (the filter was stopped)
     * @throws RegistryException.CallCancelledException    cancelled by the caller, or the plugin was removed or
     *                                                      replaced while filtering
     */
    public Raster apply(String filterId, Raster src, Region region, Map<String, String> params,
                        Implementation implementation, CallControl control) {
        return apply(filterId, src, null, region, params, implementation, control);
    }

    /**
     * As {@link #apply(String, Raster, Region, Map, Implementation, CallControl)}, into {@code into} (same size as
     * {@code src}, overwritten) when not null: a filter worker's arrays, kept from call to call, so that a large
     * raster allocates nothing there (its heap would collect twice a raster per call).
     */
    Raster apply(String filterId, Raster src, Raster into, Region region, Map<String, String> params,
                 Implementation implementation, CallControl control) {
        LoadedPlugin plugin = acquire(filterId);
        Filter filter;
        FilterParams parsed;
        try {
            filter = plugin.filters.get(filterId);
            parsed = plugin.descriptors.get(filterId).params(params);
        } catch (RuntimeException e) {
            plugin.release();
            throw e;
        }
        long start = System.nanoTime();
        Raster out = runPluginCode(plugin, filterId, src.width(), src.height(), control, () -> into == null
                ? Filter.run(filter, src, region, parsed, implementation)
                : runInto(filter, src, into, region, parsed, implementation));
        long nanos = System.nanoTime() - start;
        if (timing) {
            fire(new RegistryEvent.FilterApplied(new ApplyRecord(Instant.now(), filterId, plugin.id,
                    plugin.version, parsed.toString(), implementation, src.width(), src.height(),
                    (region == null ? src.bounds() : region).clip(src.width(), src.height()), nanos)));
        }
        return out;
    }

    /**
     * Runs a filter on a copy of grey {@code src} (docs/xv-filters-16bit.md), with the same validation, suspension,
     * failure and timing semantics as {@link #apply(String, Raster, Region, Map, Implementation)}.
     *
     * @param region {@code null} for the whole image; clipped to the image
     * @param params raw {@code name -> value}; defaults fill the rest
     * @return a new raster of the same format
     * @throws UnsupportedDataException           the filter does not filter grey data (its plugin stays active)
     * @throws InvalidParameterException          a parameter breaks its rule (the message quotes it)
     * @throws IllegalArgumentException           a value of {@code src} is outside its range (the message names it)
     * @throws RegistryException.UnknownIdException no such filter (the message lists the available ones)
     * @throws RegistryException.FilterUnavailableException suspended, or its plugin FAILED
     * @throws RegistryException.FilterFailedException the filter threw; its plugin is now FAILED
     */
    public GrayRaster16 apply(String filterId, GrayRaster16 src, Region region, Map<String, String> params,
                              Implementation implementation) {
        return apply(filterId, src, region, params, implementation, CallControl.unlimited());
    }

    /**
     * As {@link #apply(String, GrayRaster16, Region, Map, Implementation)}, under {@code control} as
     * {@link #apply(String, Raster, Region, Map, Implementation, CallControl)} is.
     */
    public GrayRaster16 apply(String filterId, GrayRaster16 src, Region region, Map<String, String> params,
                              Implementation implementation, CallControl control) {
        return apply(filterId, src, null, region, params, implementation, control);
    }

    /** As the grey {@code apply}, into {@code into} when not null, as {@link #apply(String, Raster, Raster, Region,
     * Map, Implementation, CallControl)} does. */
    GrayRaster16 apply(String filterId, GrayRaster16 src, GrayRaster16 into, Region region, Map<String, String> params,
                       Implementation implementation, CallControl control) {
        LoadedPlugin plugin = acquire(filterId);
        Filter filter;
        FilterParams parsed;
        Region clipped;
        try {
            filter = plugin.filters.get(filterId);
            if (!supportsGray16(plugin, filter)) {
                throw new UnsupportedDataException(filterId, src.describe(), "8-bit RGB only (plugin "
                        + plugin.id + " " + plugin.version + " offers no grey kernels)");
            }
            parsed = plugin.descriptors.get(filterId).params(params);
            src.requireValuesInRange();
            clipped = (region == null ? src.bounds() : region).clip(src.width(), src.height());
        } catch (RuntimeException e) {
            plugin.release();
            throw e;
        }
        long start = System.nanoTime();
        GrayRaster16 out = runPluginCode(plugin, filterId, src.width(), src.height(), control, () -> {
            GrayRaster16 dst = into == null ? src.copy() : into;
            if (into != null) {
                into.copyFrom(src);
            }
            if (!clipped.isEmpty()) {
                filter.applyGray16(src, dst, clipped, parsed, implementation);
            }
            return dst;
        });
        long nanos = System.nanoTime() - start;
        if (timing) {
            fire(new RegistryEvent.FilterApplied(new ApplyRecord(Instant.now(), filterId, plugin.id,
                    plugin.version, parsed.toString(), implementation, src.width(), src.height(), clipped, nanos,
                    src.describe())));
        }
        return out;
    }

    /**
     * Whether a filter filters grey data ({@link Filter#supportsGray16()}), asked of the active version.
     *
     * @throws RegistryException.UnknownIdException no such filter
     * @throws RegistryException.FilterUnavailableException suspended, or its plugin FAILED
     */
    public boolean supportsGray16(String filterId) {
        LoadedPlugin plugin = acquire(filterId);
        try {
            return supportsGray16(plugin, plugin.filters.get(filterId));
        } finally {
            plugin.release();
        }
    }

    /** Plugin code, so it runs like any other plugin call; a throwing answer counts as "no". */
    private boolean supportsGray16(LoadedPlugin plugin, Filter filter) {
        try {
            return PluginCalls.call(plugin.loader, filter::supportsGray16);
        } catch (Exception | LinkageError e) {
            LOG.log(Level.WARNING, "supportsGray16 of " + filter.descriptor().id() + " threw " + PluginCalls.reason(e));
            return false;
        }
    }

    /** Validates parameters without running anything (hosts check a request before reading an image). */
    public FilterParams validate(String filterId, Map<String, String> params) {
        return descriptor(filterId).params(params);
    }

    /** Runs plugin code on the bounded pool; {@code plugin} is released when the code ends. */
    /** {@link Filter#run} into {@code dst}: its pixels are {@code src}'s, then the filter's in the region. */
    private static Raster runInto(Filter filter, Raster src, Raster dst, Region region, FilterParams params,
                                  Implementation implementation) {
        if (!params.filterId().equals(filter.descriptor().id())) {
            throw new IllegalArgumentException("parameters of " + params.filterId() + " given to "
                    + filter.descriptor().id());
        }
        Region clipped = (region == null ? src.bounds() : region).clip(src.width(), src.height());
        dst.copyFrom(src);
        if (!clipped.isEmpty()) {
            filter.apply(src, dst, clipped, params, implementation);
        }
        return dst;
    }

    private <T> T runPluginCode(LoadedPlugin plugin, String filterId, int width, int height, CallControl control,
                                java.util.concurrent.Callable<T> body) {
        try {
            return calls.run(plugin, filterId, control, body);
        } catch (java.util.concurrent.ExecutionException wrapped) {
            throw failed(plugin, filterId, width, height, wrapped.getCause());
        }
    }

    /** What a filter threw: the plugin is FAILED, except for lack of memory, a limit and not a defect. */
    private RegistryException failed(LoadedPlugin plugin, String filterId, int width, int height, Throwable thrown) {
        if (thrown instanceof WorkerFault fault && fault.quarantine()) {
            quarantine(plugin, fault.getMessage());
            return new RegistryException.FilterFailedException(fault.getMessage() + "; plugin " + plugin.id
                    + " is quarantined (FAILED) until it is loaded again", fault);
        }
        if (thrown instanceof WorkerFault fault && !fault.pluginThrew()) {
            return new RegistryException.FilterFailedException(fault.getMessage(), fault); // the workers count it
        }
        if (thrown instanceof WorkerFault fault) {
            markFailed(plugin, fault.getMessage());
            return new RegistryException.FilterFailedException(fault.getMessage() + "; plugin " + plugin.id
                    + " is now FAILED until it is loaded again", fault);
        }
        if (thrown instanceof OutOfMemoryError) {
            return new RegistryException.FilterFailedException(filterId + ": not enough memory to filter a "
                    + width + "x" + height + " image", thrown);
        }
        String reason = filterId + " threw " + PluginCalls.reason(thrown);
        markFailed(plugin, reason);
        return new RegistryException.FilterFailedException(reason + "; plugin " + plugin.id
                + " is now FAILED until it is loaded again", thrown);
    }

    /** A call ignored its cancellation: the plugin is FAILED with the reason and admins hear of it. */
    private void quarantine(LoadedPlugin plugin, String reason) {
        markFailed(plugin, reason);
        fire(new RegistryEvent.PluginQuarantined(plugin.id, plugin.version, reason));
    }

    /** The filter workers' verdict on a plugin version that faulted too often (see {@link FilterWorkers}). */
    private void quarantine(String pluginId, String key, String reason) {
        Slot slot = slots.get(pluginId);
        LoadedPlugin plugin = slot == null ? null : slot.active;
        if (plugin != null && plugin.runsInWorkersAs(key)) {
            quarantine(plugin, reason);
        }
    }

    private LoadedPlugin acquire(String filterId) {
        while (true) {
            String pluginId = filterOwners.get(filterId);
            if (pluginId == null) {
                throw unknownFilter(filterId);
            }
            if (suspended.contains(filterId)) {
                throw new RegistryException.FilterUnavailableException("filter " + filterId
                        + " is suspended; resume it to use it again");
            }
            Slot slot = slots.get(pluginId);
            LoadedPlugin plugin = slot == null ? null : slot.active;
            if (slot != null && plugin == null) {
                throw new RegistryException.FilterUnavailableException("filter " + filterId + " is unavailable: plugin "
                        + pluginId + " FAILED: " + slot.failure);
            }
            if (plugin != null && plugin.filters.containsKey(filterId) && plugin.tryAcquire()) {
                return plugin;
            }
            Thread.onSpinWait(); // a replacement or removal is being swapped in; look again
        }
    }

    private void markFailed(LoadedPlugin plugin, String reason) {
        mutation.lock();
        try {
            Slot slot = slots.get(plugin.id);
            if (slot == null || slot.active != plugin) {
                return; // already replaced or removed
            }
            slot.active = null;
            slot.failure = reason;
            slot.failedJar = plugin.sourceJar;
            slot.failedProperties = plugin.properties;
            slot.failedVersion = plugin.version;
            slot.failedDescriptors = plugin.descriptors;
            plugin.retire("plugin " + plugin.id + " FAILED");
            fire(new RegistryEvent.PluginFailed(plugin.id, reason, false));
            LOG.log(Level.WARNING, "plugin " + plugin.id + " FAILED: " + reason);
        } finally {
            mutation.unlock();
        }
    }

    // ---------------------------------------------------------------- queries

    public List<PluginInfo> plugins() {
        List<PluginInfo> result = new ArrayList<>();
        slots.forEach((id, slot) -> result.add(slot.info(id)));
        result.sort(Comparator.comparing(PluginInfo::id));
        return result;
    }

    public Optional<PluginInfo> plugin(String pluginId) {
        Slot slot = slots.get(pluginId);
        return slot == null ? Optional.empty() : Optional.of(slot.info(pluginId));
    }

    /** Every filter of every plugin, sorted by id, with its state. */
    public List<FilterInfo> filters() {
        List<FilterInfo> result = new ArrayList<>();
        slots.forEach((pluginId, slot) -> {
            LoadedPlugin active = slot.active;
            if (active != null) {
                active.descriptors.forEach((filterId, descriptor) -> result.add(new FilterInfo(descriptor, pluginId,
                        active.version, suspended.contains(filterId) ? FilterInfo.State.SUSPENDED
                        : FilterInfo.State.ACTIVE, suspended.contains(filterId) ? "suspended" : null)));
            } else {
                slot.failedDescriptors.forEach((filterId, descriptor) -> result.add(new FilterInfo(descriptor,
                        pluginId, slot.failedVersion, FilterInfo.State.FAILED, slot.failure)));
            }
        });
        result.sort(Comparator.comparing(FilterInfo::id));
        return result;
    }

    public Optional<FilterInfo> filter(String filterId) {
        return filters().stream().filter(f -> f.id().equals(filterId)).findFirst();
    }

    /** The descriptor of an existing filter, whatever its state. */
    public FilterDescriptor descriptor(String filterId) {
        return filter(filterId).map(FilterInfo::descriptor).orElseThrow(() -> unknownFilter(filterId));
    }

    private RegistryException.UnknownIdException unknownFilter(String filterId) {
        String known = filters().stream().map(FilterInfo::id).collect(Collectors.joining(", "));
        return new RegistryException.UnknownIdException("unknown filter \"" + filterId + "\"; available: "
                + (known.isEmpty() ? "none (no plugin is loaded)" : known));
    }

    // ---------------------------------------------------------------- events, timing, life cycle

    public void addListener(RegistryListener listener) {
        listeners.add(listener);
    }

    public void removeListener(RegistryListener listener) {
        listeners.remove(listener);
    }

    /** Benchmark mode: every {@link #apply} is timed and reported as {@link RegistryEvent.FilterApplied}. */
    public void setTiming(boolean on) {
        timing = on;
    }

    public boolean isTiming() {
        return timing;
    }

    public Path workDir() {
        return workDir;
    }

    /** Where plugin code runs and what confines it. */
    public IsolationReport isolation() {
        return workers == null ? IsolationReport.inProcess() : workers.report();
    }

    /**
     * Whose plugins {@link #load} accepts from now on ({@link PluginTrust#off()} until set: no check); plugins
     * already loaded stay.
     */
    public void setTrust(PluginTrust trust) {
        this.trust = java.util.Objects.requireNonNull(trust, "trust");
    }

    public PluginTrust trust() {
        return trust;
    }

    /** Bounds for calls that start from now (pool size, deadline, grace). */
    public void setLimits(CallLimits limits) {
        calls.setLimits(java.util.Objects.requireNonNull(limits, "limits"));
    }

    public CallLimits limits() {
        return calls.limits();
    }

    /** Slots of the pool free now (for monitoring and tests). */
    public int availableSlots() {
        return calls.available();
    }

    /** Calls stopped because their deadline passed, since start. */
    public long deadlineHits() {
        return calls.deadlineHits();
    }

    /** Threads abandoned to calls that ignored their cancellation (their plugins were quarantined), since start. */
    public long abandonedCalls() {
        return calls.abandonedThreads();
    }

    private void fire(RegistryEvent event) {
        for (RegistryListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "registry listener " + listener + " threw on " + event, e);
            }
        }
    }

    /** Removes every plugin (their calls in flight finish first) and deletes a temporary work directory. */
    @Override
    public void close() {
        mutation.lock();
        try {
            for (String pluginId : new ArrayList<>(slots.keySet())) {
                remove(pluginId);
            }
        } finally {
            mutation.unlock();
        }
        if (workers != null) {
            workers.close();
        }
        if (ownsWorkDir) {
            try (var files = Files.list(workDir)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
                Files.deleteIfExists(workDir);
            } catch (IOException e) {
                LOG.log(Level.DEBUG, "leaving " + workDir + ": " + e);
            }
        }
        calls.close();
    }

    // ---------------------------------------------------------------- for tests in this package

    /** The active version's class loader, weakly, so a test can watch it being collected after removal. */
    WeakReference<ClassLoader> classLoaderOf(String pluginId) {
        Slot slot = slots.get(pluginId);
        return new WeakReference<>(slot == null || slot.active == null ? null : slot.active.loader);
    }

    int callsInFlight(String pluginId) {
        Slot slot = slots.get(pluginId);
        return slot == null || slot.active == null ? 0 : slot.active.callsInFlight();
    }

    /** A plugin id's current state. Written under {@link #mutation}, read without it. */
    private static final class Slot {
        volatile LoadedPlugin active;
        volatile String failure;
        volatile Path failedJar;
        volatile Map<String, String> failedProperties = Map.of();
        volatile String failedVersion = "unknown";
        volatile Map<String, FilterDescriptor> failedDescriptors = Map.of();

        PluginInfo info(String id) {
            LoadedPlugin plugin = active;
            if (plugin != null) {
                return plugin.info(failure);
            }
            return new PluginInfo(id, failedVersion, PluginInfo.State.FAILED, failedJar, null,
                    new ArrayList<>(new TreeSet<>(failedDescriptors.keySet())), failedProperties, null, failure);
        }
    }
}
