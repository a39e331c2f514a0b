package org.medjava.filter.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;

class FilterRegistryTest {
    /** The registry under test: plugins in this process; a subclass runs the same tests in filter workers. */
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir);
    }

    /** Whether plugin code may write files (its fini's marker): not in a confined worker. */
    boolean pluginsWriteFiles() {
        return true;
    }

    @TempDir
    Path dir;
    FilterRegistry registry;
    final List<RegistryEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        registry = newRegistry(dir.resolve("work"));
        registry.addListener(events::add);
    }

    @AfterEach
    void tearDown() {
        registry.close();
    }

    static Raster image() {
        return new Raster(4, 3);
    }

    static int valueAt(Raster r, int x, int y) {
        return r.rgbAt(x, y) & 0xFF;
    }

    @Test
    void loadsAPluginAndAppliesItsFilterInsideTheRegionOnly() throws Exception {
        TestPlugins.fillJar(dir.resolve("fill.jar"), "fill", "fill", 7, "");
        PluginInfo info = registry.load("fill", dir.resolve("fill.jar"), Map.of());

        Raster out = registry.apply("fill", image(), Region.of(1, 1, 2, 5), Map.of(), Implementation.OPTIMIZED);

        assertThat(info.state()).isEqualTo(PluginInfo.State.ACTIVE);
        assertThat(info.filterIds()).containsExactly("fill");
        assertThat(info.sha256()).hasSize(64);
        assertThat(valueAt(out, 1, 1)).isEqualTo(7);
        assertThat(valueAt(out, 2, 2)).isEqualTo(7);
        assertThat(valueAt(out, 0, 0)).isZero();
        assertThat(valueAt(out, 3, 2)).isZero();
        assertThat(events).singleElement().isInstanceOf(RegistryEvent.PluginLoaded.class);
    }

    @Test
    void unknownFilterErrorListsTheAvailableOnes() throws Exception {
        TestPlugins.fillJar(dir.resolve("a.jar"), "a", "alpha", 1, "");
        registry.load("a", dir.resolve("a.jar"), Map.of());

        assertThatThrownBy(() -> registry.apply("blurr", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(RegistryException.UnknownIdException.class)
                .hasMessageContaining("unknown filter \"blurr\"").hasMessageContaining("available: alpha");
    }

    @Test
    void invalidParameterQuotesTheRule() throws Exception {
        TestPlugins.fillJar(dir.resolve("a.jar"), "a", "alpha", 1, "");
        registry.load("a", dir.resolve("a.jar"), Map.of());

        assertThatThrownBy(() -> registry.apply("alpha", image(), null, Map.of("n", "4"), Implementation.OPTIMIZED))
                .isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("n must be an odd integer from 1 to 9");
        assertThatThrownBy(() -> registry.apply("alpha", image(), null, Map.of("q", "1"), Implementation.OPTIMIZED))
                .isInstanceOf(InvalidParameterException.class).hasMessageContaining("unknown parameter q");
        assertThat(registry.plugin("a").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
    }

    @Test
    void suspendedFilterRefusesCallsUntilResumed() throws Exception {
        TestPlugins.fillJar(dir.resolve("a.jar"), "a", "alpha", 1, "");
        registry.load("a", dir.resolve("a.jar"), Map.of());

        registry.suspend("alpha");
        assertThat(registry.filter("alpha").orElseThrow().state()).isEqualTo(FilterInfo.State.SUSPENDED);
        assertThatThrownBy(() -> registry.apply("alpha", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(RegistryException.FilterUnavailableException.class).hasMessageContaining("suspended");

        registry.resume("alpha");
        assertThat(valueAt(registry.apply("alpha", image(), null, Map.of(), Implementation.OPTIMIZED), 0, 0))
                .isEqualTo(1);
        assertThat(events).hasAtLeastOneElementOfType(RegistryEvent.FilterSuspended.class)
                .hasAtLeastOneElementOfType(RegistryEvent.FilterResumed.class);
        assertThatThrownBy(() -> registry.suspend("nope")).isInstanceOf(RegistryException.UnknownIdException.class);
    }

    @Test
    void hotReplacementUnderConcurrentCallsFinishesOldCallsThenFinalizesTheOldVersion() throws Exception {
        Path jar = dir.resolve("slow.jar");
        Path marker1 = dir.resolve("v1.marker");
        Path marker2 = dir.resolve("v2.marker");
        // each call takes a few milliseconds, so replacements always land while calls are in flight
        String slow = "try { Thread.sleep(3); } catch (InterruptedException e) { throw new RuntimeException(e); }";
        TestPlugins.fillJar(jar, "slow", "slow", 1, slow);
        registry.load("slow", jar, Map.of("marker", marker1.toString()));

        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Integer> seen = new ConcurrentLinkedQueue<>();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            futures.add(callers.submit(() -> {
                while (!stop.get()) {
                    try {
                        Raster out = registry.apply("slow", image(), null, Map.of(), Implementation.OPTIMIZED);
                        int v = valueAt(out, 0, 0);
                        for (int y = 0; y < out.height(); y++) {
                            for (int x = 0; x < out.width(); x++) {
                                if (valueAt(out, x, y) != v) {
                                    failures.add(new AssertionError("mixed versions in one result"));
                                }
                            }
                        }
                        seen.add(v);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
            }));
        }
        awaitCalls(seen, 20);
        TestPlugins.fillJar(jar, "slow", "slow", 2, slow);
        registry.load("slow", jar, Map.of("marker", marker2.toString()));
        int afterFirstSwap = seen.size();
        awaitCalls(seen, afterFirstSwap + 20);
        TestPlugins.fillJar(jar, "slow", "slow", 3, slow);
        registry.load("slow", jar, Map.of());
        int afterSecondSwap = seen.size();
        awaitCalls(seen, afterSecondSwap + 20);
        stop.set(true);
        for (Future<?> f : futures) {
            f.get(30, TimeUnit.SECONDS);
        }
        callers.shutdown();

        assertThat(failures).as(failures.isEmpty() ? "" : failures.peek().toString()).isEmpty();
        assertThat(seen).contains(1, 2, 3).allMatch(v -> v >= 1 && v <= 3);
        assertThat(valueAt(registry.apply("slow", image(), null, Map.of(), Implementation.OPTIMIZED), 0, 0))
                .isEqualTo(3);
        if (pluginsWriteFiles()) { // each old version finalized once, when none of its calls was still running
            assertThat(Files.readAllLines(marker1)).containsExactly("fini inflight=0");
            assertThat(Files.readAllLines(marker2)).containsExactly("fini inflight=0");
        }
        assertThat(events.stream().filter(e -> e instanceof RegistryEvent.PluginReplaced)).hasSize(2);
    }

    private static void awaitCalls(ConcurrentLinkedQueue<Integer> seen, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seen.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(seen.size()).as("calls completed").isGreaterThanOrEqualTo(count);
    }

    @Test
    void failingNewVersionLeavesTheOldOneActive() throws Exception {
        Path jar = dir.resolve("p.jar");
        TestPlugins.fillJar(jar, "p", "pf", 1, "");
        registry.load("p", jar, Map.of());
        TestPlugins.fillJar(dir.resolve("p2.jar"), "p", "pf", 2, "", "throw new IllegalStateException(\"no licence\");");

        assertThatThrownBy(() -> registry.load("p", dir.resolve("p2.jar"), Map.of()))
                .isInstanceOf(RegistryException.PluginLoadException.class).hasMessageContaining("no licence");

        PluginInfo info = registry.plugin("p").orElseThrow();
        assertThat(info.state()).isEqualTo(PluginInfo.State.ACTIVE);
        assertThat(info.version()).isEqualTo("1");
        assertThat(info.failure()).contains("no licence").contains("version 1 stays active");
        assertThat(valueAt(registry.apply("pf", image(), null, Map.of(), Implementation.OPTIMIZED), 0, 0)).isEqualTo(1);
        assertThat(events).anyMatch(e -> e instanceof RegistryEvent.PluginFailed f && f.stillActive());
    }

    @Test
    void aFilterThatThrowsMarksItsPluginFailedWithoutAffectingOthersOrLeakingErrors() throws Exception {
        TestPlugins.fillJar(dir.resolve("bad.jar"), "bad", "bad", 1, "if (true) throw new StackOverflowError(\"deep\");");
        TestPlugins.fillJar(dir.resolve("good.jar"), "good", "good", 5, "");
        registry.load("bad", dir.resolve("bad.jar"), Map.of());
        registry.load("good", dir.resolve("good.jar"), Map.of());

        assertThatThrownBy(() -> registry.apply("bad", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(RegistryException.FilterFailedException.class)
                .hasMessageContaining("StackOverflowError").hasMessageContaining("FAILED");
        assertThat(registry.plugin("bad").orElseThrow().state()).isEqualTo(PluginInfo.State.FAILED);
        assertThat(registry.filter("bad").orElseThrow().state()).isEqualTo(FilterInfo.State.FAILED);
        assertThatThrownBy(() -> registry.apply("bad", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(RegistryException.FilterUnavailableException.class).hasMessageContaining("deep");
        assertThat(valueAt(registry.apply("good", image(), null, Map.of(), Implementation.OPTIMIZED), 0, 0))
                .isEqualTo(5);

        // loading it again (a fixed version) brings it back
        TestPlugins.fillJar(dir.resolve("bad2.jar"), "bad", "bad", 2, "");
        registry.load("bad", dir.resolve("bad2.jar"), Map.of());
        assertThat(valueAt(registry.apply("bad", image(), null, Map.of(), Implementation.OPTIMIZED), 0, 0)).isEqualTo(2);
    }

    @Test
    void removedPluginsClassLoaderIsGarbageCollected() throws Exception {
        TestPlugins.fillJar(dir.resolve("gc.jar"), "gc", "gc", 9, "");
        registry.setTiming(true);
        registry.load("gc", dir.resolve("gc.jar"), Map.of());
        registry.apply("gc", image(), null, Map.of(), Implementation.PARALLEL);
        WeakReference<ClassLoader> loader = registry.classLoaderOf("gc");
        assertThat(loader.get()).isNotNull();
        events.clear(); // the test's own references to event data must not matter either way

        registry.remove("gc");

        assertThat(collected(loader)).as("plugin class loader collected after remove").isTrue();
        assertThat(registry.plugins()).isEmpty();
        assertThat(Files.list(dir.resolve("work"))).as("private JAR copies deleted").isEmpty();
    }

    @Test
    void replacedVersionsClassLoaderIsGarbageCollected() throws Exception {
        Path jar = dir.resolve("r.jar");
        TestPlugins.fillJar(jar, "r", "r", 1, "");
        registry.load("r", jar, Map.of());
        registry.apply("r", image(), null, Map.of(), Implementation.OPTIMIZED);
        WeakReference<ClassLoader> first = registry.classLoaderOf("r");

        TestPlugins.fillJar(jar, "r", "r", 2, "");
        registry.load("r", jar, Map.of());
        events.clear();

        assertThat(collected(first)).isTrue();
        assertThat(registry.classLoaderOf("r").get()).isNotNull();
    }

    static boolean collected(WeakReference<?> ref) throws InterruptedException {
        for (int i = 0; i < 100 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ref.get() == null;
    }

    @Test
    void theSourceJarMayBeDeletedAfterLoading() throws Exception {
        Path jar = TestPlugins.fillJar(dir.resolve("x.jar"), "x", "x", 3, "");
        registry.load("x", jar, Map.of());
        Files.delete(jar);

        assertThat(valueAt(registry.apply("x", image(), null, Map.of(), Implementation.OPTIMIZED), 0, 0)).isEqualTo(3);
    }

    @Test
    void benchmarkModeReportsATimingRecordPerCall() throws Exception {
        TestPlugins.fillJar(dir.resolve("t.jar"), "t", "t", 1, "");
        registry.load("t", dir.resolve("t.jar"), Map.of());
        registry.apply("t", image(), null, Map.of(), Implementation.OPTIMIZED);
        assertThat(events).noneMatch(e -> e instanceof RegistryEvent.FilterApplied);

        registry.setTiming(true);
        registry.apply("t", image(), Region.of(1, 0, 9, 9), Map.of("n", "5"), Implementation.STRAIGHTFORWARD);

        ApplyRecord record = events.stream().filter(e -> e instanceof RegistryEvent.FilterApplied)
                .map(e -> ((RegistryEvent.FilterApplied) e).record()).findFirst().orElseThrow();
        assertThat(record.filterId()).isEqualTo("t");
        assertThat(record.pluginVersion()).isEqualTo("1");
        assertThat(record.params()).isEqualTo("n=5");
        assertThat(record.implementation()).isEqualTo(Implementation.STRAIGHTFORWARD);
        assertThat(record.region()).isEqualTo(Region.of(1, 0, 3, 3));
        assertThat(record.width()).isEqualTo(4);
        assertThat(record.nanos()).isPositive();
    }

    @Test
    void aListenerThatThrowsDoesNotBreakTheRegistry() throws Exception {
        registry.addListener(e -> {
            throw new IllegalStateException("listener bug");
        });
        TestPlugins.fillJar(dir.resolve("l.jar"), "l", "l", 1, "");

        registry.load("l", dir.resolve("l.jar"), Map.of());

        assertThat(registry.plugin("l").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
    }
}
