package org.medjava.store.core.filters;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginDirectory;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.filter.runtime.PluginSignatures;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.filter.runtime.RegistryException;
import org.medjava.filter.runtime.isolation.WorkerOptions;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.storage.DiskSpaceGuard;

/**
 * The filter repository: plugin JARs in {@code pluginsDir} (one {@code <plugin-id>.jar} each), all loaded into one
 * {@link FilterRegistry} that the store renders with. Installing, replacing, suspending, resuming and removing take
 * effect at once, without a restart; a JAR that fails to load is rejected and the running version kept. Suspension
 * survives restarts as a marker file {@code <plugin-id>.suspended}. Plugins must be signed by a publisher the
 * {@link PluginTrust} names (checked before any of their code runs); a refused upload is dropped, or kept in
 * {@code quarantine/} when the trust's policy says so.
 */
public final class FilterRepository implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FilterRepository.class.getName());
    private static final Pattern PLUGIN_ID = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");

    private final Path pluginsDir;
    private final Path staging;
    private final long maxJarBytes;
    private final FilterRegistry registry;
    private final DiskSpaceGuard space;
    private final PluginTrust trust;
    private volatile PluginCatalog catalog = PluginCatalog.NONE;

    private volatile AuditTrail audit = AuditTrail.NONE;

    /** A repository that checks no signatures (tools and tests of other matters). */
    public FilterRepository(Path pluginsDir, Path workDir, long maxJarBytes) throws IOException {
        this(pluginsDir, workDir, maxJarBytes, DiskSpaceGuard.none(), PluginTrust.off(), null);
    }

    /**
     * @param space   the free-space floor an upload is checked against before it is written
     * @param trust   whose plugins are loaded, and what happens to the others
     * @param workers the filter workers plugin code runs in; null: inside this process
     */
    public FilterRepository(Path pluginsDir, Path workDir, long maxJarBytes, DiskSpaceGuard space, PluginTrust trust,
                            WorkerOptions workers) throws IOException {
        this.space = space;
        this.trust = trust;
        this.pluginsDir = Files.createDirectories(pluginsDir);
        this.staging = Files.createDirectories(pluginsDir.resolve(".staging"));
        this.maxJarBytes = maxJarBytes;
        this.registry = workers == null ? new FilterRegistry(Files.createDirectories(workDir))
                : new FilterRegistry(Files.createDirectories(workDir), workers);
        var isolation = registry.isolation();
        LOG.info("filter plugins run " + (workers == null ? "inside the store (in-process)" : "in "
                + isolation.workers() + " worker processes: " + String.join("; ", isolation.protections())));
        if (!isolation.missing().isEmpty()) {
            LOG.warning("filter plugin isolation lacks: " + String.join("; ", isolation.missing()));
        }
        registry.setTrust(trust); // every load path (install, start, a cluster's catalog) is checked there
        // a runaway plugin stopped by quarantine is a security-relevant change of the store's software
        registry.addListener(event -> {
            if (event instanceof org.medjava.filter.runtime.RegistryEvent.PluginQuarantined q) {
                audit.record(AuditEvents.pluginChanged(null, q.pluginId(), "quarantine", false, q.reason()));
            }
        });
    }

    /** Where changes are announced from now on (a cluster's shared catalog). */
    /** Where plugin changes made through this repository are recorded (nothing until set). */
    public void auditTo(AuditTrail trail) {
        this.audit = trail;
    }

    private void audited(String id, String change, boolean success, String failure, Caller caller) {
        audit.record(AuditEvents.pluginChanged(caller, id, change, success, failure));
    }

    public void announceTo(PluginCatalog catalog) {
        this.catalog = catalog;
    }

    public FilterRegistry registry() {
        return registry;
    }

    public Path pluginsDir() {
        return pluginsDir;
    }

    /** Loads every {@code *.jar} in the plugins directory; one that fails is logged and left FAILED. */
    public void loadAll() throws IOException {
        try (Stream<Path> jars = Files.list(pluginsDir)) {
            for (Path jar : (Iterable<Path>) jars.filter(p -> p.toString().endsWith(".jar")).sorted()::iterator) {
                String id = jar.getFileName().toString().replaceFirst("\\.jar$", "");
                try {
                    registry.load(id, jar, Map.of());
                    if (Files.exists(suspendedMarker(id))) {
                        setSuspended(registry.plugin(id).orElseThrow(), true);
                    }
                } catch (RegistryException e) {
                    LOG.log(Level.WARNING, "plugin " + jar.getFileName() + " not loaded: " + e.getMessage());
                }
            }
        }
    }

    public List<PluginInfo> plugins() {
        return registry.plugins();
    }

    public List<FilterInfo> filters() {
        return registry.filters();
    }

    public Optional<PluginInfo> plugin(String id) {
        return PLUGIN_ID.matcher(id).matches() ? registry.plugin(id) : Optional.empty();
    }

    /** The JAR served for download: the one in the plugins directory, which is what the registry loaded. */
    public Path jar(String id) {
        Path jar = pluginsDir.resolve(checkId(id) + ".jar");
        if (!Files.isRegularFile(jar)) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no plugin " + id + " in the filter repository");
        }
        return jar;
    }

    /** The outcome of an install: the plugin as loaded, and whether it replaced a running version. */
    public record Installed(PluginInfo plugin, boolean replaced) {
    }

    /**
     * Installs or replaces the plugin an uploaded JAR carries, under the {@code Plugin-Id} of its manifest (what
     * the JAR says it is; no one has to type it).
     *
     * @throws StoreException UNPROCESSABLE when the upload is not a JAR whose manifest names a valid Plugin-Id, or
     *                        when it does not load (as {@link #install(String, InputStream, Caller)})
     */
    public synchronized Installed install(InputStream body, Caller caller) throws IOException {
        space.checkWritable();
        Path temp = Files.createTempFile(staging, "upload-", ".jar");
        try {
            copyLimited(body, temp);
            String id = PluginDirectory.pluginId(temp);
            if (id == null) {
                throw new StoreException(StoreException.Kind.UNPROCESSABLE, "not a filter plugin: the upload is not "
                        + "a JAR whose manifest names its Plugin-Id (with Plugin-Version and Filter-Api-Version)");
            }
            if (!PLUGIN_ID.matcher(id).matches()) {
                throw new StoreException(StoreException.Kind.UNPROCESSABLE, "the JAR's manifest names Plugin-Id \""
                        + id + "\", which is not a plugin id: lower-case letters, digits and '-', at most 64 "
                        + "characters, starting with a letter or digit");
            }
            return installAudited(id, temp, caller);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Installs or replaces plugin {@code id} from an uploaded JAR, whose manifest's {@code Plugin-Id} must be
     * {@code id}.
     *
     * @throws StoreException UNPROCESSABLE with the registry's reason when the JAR does not load (the running
     *                        version stays active and its file untouched) or names another Plugin-Id, TOO_LARGE,
     *                        BAD_REQUEST, INSUFFICIENT_STORAGE (before anything is written when the disk is nearly
     *                        full)
     */
    public synchronized Installed install(String id, InputStream body, Caller caller) throws IOException {
        checkId(id);
        space.checkWritable();
        Path temp = Files.createTempFile(staging, id + "-", ".jar");
        try {
            try {
                copyLimited(body, temp);
            } catch (IOException | RuntimeException e) {
                audited(id, isActive(id) ? "replace" : "install", false, e.getMessage(), caller);
                throw e;
            }
            return installAudited(id, temp, caller);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private boolean isActive(String id) {
        return registry.plugin(id).map(p -> p.state() == PluginInfo.State.ACTIVE).orElse(false);
    }

    private Installed installAudited(String id, Path jar, Caller caller) throws IOException {
        boolean replacing = isActive(id);
        try {
            String declared = PluginDirectory.pluginId(jar);
            if (declared != null && !declared.equals(id)) {
                throw new StoreException(StoreException.Kind.UNPROCESSABLE, "plugin " + id + " rejected: the JAR's "
                        + "manifest names Plugin-Id \"" + declared + "\", not \"" + id + "\"; install it as "
                        + declared + ", or upload it without an id (POST /filters) and the manifest's is used"
                        + (replacing ? "; the running version stays active" : ""));
            }
            Installed installed = load(id, jar);
            audited(id, installed.replaced() ? "replace" : "install", true, null, caller);
            return installed;
        } catch (IOException | RuntimeException e) {
            audited(id, replacing ? "replace" : "install", false, e.getMessage(), caller);
            throw e;
        }
    }

    /** Loads the staged {@code jar} as plugin {@code id} and, when it loads, moves it into the repository. */
    private Installed load(String id, Path jar) throws IOException {
        boolean replacing = isActive(id);
        PluginSignatures.Signer signer;
        try {
            signer = PluginSignatures.verify(jar, trust); // here too, to quarantine what the registry refuses
        } catch (RegistryException.PluginLoadException e) {
            String kept = quarantine(id, jar);
            LOG.warning("plugin " + id + " refused: " + e.getMessage() + kept);
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "plugin " + id + " rejected: "
                    + e.getMessage() + kept + (replacing ? "; the running version stays active" : ""), e);
        }
        PluginInfo loaded;
        try {
            loaded = registry.load(id, jar, Map.of());
        } catch (RegistryException e) {
            if (!replacing) {
                registry.remove(id); // a rejected upload leaves no FAILED entry behind
            }
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "plugin " + id + " rejected: "
                    + e.getMessage() + (replacing ? "; the running version stays active" : ""), e);
        }
        Files.move(jar, pluginsDir.resolve(id + ".jar"), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(suspendedMarker(id));
        setSuspended(loaded, false); // the registry keeps suspensions by filter id; a new install starts active
        catalog.installed(id, pluginsDir.resolve(id + ".jar"));
        if (signer != null) {
            LOG.info("plugin " + id + " " + loaded.version() + " installed, signed by " + signer);
        }
        return new Installed(loaded, replacing);
    }

    /** Under the QUARANTINE policy, keeps a refused upload in {@code quarantine/}; says where, or nothing. */
    private String quarantine(String id, Path jar) throws IOException {
        if (trust.policy() != PluginTrust.Policy.QUARANTINE) {
            return "";
        }
        Path dir = Files.createDirectories(pluginsDir.resolve("quarantine"));
        Path kept = dir.resolve(id + "-" + java.time.Instant.now().toEpochMilli() + ".jar");
        Files.copy(jar, kept);
        return "; the JAR is kept, not loaded, as " + pluginsDir.getFileName() + "/quarantine/" + kept.getFileName();
    }

    private void copyLimited(InputStream body, Path temp) throws IOException {
        try (var out = Files.newOutputStream(temp)) {
            byte[] buffer = new byte[1 << 16];
            long total = 0;
            for (int n; (n = body.read(buffer)) >= 0; ) {
                total += n;
                if (total > maxJarBytes) {
                    throw new StoreException(StoreException.Kind.TOO_LARGE, "plugin JARs are limited to "
                            + maxJarBytes + " bytes");
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            if (DiskSpaceGuard.isOutOfSpace(e)) {
                throw new StoreException(StoreException.Kind.INSUFFICIENT_STORAGE, "the disk ran out of space while"
                        + " receiving the plugin (" + e.getMessage() + "); the installed plugins are unchanged", e);
            }
            throw e;
        }
    }

    public synchronized void remove(String id, Caller caller) throws IOException {
        requirePlugin(id);
        registry.remove(id);
        Files.deleteIfExists(pluginsDir.resolve(id + ".jar"));
        Files.deleteIfExists(suspendedMarker(id));
        catalog.removed(id);
        audited(id, "remove", true, null, caller);
    }

    /** Suspends (or resumes) every filter of a plugin; remembered across restarts. */
    public synchronized PluginInfo setSuspended(String id, boolean suspended, Caller caller) throws IOException {
        PluginInfo plugin = requirePlugin(id);
        if (plugin.state() != PluginInfo.State.ACTIVE) {
            audited(id, suspended ? "suspend" : "resume", false, "plugin is " + plugin.state(), caller);
            throw new StoreException(StoreException.Kind.CONFLICT, "plugin " + id + " is " + plugin.state()
                    + (plugin.failure() == null ? "" : " (" + plugin.failure() + ")") + "; install a working JAR");
        }
        setSuspended(plugin, suspended);
        if (suspended) {
            Files.writeString(suspendedMarker(id), "suspended\n");
        } else {
            Files.deleteIfExists(suspendedMarker(id));
        }
        catalog.suspended(id, suspended);
        audited(id, suspended ? "suspend" : "resume", true, null, caller);
        return plugin;
    }

    /**
     * Makes this repository hold exactly the given plugins (another node's changes): JARs that differ from the
     * loaded ones (by the SHA-256 the registry keeps) are loaded, plugins not listed are removed, suspensions are set as listed. Nothing is
     * announced. A JAR that fails to load here is logged and left as the registry marks it.
     *
     * @param jars      the plugins' JARs by id
     * @param suspended the ids of the suspended plugins
     */
    public synchronized void sync(Map<String, byte[]> jars, java.util.Set<String> suspended) throws IOException {
        for (Map.Entry<String, byte[]> e : jars.entrySet()) {
            String id = e.getKey();
            if (!PLUGIN_ID.matcher(id).matches()) {
                continue;
            }
            Path jar = pluginsDir.resolve(id + ".jar");
            String sha = sha256(e.getValue());
            if (registry.plugin(id).map(PluginInfo::sha256).filter(sha::equals).isEmpty()) { // new or changed
                Path temp = Files.createTempFile(staging, id + "-", ".jar");
                try {
                    Files.write(temp, e.getValue());
                    registry.load(id, temp, Map.of());
                    Files.move(temp, jar, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    LOG.info("plugin " + id + " loaded from the cluster's catalog");
                } catch (RegistryException ex) {
                    LOG.log(Level.WARNING, "plugin " + id + " from the cluster's catalog does not load here: "
                            + ex.getMessage());
                } finally {
                    Files.deleteIfExists(temp);
                }
            }
            registry.plugin(id).filter(p -> p.state() == PluginInfo.State.ACTIVE).ifPresent(p -> {
                boolean wanted = suspended.contains(id);
                setSuspended(p, wanted);
                try {
                    if (wanted) {
                        Files.writeString(suspendedMarker(id), "suspended\n");
                    } else {
                        Files.deleteIfExists(suspendedMarker(id));
                    }
                } catch (IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            });
        }
        for (PluginInfo p : registry.plugins()) {
            if (!jars.containsKey(p.id())) {
                registry.remove(p.id());
                Files.deleteIfExists(pluginsDir.resolve(p.id() + ".jar"));
                Files.deleteIfExists(suspendedMarker(p.id()));
                LOG.info("plugin " + p.id() + " removed: it left the cluster's catalog");
            }
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void setSuspended(PluginInfo plugin, boolean suspended) {
        for (String filterId : plugin.filterIds()) {
            if (suspended) {
                registry.suspend(filterId);
            } else {
                registry.resume(filterId);
            }
        }
    }

    private PluginInfo requirePlugin(String id) {
        return plugin(checkId(id)).orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND, "no plugin "
                + id + "; installed: " + String.join(", ", plugins().stream().map(PluginInfo::id).toList())));
    }

    private Path suspendedMarker(String id) {
        return pluginsDir.resolve(id + ".suspended");
    }

    private static String checkId(String id) {
        if (id == null || !PLUGIN_ID.matcher(id).matches()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "plugin ids are lower-case letters, digits "
                    + "and '-', at most 64 characters, starting with a letter or digit");
        }
        return id;
    }

    @Override
    public void close() {
        registry.close();
    }
}
