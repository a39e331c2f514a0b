package org.medjava.viewer.filters;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.medjava.filter.runtime.ApplyRecord;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginDirectory;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.filter.runtime.PluginSignatures;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.filter.runtime.RegistryEvent;
import org.medjava.filter.runtime.RegistryException;
import org.medjava.viewer.model.FilterStep;
import org.medjava.viewer.store.Manifest;

/**
 * The viewer's filters: one {@link FilterRegistry} (the Service Configurator) holding the plugins bundled with the
 * viewer and those of the store's filter repository. {@link #follow} makes the registry match a manifest: plugins
 * the store installs or replaces are downloaded, verified by SHA-256 and by their publisher's signature
 * ({@link PluginTrust}; a refused JAR is dropped or, by policy, kept in {@code quarantine/}) and (re)loaded;
 * a store plugin that FAILED here (threw, or was quarantined by the filter workers) is not run again until the store
 * offers other bytes for it; suspensions are mirrored;
 * plugins the store removes are unloaded (a bundled version of the same plugin comes back). Listeners hear about
 * every change, on the thread that made it. {@link #isolation()} says how the plugins run (worker processes or the
 * viewer's own).
 */
public final class FilterCatalog implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FilterCatalog.class.getName());

    /** Fetches a plugin JAR named by the manifest's download link. */
    @FunctionalInterface
    public interface JarSource {
        byte[] fetch(String link) throws IOException;
    }

    private final FilterRegistry registry;
    private final Path downloads;
    private final Map<String, Path> bundledJars = new ConcurrentHashMap<>();
    private final Map<String, String> fromStore = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final String isolationNote;
    private volatile CompletableFuture<List<String>> bundled = CompletableFuture.completedFuture(List.of());

    /** A catalog that checks signatures as {@code registry} does already (no check unless it was given a trust). */
    public FilterCatalog(FilterRegistry registry, Path downloads) {
        this(registry, downloads, registry.trust());
    }

    /** A catalog whose bundled and downloaded plugins must be signed as {@code trust} says. */
    public FilterCatalog(FilterRegistry registry, Path downloads, PluginTrust trust) {
        this(registry, downloads, trust, null);
    }

    /**
     * As {@link #FilterCatalog(FilterRegistry, Path, PluginTrust)}, saying in {@link #isolation()} why plugins run
     * in the viewer's process ({@code isolationNote}; null when they run in workers or no reason needs telling).
     */
    public FilterCatalog(FilterRegistry registry, Path downloads, PluginTrust trust, String isolationNote) {
        registry.setTrust(trust);
        this.registry = registry;
        this.downloads = downloads;
        this.isolationNote = isolationNote;
        registry.addListener(event -> {
            if (!(event instanceof RegistryEvent.FilterApplied)) {
                fire(); // the menu changes with the plugins, not with each application
            }
        });
    }

    /**
     * Loads the bundled plugins of {@code dir} on a thread of its own, so the window need not wait for them (nor,
     * with filter workers, for the first worker to start); the menu fills as they load.
     *
     * @return the problems, one per plugin that did not load, once every one was tried
     */
    public CompletableFuture<List<String>> loadBundledInBackground(Path dir) {
        CompletableFuture<List<String>> done = new CompletableFuture<>();
        bundled = done;
        Thread loader = new Thread(() -> {
            try {
                done.complete(loadBundled(dir));
            } catch (IOException | RuntimeException e) {
                done.complete(List.of("bundled plugins in " + dir + ": " + e.getMessage()));
            } finally {
                fire(); // "loading" ends even when no plugin loaded
            }
        }, "viewer-bundled-plugins");
        loader.setDaemon(true);
        loader.start();
        return done;
    }

    /** Whether the bundled plugins are still being loaded ({@link #loadBundledInBackground}). */
    public boolean loadingBundled() {
        return !bundled.isDone();
    }

    /** The bundled plugins' loading: done at once unless {@link #loadBundledInBackground} runs. */
    public CompletableFuture<List<String>> bundledLoaded() {
        return bundled;
    }

    /** How the plugins run now: in worker processes (and how confined) or in the viewer's own process. */
    public FilterIsolation isolation() {
        return new FilterIsolation(registry.isolation(), isolationNote, registry.trust());
    }

    /**
     * Loads every plugin JAR of {@code dir} (missing directory: none) as a bundled plugin. Not while the catalog
     * follows the store: a bundled JAR loaded after a store's version of the same plugin would replace it.
     */
    public synchronized List<String> loadBundled(Path dir) throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> loadProblems = PluginDirectory.loadAll(registry, dir);
        try (Stream<Path> jars = Files.list(dir)) {
            jars.filter(p -> p.toString().endsWith(".jar")).forEach(jar -> {
                String id = PluginDirectory.pluginId(jar);
                if (id != null) {
                    bundledJars.put(id, jar);
                }
            });
        }
        problems.addAll(loadProblems);
        return loadProblems;
    }

    public FilterRegistry registry() {
        return registry;
    }

    public void addListener(Runnable listener) {
        listeners.add(listener);
    }

    /** Every filter with its origin and state, sorted by id. */
    public List<FilterEntry> entries() {
        List<FilterEntry> entries = new ArrayList<>();
        for (FilterInfo f : registry.filters()) {
            FilterEntry.Origin origin = fromStore.containsKey(f.pluginId()) ? FilterEntry.Origin.STORE
                    : FilterEntry.Origin.BUNDLED;
            entries.add(new FilterEntry(f.descriptor(), f.pluginId(), f.pluginVersion(), origin, f.state(), f.reason()));
        }
        return entries;
    }

    /**
     * The plugin that ran {@code filterId}, for a derived object's provenance: id and version from the timing record
     * of that application ({@code ran}; null: the plugin providing the filter now), SHA-256 of the JAR the registry
     * runs for it (empty if the plugin was replaced by another version meanwhile). Null when the filter is unknown.
     */
    public FilterStep.Plugin provenance(String filterId, ApplyRecord ran) {
        String pluginId = ran != null ? ran.pluginId()
                : registry.filter(filterId).map(FilterInfo::pluginId).orElse(null);
        if (pluginId == null) {
            return null;
        }
        PluginInfo now = registry.plugin(pluginId).orElse(null);
        String version = ran != null ? ran.pluginVersion() : now == null ? "" : now.version();
        String sha256 = now != null && now.sha256() != null && now.version().equals(version) ? now.sha256() : "";
        return new FilterStep.Plugin(pluginId, version, sha256);
    }

    /** What went wrong lately (refused downloads, load failures), newest last. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * Makes the registry follow {@code manifest}.
     *
     * @return one line per problem (a refused or failed plugin); the other plugins are followed regardless
     */
    public synchronized List<String> follow(Manifest manifest, JarSource source) {
        List<String> found = new ArrayList<>();
        Set<String> listed = new HashSet<>();
        for (Manifest.Plugin plugin : manifest.plugins()) {
            if (!plugin.active()) {
                continue;
            }
            listed.add(plugin.id());
            try {
                ensureLoaded(plugin, source);
                mirrorSuspensions(plugin);
            } catch (IOException | RuntimeException e) {
                found.add(e.getMessage());
                LOG.log(Level.WARNING, "store plugin " + plugin.id() + ": " + e.getMessage());
            }
        }
        for (String id : new ArrayList<>(fromStore.keySet())) {
            if (!listed.contains(id)) {
                dropStorePlugin(id);
            }
        }
        problems.clear();
        problems.addAll(found);
        return found;
    }

    /** Back to the bundled plugins only (after disconnecting from the store). */
    public synchronized void forgetStore() {
        for (String id : new ArrayList<>(fromStore.keySet())) {
            dropStorePlugin(id);
        }
    }

    private void ensureLoaded(Manifest.Plugin plugin, JarSource source) throws IOException {
        String want = plugin.sha256().toLowerCase(java.util.Locale.ROOT);
        PluginInfo loaded = registry.plugin(plugin.id()).orElse(null);
        if (loaded != null && loaded.state() == PluginInfo.State.ACTIVE && want.equals(loaded.sha256())) {
            if (fromStore.put(plugin.id(), want) == null) {
                fire(); // the same bytes are already running (the bundled JAR): only the origin changes
            }
            return;
        }
        if (loaded != null && loaded.state() == PluginInfo.State.FAILED && want.equals(fromStore.get(plugin.id()))) {
            return; // these very bytes failed or were quarantined here: they stay off until the store has others
        }
        byte[] jar = source.fetch(plugin.download());
        PluginVerifier.verify(plugin.id(), jar, want);
        Files.createDirectories(downloads);
        Path file = downloads.resolve(plugin.id() + "-" + want.substring(0, 16) + ".jar");
        Files.write(file, jar);
        try {
            PluginSignatures.verify(file, registry.trust()); // as well as the SHA-256: the store may be wrong
        } catch (RegistryException.PluginLoadException e) {
            String kept = "";
            if (registry.trust().policy() == PluginTrust.Policy.QUARANTINE) {
                Path quarantined = Files.createDirectories(downloads.resolve("quarantine")).resolve(file.getFileName());
                Files.move(file, quarantined, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                kept = "; kept, not loaded, as " + quarantined;
            }
            Files.deleteIfExists(file);
            throw new SecurityException("plugin " + plugin.id() + " from the store refused: " + e.getMessage()
                    + kept, e);
        }
        String before = fromStore.put(plugin.id(), want); // before loading: listeners see the right origin
        try {
            registry.load(plugin.id(), file, Map.of());
        } catch (RuntimeException e) {
            if (before == null) {
                fromStore.remove(plugin.id());
            } else {
                fromStore.put(plugin.id(), before);
            }
            throw e;
        } finally {
            Files.deleteIfExists(file); // the registry runs its own private copy
        }
    }

    private void mirrorSuspensions(Manifest.Plugin plugin) {
        for (Manifest.FilterState f : plugin.filters()) {
            FilterInfo local = registry.filter(f.id()).orElse(null);
            if (local == null || !local.pluginId().equals(plugin.id())) {
                continue;
            }
            if (f.suspended() && local.state() == FilterInfo.State.ACTIVE) {
                registry.suspend(f.id());
            } else if (!f.suspended() && local.state() == FilterInfo.State.SUSPENDED) {
                registry.resume(f.id());
            }
        }
    }

    private void dropStorePlugin(String id) {
        fromStore.remove(id);
        fire();
        try {
            registry.remove(id);
        } catch (RegistryException.UnknownIdException e) {
            // already gone
        }
        Path bundled = bundledJars.get(id);
        if (bundled != null) {
            try {
                registry.load(id, bundled, Map.of());
            } catch (RegistryException e) {
                problems.add(e.getMessage());
            }
        }
    }

    private void fire() {
        listeners.forEach(Runnable::run);
    }

    @Override
    public void close() {
        registry.close();
    }
}
