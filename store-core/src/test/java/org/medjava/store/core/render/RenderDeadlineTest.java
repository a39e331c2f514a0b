package org.medjava.store.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.medjava.store.core.testsupport.DerivingStore.request;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.CallLimits;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.filter.testkit.RunawayPlugins;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.testsupport.DerivingStore;
import org.medjava.store.core.testsupport.RecordingMetrics;

/** Renderings run their filters under the deadline of the scope bound to the thread: 503s and 409 as documented. */
class RenderDeadlineTest {
    @TempDir
    Path dir;
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final ExecutorService callers = Executors.newCachedThreadPool();
    private DerivingStore store;
    private Path png;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir, metrics);
        store.registry().setLimits(new CallLimits(1, Duration.ofSeconds(20), Duration.ofMillis(300)));
        store.registry().load("polite", RunawayPlugins.honouring(dir.resolve("polite.jar"), "polite", "wait"),
                Map.of());
        store.registry().load("hostile", RunawayPlugins.hostile(dir.resolve("hostile.jar"), "hostile", "hang"),
                Map.of());
        png = dir.resolve("in.png");
        javax.imageio.ImageIO.write(new java.awt.image.BufferedImage(8, 8, java.awt.image.BufferedImage.TYPE_INT_RGB),
                "png", png.toFile());
    }

    @AfterEach
    void close() {
        callers.shutdownNow();
        store.close();
    }

    @AfterAll
    static void releaseAbandonedThreads() {
        System.setProperty(RunawayPlugins.RELEASE, "true");
    }

    private byte[] render(String filter, CallControl control) throws Exception {
        return store.renderer().render(png, false, request("render", "png", "filter", filter), control);
    }

    @Test
    void aDeadlineHitIs503WithTheReasonAndNoRetryAfter() {
        assertThatThrownBy(() -> render("wait", new CallControl(Duration.ofMillis(200))))
                .isInstanceOf(FilterTimeException.class)
                .hasMessageContaining("filtering stopped: wait did not finish within the 0.2 s asked")
                .satisfies(e -> {
                    assertThat(((StoreException) e).kind()).isEqualTo(StoreException.Kind.UNAVAILABLE);
                    assertThat(((FilterTimeException) e).retryAfterSeconds()).isNull();
                });
        assertThat(metrics.events()).contains("refused wait deadline");
    }

    @Test
    void aHostileFilterIsQuarantinedAndTheNextRenderingServes() throws Exception {
        assertThatThrownBy(() -> render("hang", new CallControl(Duration.ofMillis(200))))
                .isInstanceOf(FilterTimeException.class);

        assertThat(store.registry().plugin("hostile").orElseThrow().state()).isEqualTo(PluginInfo.State.FAILED);
        assertThatThrownBy(() -> render("hang", CallControl.unlimited())).isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreException.Kind.CONFLICT));
        assertThat(render("fill", CallControl.unlimited())).isNotEmpty(); // the one slot is free again
    }

    @Test
    void aFullPoolIs503WithRetryAfterAndACancelledCallIs409() throws Exception {
        CallControl first = CallControl.unlimited();
        Future<byte[]> running = callers.submit(() -> render("wait", first));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (store.registry().availableSlots() > 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }

        assertThatThrownBy(() -> render("fill", CallControl.unlimited())).isInstanceOf(FilterTimeException.class)
                .hasMessageContaining("every filter slot is busy")
                .satisfies(e -> assertThat(((FilterTimeException) e).retryAfterSeconds()).isPositive());

        first.cancel("the client closed the connection");
        assertThatThrownBy(() -> running.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(StoreException.class)
                .hasMessageContaining("the client closed the connection")
                .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreException.Kind.CONFLICT));
        assertThat(metrics.events()).contains("refused fill busy");
    }
}
