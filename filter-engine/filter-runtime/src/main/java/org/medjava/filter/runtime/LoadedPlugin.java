package org.medjava.filter.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.spi.FilterProvider;

/**
 * One loaded version of a plugin: its class loader, providers and filters, and a count of calls in flight.
 * Once retired it accepts no new calls; when the last call in flight ends it is finalized ({@code fini}) and its
 * class loader closed. Only the registry holds it, so after that the loader can be collected.
 */
final class LoadedPlugin {
    private static final System.Logger LOG = System.getLogger(LoadedPlugin.class.getName());
    /** High bit of {@link #calls}: retired, no new calls. The low bits count calls in flight. */
    private static final int RETIRED = 1 << 30;

    final String id;
    final String version;
    final Path sourceJar;
    final Path privateCopy;
    final String sha256;
    final Map<String, String> properties;
    final Instant loadedAt = Instant.now();
    /** Null when the plugin's code runs in filter workers ({@link WorkerFilter}). */
    final URLClassLoader loader;
    final List<FilterProvider> providers;
    final Map<String, Filter> filters;
    /** Read once at load, so listing filters never calls into plugin code. */
    final Map<String, FilterDescriptor> descriptors;

    private final AtomicInteger calls = new AtomicInteger();
    /** Calls running now, so retiring this version can cancel them. */
    private final java.util.Set<RunningCall> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile String retiredBecause;
    private final AtomicBoolean finalized = new AtomicBoolean();
    private final Runnable afterFinish;

    LoadedPlugin(String id, String version, Path sourceJar, Path privateCopy, String sha256,
                 Map<String, String> properties, URLClassLoader loader, List<FilterProvider> providers,
                 Map<String, Filter> filters, Runnable afterFinish) {
        this.id = id;
        this.version = version;
        this.sourceJar = sourceJar;
        this.privateCopy = privateCopy;
        this.sha256 = sha256;
        this.properties = Map.copyOf(properties);
        this.loader = loader;
        this.providers = List.copyOf(providers);
        this.filters = Map.copyOf(filters);
        Map<String, FilterDescriptor> read = new TreeMap<>();
        filters.forEach((filterId, filter) -> read.put(filterId, filter.descriptor()));
        this.descriptors = Collections.unmodifiableMap(read);
        this.afterFinish = afterFinish;
    }

    /** Registers a call; false once retired (the caller then looks up the current version again). */
    boolean tryAcquire() {
        while (true) {
            int c = calls.get();
            if ((c & RETIRED) != 0) {
                return false;
            }
            if (calls.compareAndSet(c, c + 1)) {
                return true;
            }
        }
    }

    void release() {
        if (calls.decrementAndGet() == RETIRED) {
            finish();
        }
    }

    void track(RunningCall call) {
        running.add(call);
        String why = retiredBecause;
        if (why != null) { // retired between acquire and track
            call.cancel(RunningCall.Cause.PLUGIN_GONE, why);
        }
    }

    void untrack(RunningCall call) {
        running.remove(call);
    }

    /**
     * No new calls, and the calls running are cancelled with {@code reason} (they stop at their next check); then
     * as {@link #retire()}.
     */
    void retire(String reason) {
        retiredBecause = reason;
        filters.values().forEach(f -> {
            if (f instanceof WorkerFilter w) {
                w.retired(); // its calls in the workers are told the version is gone, not that their caller left
            }
        });
        for (RunningCall call : running) {
            call.cancel(RunningCall.Cause.PLUGIN_GONE, call.filterId + ": " + reason);
        }
        retire();
    }

    /** No new calls; finalizes now if none is in flight, else when the last one ends. */
    void retire() {
        int before = calls.getAndUpdate(c -> c | RETIRED);
        if ((before & RETIRED) == 0 && before == 0) {
            finish();
        }
    }

    /** Whether this is the version filter workers know by {@code key}. */
    boolean runsInWorkersAs(String key) {
        return filters.values().stream().anyMatch(f -> f instanceof WorkerFilter w && w.pluginKey().equals(key));
    }

    int callsInFlight() {
        return calls.get() & ~RETIRED;
    }

    boolean isFinalized() {
        return finalized.get();
    }

    private void finish() {
        if (!finalized.compareAndSet(false, true)) {
            return;
        }
        for (FilterProvider provider : providers) {
            PluginCalls.quietly(loader, () -> provider.fini(), "fini of plugin " + id + " " + version);
        }
        close(loader, privateCopy);
        afterFinish.run();
    }

    /** Closes a loader and deletes the private JAR copy it was reading. */
    static void close(URLClassLoader loader, Path privateCopy) {
        try {
            if (loader != null) {
                loader.close();
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing class loader " + loader.getName() + ": " + e);
        }
        try {
            if (privateCopy != null) {
                Files.deleteIfExists(privateCopy);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "deleting " + privateCopy + ": " + e);
        }
    }

    PluginInfo info(String failure) {
        return new PluginInfo(id, version, PluginInfo.State.ACTIVE, sourceJar, sha256,
                filters.keySet().stream().sorted().toList(), properties, loadedAt, failure);
    }
}
