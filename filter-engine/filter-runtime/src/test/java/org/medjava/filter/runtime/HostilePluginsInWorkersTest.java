package org.medjava.filter.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.isolation.Sandbox;
import org.medjava.filter.runtime.isolation.WorkerOptions;
import org.medjava.filter.testkit.HostilePlugins;
import org.medjava.filter.testkit.HostilePlugins.Attack;

/**
 * Each hostile plugin of the testkit against a registry whose plugins run in confined workers: the call fails with
 * a message naming the filter and what stopped it, the attack leaves no trace outside the worker, the worker is
 * replaced, and the host goes on filtering with its own threads as they were. Needs the confinement this machine
 * offers (bubblewrap with user namespaces, cgroups as root); skipped, saying so, where there is none.
 */
class HostilePluginsInWorkersTest {
    static final int SIZE = 64;

    @TempDir
    Path dir;
    FilterRegistry registry;
    int hostThreads;

    @BeforeAll
    static void confinementHere() {
        Sandbox sandbox = Sandbox.detect();
        assumeTrue(sandbox.confines(), "no confinement on this machine: " + sandbox.missing());
        sandbox.close();
    }

    @BeforeEach
    void setUp() throws Exception {
        registry = new FilterRegistry(dir.resolve("work"), WorkerOptions.defaults().withWorkers(1).withHeapMiB(96)
                .withMaxTasks(64));
        registry.load("fill", TestPlugins.fillJar(dir.resolve("fill.jar"), "fill", "fill", 7, ""), Map.of());
        assertFilters(); // the worker is up and warm before the host's threads are counted
        hostThreads = Thread.activeCount();
    }

    @AfterEach
    void tearDown() {
        registry.close();
    }

    @Test
    void exitInTheFilterEndsOnlyTheWorkerAndTheThirdQuarantines() throws Exception {
        load(Attack.EXIT, null);
        for (int call = 1; call <= 3; call++) {
            String message = failure(Attack.EXIT);
            assertTrue(message.contains("exit status 1"), message);
            assertFilters();
        }
        awaitFailed(Attack.EXIT);
        assertTrue(registry.isolation().replaced() >= 3, registry.isolation().toString());
        assertHostUnchanged();
    }

    @Test
    void exitWhileLoadingIsRefusedAndTheHostKeepsRunning() throws Exception {
        Path jar = HostilePlugins.build(dir.resolve("h.jar"), Attack.EXIT_AT_LOAD, null);
        var refused = assertThrows(RegistryException.PluginLoadException.class,
                () -> registry.load(HostilePlugins.id(Attack.EXIT_AT_LOAD), jar, Map.of()));
        assertTrue(refused.getMessage().contains("exit status 3"), refused.getMessage());
        assertFilters();
        assertHostUnchanged();
    }

    @Test
    void aFileOutsideTheWorkerCannotBeRead() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "the administrator's password");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));
        for (String target : new String[] {secret.toString(), "/etc/passwd"}) {
            load(Attack.READ_FILE, target);
            String message = failure(Attack.READ_FILE);
            assertTrue(message.contains("NoSuchFileException"), message);
            registry.remove(HostilePlugins.id(Attack.READ_FILE));
        }
        assertFilters();
    }

    @Test
    void noFileCanBeWritten() throws Exception {
        Path target = dir.resolve("written-by-a-plugin.txt");
        load(Attack.WRITE_FILE, target.toString());
        failure(Attack.WRITE_FILE);
        assertFalse(Files.exists(target));
        assertFilters();
    }

    @Test
    void noProgramCanBeRun() throws Exception {
        load(Attack.EXEC, null);
        String message = failure(Attack.EXEC);
        assertTrue(message.contains("Cannot run program"), message);
        assertFilters();
    }

    @Test
    void theNetworkIsOutOfReach() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(1000);
            load(Attack.CONNECT, "127.0.0.1:" + server.getLocalPort());
            String message = failure(Attack.CONNECT);
            assertTrue(message.contains("Connect"), message);
            assertThrows(SocketTimeoutException.class, server::accept, "the plugin reached the host's port");
        }
        assertFilters();
    }

    @Test
    void aThreadBombHitsTheWorkersTaskCap() throws Exception {
        load(Attack.THREAD_BOMB, null);
        String message = failure(Attack.THREAD_BOMB);
        assertTrue(message.contains("cap of 64 threads"), message);
        assertFilters();
        assertHostUnchanged();
    }

    @Test
    void aMemoryBombRunsOutOfTheWorkersHeapNotTheHosts() throws Exception {
        long hostHeap = usedHeap();
        load(Attack.MEMORY_BOMB, null);
        String message = failure(Attack.MEMORY_BOMB);
        assertTrue(message.contains("heap of 96 MiB") || message.contains("memory cap"), message);
        assertFilters();
        assertTrue(usedHeap() < hostHeap + (64 << 20), "the host's heap grew");
        assertHostUnchanged();
    }

    @Test
    void anEndlessLoopIsKilledAtItsDeadlineAndQuarantinedAtOnce() throws Exception {
        load(Attack.INFINITE_LOOP, null);
        var stopped = assertThrows(RegistryException.class, () -> registry.apply(HostilePlugins.id(Attack
                .INFINITE_LOOP), raster(), null, Map.of(), Implementation.OPTIMIZED,
                new CallControl(Duration.ofMillis(500))));
        assertTrue(stopped.getMessage().contains("did not finish within"), stopped.getMessage());
        awaitFailed(Attack.INFINITE_LOOP);
        assertTrue(registry.plugin(HostilePlugins.id(Attack.INFINITE_LOOP)).orElseThrow().failure()
                .contains("ignored its cancellation"));
        assertFilters();
        assertHostUnchanged();
    }

    @Test
    void noNativeLibraryCanBeLoaded() throws Exception {
        Path library = Path.of(System.getProperty("java.home"), "lib", "libzip.so");
        assumeTrue(Files.isRegularFile(library), "no " + library);
        load(Attack.NATIVE_LOAD, library.toString());
        failure(Attack.NATIVE_LOAD);
        assertFilters();
    }

    private void load(Attack attack, String target) throws Exception {
        registry.load(HostilePlugins.id(attack), HostilePlugins.build(dir.resolve(attack + ".jar"), attack, target),
                Map.of());
    }

    /** Calls the hostile filter on RGB data, which must fail; the message. */
    private String failure(Attack attack) {
        RegistryException e = assertThrows(RegistryException.class, () -> registry.apply(HostilePlugins.id(attack),
                raster(), null, Map.of(), Implementation.OPTIMIZED, new CallControl(Duration.ofSeconds(60))));
        assertTrue(e.getMessage().contains(HostilePlugins.id(attack)), e.getMessage());
        return e.getMessage();
    }

    /** The host still filters, RGB and grey, through a (new) worker. */
    private void assertFilters() {
        Raster out = registry.apply("fill", raster(), null, Map.of(), Implementation.OPTIMIZED);
        assertEquals(7, out.rgb()[0]);
        GrayRaster16 grey = new GrayRaster16(SIZE, SIZE, 12, false);
        assertThrows(org.medjava.filter.UnsupportedDataException.class,
                () -> registry.apply("fill", grey, null, Map.of(), Implementation.OPTIMIZED));
    }

    private void awaitFailed(Attack attack) throws InterruptedException {
        for (int i = 0; i < 100; i++) { // the workers quarantine off the caller's thread
            if (registry.plugin(HostilePlugins.id(attack)).orElseThrow().state() == PluginInfo.State.FAILED) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(HostilePlugins.id(attack) + " was not quarantined: "
                + registry.plugin(HostilePlugins.id(attack)));
    }

    private void assertHostUnchanged() {
        assertTrue(Thread.activeCount() <= hostThreads + 2, "host threads " + Thread.activeCount() + ", were "
                + hostThreads);
    }

    private static long usedHeap() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static Raster raster() {
        return new Raster(SIZE, SIZE);
    }
}
