package org.medjava.viewer.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.medjava.filter.Implementation;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.filter.runtime.RegistryException;
import org.medjava.filter.runtime.isolation.WorkerOptions;
import org.medjava.filter.testkit.HostilePlugins;
import org.medjava.filter.testkit.HostilePlugins.Attack;
import org.medjava.filter.testkit.PluginJarBuilder;
import org.medjava.viewer.filters.FilterCatalog;

/**
 * The preview's cancellation when plugins run in filter workers (the viewer's default on Linux): newer values cancel
 * a run in its worker, which stops at its next check and stays; a run that ignores the cancellation is killed a
 * second later and its plugin quarantined, and previews go on.
 */
class FilterPreviewInWorkersTest extends SpeckledCtFixture {
    private FilterCatalog workers;

    @BeforeEach
    void startWorkers() throws Exception {
        workers = new FilterCatalog(new FilterRegistry(dir.resolve("in-workers"), WorkerOptions.defaults().withWorkers(2)
                .withHeapMiB(128)), dir.resolve("worker-downloads"));
        assumeTrue(workers.isolation().inWorkers());
        assertThat(workers.loadBundled(Path.of(System.getProperty("medjava.plugins", "target/viewer/plugins"))))
                .isEmpty();
    }

    @AfterEach
    void stopWorkers() {
        workers.close();
    }

    @Test
    void aPreviewInAWorkerIsTheSameAsInProcess() throws Exception {
        OpenedImage ct = speckledCt();
        var state = new ImageDocument(ct, 1 << 30).state();
        FilterPreview here = FilterPreview.prepare(filters.registry(), "despeckle", "DeSpeckle", ct, state, BONE, null);
        FilterPreview there = FilterPreview.prepare(workers.registry(), "despeckle", "DeSpeckle", ct, state, BONE,
                null);
        assertThat(there.storedValues()).isTrue();
        assertThat(greys(there.run(Map.of("n", "5"), Implementation.OPTIMIZED, CallControl.unlimited())))
                .isEqualTo(greys(here.run(Map.of("n", "5"), Implementation.OPTIMIZED, CallControl.unlimited())));
    }

    @Test
    void newerValuesCancelARunInItsWorkerWhichStays() throws Exception {
        String source = """
                package test.slow;
                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("slow").version("1")
                                    .param(ParamSpec.oddInteger("n", 3, 1, 9, "ignored")).build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster s, Raster t, Region r, FilterParams p, Implementation i) {
                                while (true) { Cancellation.check(); Thread.onSpinWait(); }
                            }
                        });
                    }
                }
                """;
        workers.registry().load("slow", PluginJarBuilder.plugin("slow").version("1").source("test.slow.Provider",
                source).provider("test.slow.Provider").build(dir.resolve("slow.jar")), Map.of());
        OpenedImage ct = speckledCt();
        FilterPreview preview = FilterPreview.prepare(workers.registry(), "slow", "Slow", ct,
                new ImageDocument(ct, 1 << 30).state(), SOFT_TISSUE, null);
        int started = workers.isolation().report().started();

        CallControl control = CallControl.unlimited();
        CompletableFuture<BufferedImage> run = CompletableFuture.supplyAsync(() -> preview.run(Map.of(),
                Implementation.OPTIMIZED, control));
        Thread.sleep(300);
        long cancelled = System.nanoTime();
        control.cancel("newer preview parameters");
        assertThatThrownBy(() -> run.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(
                RegistryException.CallCancelledException.class);
        assertThat((System.nanoTime() - cancelled) / 1_000_000).as("ms to stop").isLessThan(900);
        assertThat(workers.isolation().report().replaced()).as("the worker stopped the call and stays").isZero();
        assertThat(workers.isolation().report().started()).isEqualTo(started);
        assertThat(workers.registry().plugin("slow").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
    }

    @Test
    void aRunawayPreviewIsKilledASecondAfterItsCancellationAndPreviewsGoOn() throws Exception {
        String id = HostilePlugins.id(Attack.INFINITE_LOOP);
        workers.registry().load(id, HostilePlugins.build(dir.resolve("loop.jar"), Attack.INFINITE_LOOP, null),
                Map.of());
        OpenedImage ct = speckledCt();
        var state = new ImageDocument(ct, 1 << 30).state();
        FilterPreview runaway = FilterPreview.prepare(workers.registry(), id, id, ct, state, SOFT_TISSUE, null);

        CallControl control = CallControl.unlimited();
        CompletableFuture<BufferedImage> run = CompletableFuture.supplyAsync(() -> runaway.run(Map.of(),
                Implementation.OPTIMIZED, control));
        Thread.sleep(300);
        long cancelled = System.nanoTime();
        control.cancel("preview closed");
        assertThatThrownBy(() -> run.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(RegistryException.class);
        long millis = (System.nanoTime() - cancelled) / 1_000_000;
        assertThat(millis).as("ms until the worker was killed").isBetween(900L, 5000L);
        for (int i = 0; i < 100 && workers.registry().plugin(id).orElseThrow().state() != PluginInfo.State.FAILED;
             i++) {
            Thread.sleep(50); // the workers quarantine off the caller's thread
        }
        assertThat(workers.registry().plugin(id).orElseThrow().failure()).contains("ignored its cancellation",
                "worker was killed");

        FilterPreview blur = FilterPreview.prepare(workers.registry(), "blur", "Blur", ct, state, SOFT_TISSUE, null);
        assertThat(blur.run(Map.of(), Implementation.OPTIMIZED, CallControl.unlimited())).isNotNull();
    }

    private static int[] greys(BufferedImage image) {
        return image.getRaster().getPixels(0, 0, image.getWidth(), image.getHeight(), (int[]) null);
    }
}
