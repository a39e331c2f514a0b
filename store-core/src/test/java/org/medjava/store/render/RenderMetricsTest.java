package org.medjava.store.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.store.StoreException;
import org.medjava.store.testsupport.RecordingMetrics;
import org.medjava.store.testsupport.TestPlugins;

/** A rendering reports its time by output format, and each filter in it its time by filter id and implementation. */
class RenderMetricsTest {

    @TempDir
    Path dir;
    private FilterRegistry registry;
    private final RecordingMetrics metrics = new RecordingMetrics();
    private RenderService renderer;

    @BeforeEach
    void open() throws Exception {
        registry = new FilterRegistry(dir.resolve("registry"));
        registry.load("it-fill", TestPlugins.fill(dir.resolve("fill.jar"), 77), Map.of());
        renderer = new RenderService(registry, 1 << 24, metrics);
    }

    @AfterEach
    void close() {
        registry.close();
    }

    private static RenderRequest request(String... query) {
        Map<String, List<String>> q = new java.util.HashMap<>();
        for (int i = 0; i < query.length; i += 2) {
            q.computeIfAbsent(query[i], k -> new java.util.ArrayList<>()).add(query[i + 1]);
        }
        return RenderRequest.parse(q);
    }

    private static Path png(Path file) throws java.io.IOException {
        java.awt.image.BufferedImage image = new java.awt.image.BufferedImage(16, 16,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        image.setRGB(3, 4, 0x336699);
        javax.imageio.ImageIO.write(image, "png", file.toFile());
        return file;
    }

    @Test
    void aFilteredRenderingRecordsEachFilterAndTheWhole() throws Exception {
        Path png = png(dir.resolve("in.png"));

        renderer.render(png, false, request("render", "png", "filter", "fill", "filter", "fill",
                "impl", "straightforward"));

        assertThat(metrics.events()).containsExactly("filtered fill straightforward",
                "filtered fill straightforward", "rendered png");
    }

    @Test
    void anUnfilteredRenderingRecordsOnlyItsFormat() throws Exception {
        Path png = png(dir.resolve("in.png"));

        renderer.render(png, false, request("render", "jpeg"));

        assertThat(metrics.events()).containsExactly("rendered jpeg");
    }

    @Test
    void aRefusedRenderingRecordsNoTime() {
        assertThatThrownBy(() -> renderer.render(dir.resolve("none.png"), false, request("render", "png",
                "filter", "no-such-filter"))).isInstanceOf(StoreException.class);

        assertThat(metrics.events()).isEmpty();
    }
}
