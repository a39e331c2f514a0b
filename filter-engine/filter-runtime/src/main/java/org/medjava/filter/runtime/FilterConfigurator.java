package org.medjava.filter.runtime;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a {@link FilterRegistry} in step with a configuration file of {@link Directive}s: read at start and
 * re-read whenever the file, or a JAR it names, changes.
 *
 * <p>The file is read top to bottom into a desired state (which plugins, from which JAR with which parameters;
 * which filters suspended) and the registry is brought to it: new plugins loaded, changed JARs or parameters
 * reloaded (hot replacement), plugins this configurator loaded and the file no longer names removed, suspensions
 * applied or lifted. Plugins loaded through the API are left alone unless the file names them. A broken line or a
 * broken JAR is reported and skipped; everything else still applies.
 */
public final class FilterConfigurator implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FilterConfigurator.class.getName());

    private final FilterRegistry registry;
    private final Path configFile;
    private final Set<String> managedPlugins = new HashSet<>();
    private final Set<String> managedSuspensions = new HashSet<>();
    /** What each managed plugin was last loaded (or tried) from, to reload only on a real change. */
    private final Map<String, Source> lastSources = new HashMap<>();
    private String lastFingerprint;
    private ScheduledExecutorService watcher;

    public FilterConfigurator(FilterRegistry registry, Path configFile) {
        this.registry = registry;
        this.configFile = configFile.toAbsolutePath();
    }

    /** What one pass did: the actions taken and the problems met, each naming its line. */
    public record Report(List<String> actions, List<String> problems) {
        public Report {
            actions = List.copyOf(actions);
            problems = List.copyOf(problems);
        }

        public boolean ok() {
            return problems.isEmpty();
        }
    }

    /** Reads the file now and brings the registry to it. */
    public synchronized Report apply() {
        List<String> actions = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String text;
        try {
            text = Files.readString(configFile, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            text = "";
            problems.add(configFile + " does not exist; treating it as empty");
        } catch (IOException e) {
            problems.add("cannot read " + configFile + ": " + e.getMessage() + "; registry left as it was");
            return new Report(actions, problems);
        }
        Map<String, Source> wanted = new LinkedHashMap<>();
        Set<String> suspend = new HashSet<>();
        Set<String> removed = new HashSet<>();
        for (Directive d : Directive.parse(text, configFile.getParent())) {
            if (d instanceof Directive.Load load) {
                wanted.put(load.pluginId(), new Source(load.jar(), load.properties(), stamp(load.jar())));
                removed.remove(load.pluginId());
            } else if (d instanceof Directive.Remove remove) {
                wanted.remove(remove.pluginId());
                removed.add(remove.pluginId());
            } else if (d instanceof Directive.Suspend s) {
                suspend.add(s.filterId());
            } else if (d instanceof Directive.Resume r) {
                suspend.remove(r.filterId());
            } else if (d instanceof Directive.Invalid bad) {
                problems.add("line " + bad.line() + " \"" + bad.text() + "\": " + bad.reason());
            }
        }
        reconcilePlugins(wanted, removed, actions, problems);
        reconcileSuspensions(suspend, actions, problems);
        lastFingerprint = fingerprint(text, wanted);
        actions.forEach(a -> LOG.log(Level.INFO, configFile.getFileName() + ": " + a));
        problems.forEach(p -> LOG.log(Level.WARNING, configFile.getFileName() + ": " + p));
        return new Report(actions, problems);
    }

    private void reconcilePlugins(Map<String, Source> wanted, Set<String> removed, List<String> actions,
                                  List<String> problems) {
        for (String pluginId : new ArrayList<>(managedPlugins)) {
            if (!wanted.containsKey(pluginId)) {
                removeQuietly(pluginId, actions);
                managedPlugins.remove(pluginId);
                lastSources.remove(pluginId);
            }
        }
        for (String pluginId : removed) {
            if (!managedPlugins.contains(pluginId) && registry.plugin(pluginId).isPresent()) {
                removeQuietly(pluginId, actions);
            }
        }
        wanted.forEach((pluginId, source) -> {
            boolean present = registry.plugin(pluginId).isPresent();
            if (present && source.equals(lastSources.get(pluginId))) {
                return; // unchanged since the last attempt, whether it succeeded or not
            }
            managedPlugins.add(pluginId);
            lastSources.put(pluginId, source);
            try {
                PluginInfo info = registry.load(pluginId, source.jar(), source.properties());
                actions.add((present ? "reloaded " : "loaded ") + pluginId + " " + info.version() + " from "
                        + source.jar());
            } catch (RegistryException e) {
                problems.add(e.getMessage());
            }
        });
    }

    private void removeQuietly(String pluginId, List<String> actions) {
        try {
            registry.remove(pluginId);
            actions.add("removed " + pluginId);
        } catch (RegistryException.UnknownIdException e) {
            // already gone
        }
    }

    private void reconcileSuspensions(Set<String> suspend, List<String> actions, List<String> problems) {
        for (String filterId : new ArrayList<>(managedSuspensions)) {
            if (!suspend.contains(filterId)) {
                managedSuspensions.remove(filterId);
                try {
                    registry.resume(filterId);
                    actions.add("resumed " + filterId);
                } catch (RegistryException e) {
                    // its plugin is gone: nothing to resume
                }
            }
        }
        for (String filterId : suspend) {
            try {
                registry.suspend(filterId);
                if (managedSuspensions.add(filterId)) {
                    actions.add("suspended " + filterId);
                }
            } catch (RegistryException e) {
                problems.add("suspend " + filterId + ": " + e.getMessage());
            }
        }
    }

    /**
     * Re-reads the file whenever it or one of its JARs changes, checking every {@code interval}. A JAR
     * overwritten in place is thus hot-replaced.
     */
    public synchronized void watch(Duration interval) {
        if (watcher != null) {
            return;
        }
        watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "filter-config-watcher");
            t.setDaemon(true);
            return t;
        });
        watcher.scheduleWithFixedDelay(this::applyIfChanged, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** One watcher tick; public so hosts and tests can trigger a check without waiting. */
    public synchronized boolean applyIfChanged() {
        try {
            String text = Files.exists(configFile) ? Files.readString(configFile, StandardCharsets.UTF_8) : "";
            Map<String, Source> wanted = new LinkedHashMap<>();
            for (Directive d : Directive.parse(text, configFile.getParent())) {
                if (d instanceof Directive.Load load) {
                    wanted.put(load.pluginId(), new Source(load.jar(), load.properties(), stamp(load.jar())));
                }
            }
            if (Objects.equals(fingerprint(text, wanted), lastFingerprint)) {
                return false;
            }
            apply();
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "checking " + configFile + ": " + e);
            return false;
        }
    }

    private static String fingerprint(String text, Map<String, Source> wanted) {
        StringBuilder sb = new StringBuilder(text);
        wanted.values().forEach(s -> sb.append('\n').append(s.jar()).append('@').append(s.stamp()));
        return sb.toString();
    }

    /** The JAR's SHA-256: plugin JARs are small, and a same-size overwrite within a second still counts. */
    private static String stamp(Path jar) {
        try {
            return PluginLoader.sha256(jar);
        } catch (IOException e) {
            return "missing";
        }
    }

    @Override
    public synchronized void close() {
        if (watcher != null) {
            watcher.shutdownNow();
            watcher = null;
        }
    }

    private record Source(Path jar, Map<String, String> properties, String stamp) {
    }
}
