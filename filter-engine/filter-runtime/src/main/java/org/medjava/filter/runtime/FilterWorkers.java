package org.medjava.filter.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.URISyntaxException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.medjava.filter.Cancellation;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterCancelledException;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Region;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.runtime.isolation.IsolationReport;
import org.medjava.filter.runtime.isolation.Sandbox;
import org.medjava.filter.runtime.isolation.Segment;
import org.medjava.filter.runtime.isolation.Wire;
import org.medjava.filter.runtime.isolation.WorkerOptions;
import org.medjava.filter.runtime.isolation.WorkerProcess;

/**
 * The host's pool of filter worker processes. Every worker can run every loaded plugin: a plugin is loaded by one
 * worker to learn its filters (the host never runs its code), and by each other worker before its first call
 * there. A worker runs one call at a time; a call waits for a free worker. A worker that ended, was killed, ran out
 * of memory or threads, or whose plugin threw is replaced, so each call starts in a clean process; a plugin that
 * causes {@link WorkerOptions#faultsBeforeQuarantine()} faults, or ignores its cancellation, is quarantined.
 */
final class FilterWorkers implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FilterWorkers.class.getName());
    /** Threads a worker may gain over a call before it is replaced (a plugin that leaks them). */
    private static final int THREAD_LEAK = 8;
    private static final long LOAD_TIMEOUT_MS = 60_000;
    /** Pool directories are named {@code medjava-filters-<host pid>-<random>}. */
    private static final String PREFIX = "medjava-filters-";

    /** What the registry does with a plugin that faulted too often. */
    interface Quarantine {
        void quarantine(String pluginId, String key, String reason);
    }

    /** One loaded plugin version: its id, the key of this version (its JAR copy) and how to load it. */
    record Plugin(String id, String version, String key, Path jar, Map<String, String> properties) {
    }

    /** A filter as a worker read it. */
    record Offered(FilterDescriptor descriptor, boolean gray16) {
    }

    /** A plugin version loaded in a worker, with what it offers. */
    record Loaded(Plugin plugin, List<Offered> filters) {
    }

    /** The raster of a call as it lies in the segment. */
    record Shape(byte format, int width, int height, int bits, boolean signed, long bytes) {
    }

    /** Moves pixels between a raster and the segment. */
    @FunctionalInterface
    interface Copy {
        void copy(Segment segment) throws IOException;
    }

    private final WorkerOptions options;
    private final Sandbox sandbox;
    private final Quarantine quarantine;
    private final Path poolDir;
    private final Path pluginDir;
    private final List<Path> readOnly;
    private final Path java;
    private final List<String> javaArgs;
    private final LinkedBlockingDeque<WorkerProcess> idle = new LinkedBlockingDeque<>();
    private final Set<WorkerProcess> all = ConcurrentHashMap.newKeySet();
    private final Semaphore capacity;
    /** Keys of the plugin versions not yet retired (a replaced version runs its last calls). */
    private final Set<String> live = ConcurrentHashMap.newKeySet();
    /** Keys of versions replaced, removed or FAILED whose last calls may still run. */
    private final Set<String> gone = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> faults = new ConcurrentHashMap<>();
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger replaced = new AtomicInteger();
    private final ExecutorService background = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "filter-workers");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;

    FilterWorkers(WorkerOptions options, Quarantine quarantine) {
        this.options = options;
        this.quarantine = quarantine;
        this.sandbox = Sandbox.detect();
        this.capacity = new Semaphore(options.workers());
        try {
            Path shm = Path.of("/dev/shm");
            Path base = Files.isDirectory(shm) && Files.isWritable(shm) ? shm
                    : Path.of(System.getProperty("java.io.tmpdir"));
            removeLeftovers(base);
            poolDir = Files.createTempDirectory(base, PREFIX + ProcessHandle.current().pid() + "-");
            Files.setPosixFilePermissions(poolDir, PosixFilePermissions.fromString("rwxr-xr-x"));
            pluginDir = readable(Files.createDirectory(poolDir.resolve("plugins")));
            Path libDir = readable(Files.createDirectory(poolDir.resolve("lib")));
            List<String> classpath = new ArrayList<>();
            for (Class<?> type : List.of(Filter.class, FilterWorkerMain.class)) {
                classpath.add(copyCode(type, libDir.resolve(classpath.size() + "-")).toString());
            }
            readOnly = List.of(libDir, pluginDir);
            java = Path.of(System.getProperty("java.home"), "bin", "java");
            List<String> args = new ArrayList<>(List.of("-Xmx" + options.heapMiB() + "m", "-Xms16m",
                    "-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:+DisableAttachMechanism", "-Xshare:auto",
                    "-Djava.awt.headless=true"));
            if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
                args.addAll(List.of("--add-modules", "jdk.incubator.vector"));
            }
            args.addAll(List.of("-cp", String.join(":", classpath), FilterWorkerMain.class.getName()));
            javaArgs = List.copyOf(args);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the filter workers' directory", e);
        }
    }

    IsolationReport report() {
        return new IsolationReport("workers", options.workers(), sandbox.protections(options), sandbox.missing(),
                started.get(), replaced.get());
    }

    /** Whether plugins may load: false when a sandbox is required and the operating system offers none. */
    private void requireSandbox(String pluginId) {
        if (options.requireSandbox() && !sandbox.confines()) {
            throw new RegistryException.PluginLoadException("plugin " + pluginId + ": refused, filter workers must"
                    + " be confined and this machine offers no confinement: " + String.join("; ", sandbox.missing()),
                    null);
        }
    }

    // ---------------------------------------------------------------- plugins

    /**
     * Loads a plugin version in one worker and answers its filters. The JAR is copied where workers can read it.
     *
     * @throws RegistryException.PluginLoadException the plugin did not load, or ended its worker while loading
     */
    Loaded load(String pluginId, String version, Path jar, Map<String, String> properties) {
        requireSandbox(pluginId);
        Path copy = pluginDir.resolve(pluginId + "-" + started.get() + "-" + System.nanoTime() + ".jar");
        try {
            Files.copy(jar, copy, StandardCopyOption.REPLACE_EXISTING);
            readable(copy);
        } catch (IOException e) {
            throw new RegistryException.PluginLoadException("plugin " + pluginId + ": cannot copy it for the filter"
                    + " workers: " + e.getMessage(), e);
        }
        Plugin plugin = new Plugin(pluginId, version, copy.toString(), copy, Map.copyOf(properties));
        WorkerProcess worker = take(LOAD_TIMEOUT_MS, null);
        boolean healthy = false;
        try {
            List<Offered> offered = loadIn(worker, plugin);
            healthy = true;
            live.add(plugin.key);
            prestart();
            return new Loaded(plugin, offered);
        } catch (WorkerProcess.Ended e) {
            deleteQuietly(copy);
            throw new RegistryException.PluginLoadException("plugin " + pluginId + ": its code " + e.getMessage()
                    + " while loading; the worker was replaced", null);
        } catch (RegistryException e) {
            deleteQuietly(copy);
            throw e;
        } finally {
            give(worker, healthy);
        }
    }

    /** A version is gone (replaced, removed, FAILED, refused): workers unload it before their next call. */
    void retire(Plugin plugin) {
        live.remove(plugin.key);
        gone.remove(plugin.key);
        faults.remove(plugin.key);
        deleteQuietly(plugin.jar); // workers that loaded it keep their open handle
    }

    /**
     * A version is being retired: a call of it cancelled from now on is told so, and one that does not check its
     * cancellation finishes and its result stands, as in-process ({@link BoundedCalls}).
     */
    void gone(Plugin plugin) {
        if (live.contains(plugin.key)) {
            gone.add(plugin.key);
        }
    }

    private List<Offered> loadIn(WorkerProcess worker, Plugin plugin) throws WorkerProcess.Ended {
        String previous = worker.loaded().get(plugin.id);
        if (previous != null) {
            unloadIn(worker, plugin.id);
        }
        CompletableFuture<WorkerProcess.Answer<List<Offered>>> answer = worker.request(out -> {
            out.writeByte(Wire.LOAD);
            out.writeUTF(plugin.id);
            out.writeUTF(plugin.jar.toString());
            Wire.writeMap(out, plugin.properties);
        }, in -> {
            List<Offered> offered = new ArrayList<>();
            for (int n = in.readInt(); n > 0; n--) {
                offered.add(new Offered(Wire.readDescriptor(in), in.readBoolean()));
            }
            return offered;
        });
        WorkerProcess.Answer<List<Offered>> a = await(worker, answer, LOAD_TIMEOUT_MS, null);
        if (a == null) {
            worker.kill();
            throw new RegistryException.PluginLoadException("plugin " + plugin.id + ": did not finish loading within "
                    + LOAD_TIMEOUT_MS / 1000 + " s; its worker was killed", null);
        }
        if (!a.ok()) {
            throw new RegistryException.PluginLoadException(a.message(), null);
        }
        worker.loaded().put(plugin.id, plugin.key);
        return a.value();
    }

    private void unloadIn(WorkerProcess worker, String pluginId) throws WorkerProcess.Ended {
        worker.loaded().remove(pluginId);
        await(worker, worker.request(out -> {
            out.writeByte(Wire.UNLOAD);
            out.writeUTF(pluginId);
        }, in -> null), LOAD_TIMEOUT_MS, null);
    }

    /** Brings a worker to the live versions: unloads retired ones, loads {@code needed} if it lacks it. */
    private void sync(WorkerProcess worker, Plugin needed) throws WorkerProcess.Ended {
        for (Map.Entry<String, String> loaded : new ArrayList<>(worker.loaded().entrySet())) {
            if (!live.contains(loaded.getValue())) {
                unloadIn(worker, loaded.getKey());
            }
        }
        if (!needed.key.equals(worker.loaded().get(needed.id))) {
            loadIn(worker, needed);
        }
    }

    // ---------------------------------------------------------------- calls

    /**
     * Runs filter {@code filterId} of {@code plugin} in a worker: {@code in} puts the source into the segment, the
     * worker filters {@code region}, {@code out} takes the result's rows back. Honours the calling thread's
     * {@link Cancellation} token: a cancelled call is told to the worker, and a worker that has not stopped
     * {@link WorkerOptions#killAfter()} later is killed and its plugin quarantined.
     */
    void apply(Plugin plugin, String filterId, Shape shape, Region region, FilterParams params,
               Implementation implementation, Copy in, Copy out) {
        WorkerProcess worker = take(Long.MAX_VALUE, plugin);
        boolean healthy = false;
        try {
            sync(worker, plugin);
            Segment segment = worker.segment();
            segment.ensure(shape.bytes);
            in.copy(segment);
            CompletableFuture<WorkerProcess.Answer<Void>> answer = worker.request(o -> {
                o.writeByte(Wire.APPLY);
                o.writeUTF(filterId);
                o.writeByte(shape.format);
                o.writeInt(shape.width);
                o.writeInt(shape.height);
                o.writeInt(shape.bits);
                o.writeBoolean(shape.signed);
                Wire.writeRegion(o, region);
                Wire.writeMap(o, params.asText());
                o.writeUTF(implementation.id());
                o.writeUTF(segment.file().toString());
                o.writeLong(shape.bytes);
            }, i -> null);
            WorkerProcess.Answer<Void> a = await(worker, answer, Long.MAX_VALUE, plugin);
            if (a == null) { // cancelled and still running after killAfter
                String reason = Cancellation.current() == null ? "cancelled" : Cancellation.current().reason();
                worker.kill();
                throw fault(plugin, filterId, "ignored its cancellation (" + reason + ") and was still running "
                        + options.killAfter().toMillis() + " ms later; its worker was killed", true);
            }
            if (a.ok()) {
                out.copy(segment);
                healthy = a.threads() <= baseline(worker, a.threads()) + THREAD_LEAK;
                if (!healthy) {
                    LOG.log(Level.WARNING, "filter " + filterId + " left " + a.threads() + " threads in worker "
                            + worker.name() + "; replacing it");
                }
                return;
            }
            healthy = true;
            switch (a.error()) {
                case INVALID_PARAMETER -> throw new InvalidParameterException(a.message());
                case UNSUPPORTED_DATA -> throw new UnsupportedDataException(filterId, "this data", a.message());
                case ILLEGAL_ARGUMENT -> throw new IllegalArgumentException(a.message());
                case CANCELLED -> throw new FilterCancelledException(a.message());
                default -> {
                    healthy = false;
                    throw failure(plugin, filterId, a, worker);
                }
            }
        } catch (WorkerProcess.Ended e) {
            throw fault(plugin, filterId, e.getMessage(), false);
        } catch (IOException e) { // the host's side (a full /dev/shm): no fault of the plugin's
            throw new WorkerFault("filter " + filterId + ": no room in shared memory for a " + shape.width + "x"
                    + shape.height + " raster: " + e.getMessage(), false);
        } finally {
            give(worker, healthy);
        }
    }

    private RuntimeException failure(Plugin plugin, String filterId, WorkerProcess.Answer<?> a, WorkerProcess worker) {
        return switch (a.error()) {
            case OUT_OF_MEMORY -> fault(plugin, filterId, "ran out of the worker's heap of " + options.heapMiB()
                    + " MiB (" + a.message() + ")", false);
            case OUT_OF_THREADS -> fault(plugin, filterId, "hit the worker's cap of " + options.maxTasks()
                    + " threads (" + a.message() + ")", false);
            case PLUGIN_THREW -> new WorkerFault(filterId + " threw " + a.message(), true);
            default -> fault(plugin, filterId, "is not available in worker " + worker.name() + ": " + a.message(),
                    false);
        };
    }

    /**
     * Counts a fault of {@code plugin}; at the limit the registry quarantines it when the fault reaches it. A call
     * that ignored its cancellation never reaches it (its caller has moved on): quarantined from here, off this
     * thread, since a load may hold the registry's lock while it waits for a worker.
     */
    private WorkerFault fault(Plugin plugin, String filterId, String what, boolean ignoredCancellation) {
        int n = faults.computeIfAbsent(plugin.key, k -> new AtomicInteger()).incrementAndGet();
        String reason = "filter " + filterId + " (plugin " + plugin.id + " " + plugin.version + ") " + what;
        if (ignoredCancellation) {
            background.execute(() -> quarantine.quarantine(plugin.id, plugin.key, "quarantined: " + reason));
            return new WorkerFault(reason, false);
        }
        if (n >= options.faultsBeforeQuarantine()) {
            return new WorkerFault("quarantined: " + reason + " (fault " + n + ")", false, true);
        }
        return new WorkerFault(reason + "; the worker was replaced (fault " + n + " of "
                + options.faultsBeforeQuarantine() + " before quarantine)", false);
    }

    private final Map<WorkerProcess, Integer> baselines = new ConcurrentHashMap<>();

    /** The thread count a worker had after its first call: what it may come back to. */
    private int baseline(WorkerProcess worker, int now) {
        return baselines.computeIfAbsent(worker, w -> now);
    }

    /**
     * The answer, or null when {@code timeoutMs} passed or (for a call of {@code plugin}; null: not cancellable) the
     * call was cancelled and did not stop within {@link WorkerOptions#killAfter()}.
     */
    private <T> WorkerProcess.Answer<T> await(WorkerProcess worker, CompletableFuture<WorkerProcess.Answer<T>> answer,
                                              long timeoutMs, Plugin plugin) throws WorkerProcess.Ended {
        boolean cancellable = plugin != null;
        long start = System.nanoTime();
        long cancelledAt = 0;
        while (true) {
            try {
                return answer.get(10, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                long now = System.nanoTime();
                if (timeoutMs != Long.MAX_VALUE && now - start > TimeUnit.MILLISECONDS.toNanos(timeoutMs)) {
                    return null;
                }
                if (cancellable && Cancellation.isCancelled()) {
                    if (cancelledAt == 0) {
                        cancelledAt = now;
                        String reason = Cancellation.current().reason();
                        boolean versionGone = gone.contains(plugin.key);
                        worker.tell(out -> {
                            out.writeByte(Wire.CANCEL);
                            out.writeUTF(reason);
                            out.writeBoolean(versionGone);
                        });
                    } else if (now - cancelledAt > options.killAfter().toNanos()) {
                        return null;
                    }
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof WorkerProcess.Ended ended) {
                    throw ended;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                worker.kill();
                throw new WorkerProcess.Ended("was interrupted: its worker was killed");
            }
        }
    }

    // ---------------------------------------------------------------- the pool

    /**
     * A live worker for this caller alone: an idle one, a new one while the pool has room, or the next freed. A
     * call of {@code plugin} (null: a load) stops waiting when it is cancelled, except when only its version is
     * gone: in-process it would have run, so it does here.
     */
    private WorkerProcess take(long timeoutMs, Plugin plugin) {
        long deadline = timeoutMs == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + timeoutMs * 1_000_000;
        while (true) {
            if (closed) {
                throw new RegistryException.FilterUnavailableException("the filter workers are closed");
            }
            WorkerProcess worker = idle.pollFirst();
            if (worker != null) {
                if (worker.isAlive()) {
                    return worker;
                }
                discard(worker);
                continue;
            }
            if (capacity.tryAcquire()) {
                try {
                    return startWorker();
                } catch (IOException e) {
                    capacity.release();
                    throw new WorkerFault("no filter worker could start: " + e.getMessage(), false);
                }
            }
            if (plugin != null && !gone.contains(plugin.key)) {
                Cancellation.check();
            }
            if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
                throw new RegistryException.BusyException("every filter worker is busy", 1);
            }
            try {
                worker = idle.pollFirst(20, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FilterCancelledException("interrupted while waiting for a filter worker");
            }
            if (worker != null && worker.isAlive()) {
                return worker;
            }
            if (worker != null) {
                discard(worker);
            }
        }
    }

    /** Back to the pool, or, after a fault, replaced by a fresh one started in the background. */
    private void give(WorkerProcess worker, boolean healthy) {
        if (healthy && !closed && worker.isAlive()) {
            idle.addFirst(worker); // the most recently used is the warmest
            return;
        }
        discard(worker);
        replaced.incrementAndGet();
        prestart();
    }

    private void discard(WorkerProcess worker) {
        if (all.remove(worker)) {
            baselines.remove(worker);
            background.execute(worker::kill);
            capacity.release();
        }
    }

    /** Starts workers in the background up to the pool's size, so calls seldom wait for a JVM to start. */
    private void prestart() {
        background.execute(() -> {
            while (!closed && capacity.tryAcquire()) {
                try {
                    idle.addLast(startWorker());
                } catch (IOException e) {
                    capacity.release();
                    LOG.log(Level.WARNING, "a filter worker did not start: " + e.getMessage());
                    return;
                }
            }
        });
    }

    private WorkerProcess startWorker() throws IOException {
        WorkerProcess worker = WorkerProcess.start(sandbox, options, poolDir, "w" + started.incrementAndGet(), java,
                javaArgs, readOnly);
        all.add(worker);
        if (closed) {
            discard(worker);
            throw new IOException("the filter workers are closed");
        }
        return worker;
    }

    @Override
    public void close() {
        closed = true;
        for (WorkerProcess worker : new ArrayList<>(all)) {
            all.remove(worker);
            worker.close();
        }
        background.shutdown();
        try {
            background.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sandbox.close();
        try {
            deleteTree(poolDir);
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "leaving " + poolDir + ": " + e);
        }
    }

    // ---------------------------------------------------------------- files

    /** Pool directories of hosts that are gone (killed before they could tidy up): their segments hold memory. */
    private static void removeLeftovers(Path base) {
        try (var dirs = Files.list(base)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith(PREFIX)).toList()) {
                String[] parts = dir.getFileName().toString().substring(PREFIX.length()).split("-", 2);
                if (parts.length == 2 && parts[0].matches("\\d{1,10}")
                        && ProcessHandle.of(Long.parseLong(parts[0])).isEmpty()) {
                    deleteTree(dir);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "looking for leftover filter worker directories in " + base + ": " + e);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Copies the JAR or class directory {@code type} was loaded from to {@code prefix + its name}, readable. */
    private static Path copyCode(Class<?> type, Path prefix) throws IOException {
        Path source;
        try {
            source = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot find where " + type.getName() + " was loaded from: " + e, e);
        }
        Path target = prefix.resolveSibling(prefix.getFileName() + source.getFileName().toString());
        if (Files.isDirectory(source)) {
            Files.walkFileTree(source, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    readable(Files.createDirectories(target.resolve(source.relativize(dir).toString())));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    readable(Files.copy(file, target.resolve(source.relativize(file).toString())));
                    return FileVisitResult.CONTINUE;
                }
            });
        } else {
            readable(Files.copy(source, target));
        }
        return target;
    }

    private static Path readable(Path path) throws IOException {
        Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(Files.isDirectory(path)
                ? "rwxr-xr-x" : "rw-r--r--"));
        return path;
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // in the pool's directory, which goes at close
        }
    }
}
