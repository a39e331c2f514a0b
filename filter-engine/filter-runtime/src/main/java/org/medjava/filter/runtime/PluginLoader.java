package org.medjava.filter.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterApi;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.spi.FilterProvider;
import org.medjava.filter.spi.PluginContext;

/**
 * Turns a plugin JAR into a {@link LoadedPlugin}: private copy, manifest checks, own class loader, providers found
 * with ServiceLoader, {@code init}, filters. Any failure cleans up what it made and throws a
 * {@link RegistryException.PluginLoadException} whose message is the reason.
 */
final class PluginLoader {
    static final String SERVICE_FILE = "META-INF/services/" + FilterProvider.class.getName();

    private final Path workDir;
    private final FilterWorkers workers;
    private final AtomicLong copies = new AtomicLong();

    /**
     * @param workDir where private copies go; null to read JARs in place (a worker, whose host made the copy)
     * @param workers where plugin code runs; null for this process
     */
    PluginLoader(Path workDir, FilterWorkers workers) {
        this.workDir = workDir;
        this.workers = workers;
    }

    LoadedPlugin load(String pluginId, Path jar, Map<String, String> properties) {
        if (!Files.isRegularFile(jar)) {
            throw failure(pluginId, "JAR " + jar + " does not exist or is not a file", null);
        }
        Path copy = workDir == null ? jar : workDir.resolve(pluginId + "-" + copies.incrementAndGet() + ".jar");
        String sha256;
        try {
            if (workDir != null) {
                Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            sha256 = sha256(copy);
        } catch (IOException e) {
            deleteQuietly(copy);
            throw failure(pluginId, "cannot copy " + jar + ": " + e.getMessage(), e);
        }
        String version;
        try {
            version = checkManifest(pluginId, copy);
        } catch (RegistryException e) {
            deleteQuietly(copy);
            throw e;
        }
        if (workers != null) {
            return loadInWorkers(pluginId, version, jar, copy, sha256, properties);
        }
        URLClassLoader loader;
        try {
            loader = new PluginClassLoader("plugin:" + pluginId + "@" + version, copy.toUri().toURL(),
                    Filter.class.getClassLoader());
        } catch (IOException e) {
            deleteQuietly(copy);
            throw failure(pluginId, "cannot open " + jar + ": " + e.getMessage(), e);
        }
        List<FilterProvider> initialized = new ArrayList<>();
        try {
            Map<String, Filter> filters = new LinkedHashMap<>();
            for (FilterProvider provider : findProviders(pluginId, loader)) {
                PluginContext context = new Context(pluginId, version, properties);
                PluginCalls.call(loader, () -> {
                    provider.init(context);
                    return null;
                });
                initialized.add(provider);
                collectFilters(pluginId, loader, provider, filters);
            }
            if (filters.isEmpty()) {
                throw failure(pluginId, "its providers offer no filters", null);
            }
            return new LoadedPlugin(pluginId, version, jar, workDir == null ? null : copy, sha256, properties, loader,
                    initialized, filters, () -> { });
        } catch (Throwable t) {
            for (FilterProvider provider : initialized) {
                PluginCalls.quietly(loader, provider::fini, "fini of rejected plugin " + pluginId);
            }
            LoadedPlugin.close(loader, workDir == null ? null : copy);
            if (t instanceof RegistryException) {
                throw (RegistryException) t;
            }
            if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
                throw (VirtualMachineError) t;
            }
            throw failure(pluginId, "init failed: " + PluginCalls.reason(t), t);
        }
    }

    /** The plugin's code runs in the workers only: the host keeps stand-ins with the descriptors they read. */
    private LoadedPlugin loadInWorkers(String pluginId, String version, Path jar, Path copy, String sha256,
                                       Map<String, String> properties) {
        FilterWorkers.Loaded loaded;
        try {
            loaded = workers.load(pluginId, version, copy, properties);
        } catch (RuntimeException e) {
            deleteQuietly(copy);
            throw e;
        }
        Map<String, Filter> filters = new LinkedHashMap<>();
        try {
            if (loaded.filters().isEmpty()) {
                throw failure(pluginId, "its providers offer no filters", null);
            }
            for (FilterWorkers.Offered offered : loaded.filters()) {
                offered.descriptor().defaults(); // as in-process: defaults that break their own rules are refused
                filters.put(offered.descriptor().id(), new WorkerFilter(workers, loaded.plugin(),
                        offered.descriptor(), offered.gray16()));
            }
        } catch (RuntimeException e) {
            workers.retire(loaded.plugin());
            deleteQuietly(copy);
            throw e instanceof RegistryException r ? r : failure(pluginId, PluginCalls.reason(e), e);
        }
        // the host keeps its private copy as in-process (what it serves and lists); the workers read their own
        return new LoadedPlugin(pluginId, version, jar, copy, sha256, properties, null, List.of(), filters,
                () -> workers.retire(loaded.plugin()));
    }

    private static String checkManifest(String pluginId, Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            Manifest manifest = file.getManifest();
            if (manifest == null) {
                throw failure(pluginId, "JAR has no manifest; it needs Plugin-Id, Plugin-Version and "
                        + "Filter-Api-Version entries", null);
            }
            Attributes main = manifest.getMainAttributes();
            String declaredId = main.getValue("Plugin-Id");
            if (declaredId == null || !declaredId.trim().equals(pluginId)) {
                throw failure(pluginId, "manifest Plugin-Id is " + (declaredId == null ? "missing" : "\""
                        + declaredId + "\"") + ", expected \"" + pluginId + "\"", null);
            }
            String api = main.getValue("Filter-Api-Version");
            if (!FilterApi.isCompatible(api)) {
                throw failure(pluginId, "compiled for filter API " + (api == null ? "(missing Filter-Api-Version)"
                        : api) + ", this host runs " + FilterApi.VERSION + " (same major, minor not newer)", null);
            }
            if (file.getEntry(SERVICE_FILE) == null) {
                throw failure(pluginId, "no " + SERVICE_FILE + " in the JAR", null);
            }
            String version = main.getValue("Plugin-Version");
            return version == null || version.isBlank() ? "unversioned" : version.trim();
        } catch (IOException e) {
            throw failure(pluginId, "not a readable JAR: " + e.getMessage(), e);
        }
    }

    private static List<FilterProvider> findProviders(String pluginId, ClassLoader loader) throws Exception {
        List<FilterProvider> providers = new ArrayList<>();
        try {
            PluginCalls.call(loader, () -> {
                // ServiceLoader also searches the parent loaders; only this JAR's own providers count.
                for (ServiceLoader.Provider<FilterProvider> p : ServiceLoader.load(FilterProvider.class, loader)
                        .stream().toList()) {
                    if (p.type().getClassLoader() == loader) {
                        providers.add(p.get());
                    }
                }
                return null;
            });
        } catch (ServiceConfigurationError e) {
            throw failure(pluginId, "bad provider: " + PluginCalls.reason(e), e);
        }
        if (providers.isEmpty()) {
            throw failure(pluginId, "no FilterProvider found through " + SERVICE_FILE, null);
        }
        return providers;
    }

    private static void collectFilters(String pluginId, ClassLoader loader, FilterProvider provider,
                                       Map<String, Filter> into) throws Exception {
        List<Filter> offered = PluginCalls.call(loader, provider::filters);
        if (offered == null) {
            throw failure(pluginId, provider.getClass().getName() + ".filters() returned null", null);
        }
        for (Filter filter : offered) {
            FilterDescriptor descriptor = filter == null ? null : PluginCalls.call(loader, filter::descriptor);
            if (descriptor == null) {
                throw failure(pluginId, provider.getClass().getName() + " offers a filter without descriptor", null);
            }
            descriptor.defaults(); // a descriptor whose defaults break its own rules is rejected here
            if (into.putIfAbsent(descriptor.id(), filter) != null) {
                throw failure(pluginId, "filter id " + descriptor.id() + " is offered twice", null);
            }
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    private static RegistryException.PluginLoadException failure(String pluginId, String reason, Throwable cause) {
        return new RegistryException.PluginLoadException("plugin " + pluginId + ": " + reason, cause);
    }

    private void deleteQuietly(Path path) {
        if (path == null || workDir == null) {
            return; // a JAR read in place is not ours
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // a stale private copy in the work directory is harmless
        }
    }

    private record Context(String pluginId, String pluginVersion, Map<String, String> properties)
            implements PluginContext {
        Context {
            properties = Map.copyOf(properties);
        }
    }
}
