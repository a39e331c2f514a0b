package org.medjava.filter.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.RunawayPlugins;

/** Deadlines, cancellation, the bounded pool and quarantine, with filters that never return on their own. */
class FilterCallLimitsTest {
    /** The registry under test: plugins in this process; a subclass runs the same tests in filter workers. */
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir);
    }

    @TempDir
    Path dir;
    FilterRegistry registry;
    final List<RegistryEvent> events = new CopyOnWriteArrayList<>();
    final ExecutorService callers = Executors.newCachedThreadPool();

    @BeforeEach
    void setUp() throws Exception {
        System.clearProperty(RunawayPlugins.RELEASE); // another class of this JVM may have released its runaways
        registry = newRegistry(dir.resolve("work"));
        registry.addListener(events::add);
        registry.setLimits(new CallLimits(2, Duration.ofSeconds(30), Duration.ofMillis(300)));
        registry.load("hostile", RunawayPlugins.hostile(dir.resolve("hostile.jar"), "hostile", "hang"), Map.of());
        registry.load("polite", RunawayPlugins.honouring(dir.resolve("polite.jar"), "polite", "wait"), Map.of());
        registry.load("fill", TestPlugins.fillJar(dir.resolve("fill.jar"), "fill", "fill", 7, ""), Map.of());
    }

    @AfterEach
    void tearDown() {
        callers.shutdownNow();
        registry.close();
    }

    @AfterAll
    static void releaseAbandonedThreads() {
        System.setProperty(RunawayPlugins.RELEASE, "true");
    }

    private Raster apply(String filterId, CallControl control) {
        return registry.apply(filterId, new Raster(8, 8), null, Map.of(), Implementation.OPTIMIZED, control);
    }

    @Test
    void aFilterThatHonoursTheCheckStopsAtItsDeadlineAndStaysActive() {
        assertThatThrownBy(() -> apply("wait", new CallControl(Duration.ofMillis(200))))
                .isInstanceOf(RegistryException.DeadlineExceededException.class)
                .hasMessageContaining("wait did not finish within the 0.2 s asked");

        assertThat(registry.plugin("polite").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
        assertThat(registry.deadlineHits()).isEqualTo(1);
        assertThat(registry.abandonedCalls()).isZero();
        assertThat(events).noneMatch(e -> e instanceof RegistryEvent.PluginQuarantined);
    }

    @Test
    void aFilterThatSwallowsTheCancellationAndReturnsGetsNoResultOut() throws Exception {
        String swallow = "try { while (true) { Cancellation.check(); try { Thread.sleep(5); }"
                + " catch (InterruptedException ie) { } } } catch (FilterCancelledException swallowed) { }";
        registry.load("sloppy", TestPlugins.fillJar(dir.resolve("sloppy.jar"), "sloppy", "half", 3, swallow),
                Map.of());

        assertThatThrownBy(() -> apply("half", new CallControl(Duration.ofMillis(200))))
                .isInstanceOf(RegistryException.DeadlineExceededException.class);
        assertThat(registry.plugin("sloppy").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
    }

    @Test
    void theRegistryDeadlineCapsWhatACallerAsks() {
        registry.setLimits(new CallLimits(2, Duration.ofMillis(200), Duration.ofMillis(300)));

        assertThatThrownBy(() -> registry.apply("wait", new GrayRaster16(4, 4, 12, false), null, Map.of(),
                Implementation.PARALLEL, new CallControl(Duration.ofHours(1))))
                .isInstanceOf(RegistryException.DeadlineExceededException.class)
                .hasMessageContaining("the deadline of 0.2 s");
    }

    @Test
    void aFilterThatIgnoresCancellationIsQuarantinedAndNoLongerHoldsItsSlot() {
        assertThatThrownBy(() -> apply("hang", new CallControl(Duration.ofMillis(200))))
                .isInstanceOf(RegistryException.DeadlineExceededException.class);

        PluginInfo hostile = registry.plugin("hostile").orElseThrow();
        assertThat(hostile.state()).isEqualTo(PluginInfo.State.FAILED);
        assertThat(hostile.failure()).contains("quarantined", "hang", "ignored its cancellation");
        assertThat(registry.filter("hang").orElseThrow().state()).isEqualTo(FilterInfo.State.FAILED);
        assertThat(events).filteredOn(e -> e instanceof RegistryEvent.PluginQuarantined).singleElement()
                .satisfies(e -> assertThat(((RegistryEvent.PluginQuarantined) e).pluginId()).isEqualTo("hostile"));
        assertThat(registry.abandonedCalls()).isEqualTo(1);
        assertThatThrownBy(() -> apply("hang", CallControl.unlimited()))
                .isInstanceOf(RegistryException.FilterUnavailableException.class).hasMessageContaining("FAILED");
        // both slots are free again: two calls at once still run
        assertThat(apply("fill", CallControl.unlimited()).rgbAt(0, 0) & 0xFF).isEqualTo(7);
        Future<?> one = callers.submit(() -> apply("wait", new CallControl(Duration.ofMillis(300))));
        assertThatThrownBy(() -> apply("wait", new CallControl(Duration.ofMillis(300))))
                .isInstanceOf(RegistryException.DeadlineExceededException.class);
        assertThatThrownBy(() -> one.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(
                RegistryException.DeadlineExceededException.class);
    }

    @Test
    void aFullPoolRefusesAtOnceWithRetryAfter() throws Exception {
        CallControl first = CallControl.unlimited();
        CallControl second = CallControl.unlimited();
        Future<?> a = callers.submit(() -> apply("wait", first));
        Future<?> b = callers.submit(() -> apply("wait", second));
        awaitSlotsTaken(2);

        assertThatThrownBy(() -> apply("fill", CallControl.unlimited()))
                .isInstanceOf(RegistryException.BusyException.class)
                .satisfies(e -> assertThat(((RegistryException.BusyException) e).retryAfterSeconds()).isPositive())
                .hasMessageContaining("all 2 filter slots are busy");

        first.cancel("the client went away");
        assertThatThrownBy(() -> a.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RegistryException.CallCancelledException.class)
                .cause().hasMessageContaining("the client went away");
        assertThat(apply("fill", CallControl.unlimited()).rgbAt(0, 0) & 0xFF).isEqualTo(7);
        second.cancel(null);
        assertThatThrownBy(() -> b.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RegistryException.CallCancelledException.class);
        assertThat(registry.plugin("polite").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
    }

    @Test
    void aCallQueuesForASlotUpToTheQueueWait() throws Exception {
        registry.setLimits(new CallLimits(1, Duration.ofSeconds(30), Duration.ofMillis(300), Duration.ofSeconds(20)));
        CallControl first = CallControl.unlimited();
        Future<?> a = callers.submit(() -> apply("wait", first));
        awaitSlotsTaken(1);
        Future<Raster> queued = callers.submit(() -> apply("fill", CallControl.unlimited()));
        Thread.sleep(100);
        assertThat(queued).isNotDone();

        first.cancel("done waiting");

        assertThat(queued.get(10, TimeUnit.SECONDS).rgbAt(0, 0) & 0xFF).isEqualTo(7);
        assertThatThrownBy(() -> a.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RegistryException.CallCancelledException.class);
    }

    @Test
    void aCallerMayWaitLongerForASlotThanTheRegistryQueues() throws Exception {
        registry.setLimits(new CallLimits(1, Duration.ofSeconds(30), Duration.ofMillis(300))); // no queue
        CallControl first = CallControl.unlimited();
        Future<?> a = callers.submit(() -> apply("wait", first));
        awaitSlotsTaken(1);
        assertThatThrownBy(() -> apply("fill", CallControl.unlimited()))
                .isInstanceOf(RegistryException.BusyException.class);
        Future<Raster> patient = callers.submit(() -> apply("fill", new CallControl(null, Duration.ofSeconds(20))));
        Thread.sleep(100);
        assertThat(patient).isNotDone();

        first.cancel("done waiting");

        assertThat(patient.get(10, TimeUnit.SECONDS).rgbAt(0, 0) & 0xFF).isEqualTo(7);
        assertThatThrownBy(() -> a.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RegistryException.CallCancelledException.class);
    }

    @Test
    void removingAPluginCancelsItsCallsInFlight() throws Exception {
        Future<?> call = callers.submit(() -> apply("wait", CallControl.unlimited()));
        awaitSlotsTaken(1);

        registry.remove("polite");

        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RegistryException.CallCancelledException.class)
                .cause().hasMessageContaining("plugin polite was removed");
        assertThat(registry.abandonedCalls()).isZero();
    }

    @Test
    void replacingAPluginCancelsTheOldVersionsCallsAndTheNewOneServes() throws Exception {
        registry.load("slow", RunawayPlugins.honouring(dir.resolve("slow1.jar"), "slow", "fill-slow"), Map.of());
        Future<?> old = callers.submit(() -> apply("fill-slow", CallControl.unlimited()));
        awaitSlotsTaken(1);

        registry.load("slow", TestPlugins.fillJar(dir.resolve("slow2.jar"), "slow", "fill-slow", 9, ""), Map.of());

        assertThatThrownBy(() -> old.get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(RegistryException.CallCancelledException.class)
                .cause().hasMessageContaining("was replaced by version 9");
        assertThat(apply("fill-slow", CallControl.unlimited()).rgbAt(0, 0) & 0xFF).isEqualTo(9);
    }

    @Test
    void aCancelledControlRefusesItsNextCallBeforeRunningIt() {
        CallControl control = CallControl.unlimited();
        control.cancel("job cancelled");

        assertThatThrownBy(() -> apply("fill", control))
                .isInstanceOf(RegistryException.CallCancelledException.class).hasMessageContaining("job cancelled");
    }

    private void awaitSlotsTaken(int taken) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (registry.limits().maxConcurrent() - registry.availableSlots() < taken) {
            assertThat(System.nanoTime() - until).as("calls started").isNegative();
            Thread.sleep(5);
        }
    }
}
