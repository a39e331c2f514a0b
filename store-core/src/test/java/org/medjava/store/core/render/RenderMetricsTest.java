package org.medjava.store.core.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.medjava.store.core.testsupport.DerivingStore.request;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.runtime.CallControl;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.testsupport.DerivingStore;
import org.medjava.store.core.testsupport.RecordingMetrics;

/** A rendering reports its time by output format, and each filter in it its time by filter id and implementation. */
class RenderMetricsTest {

    @TempDir
    Path dir;
    private final RecordingMetrics metrics = new RecordingMetrics();
    private DerivingStore store;
    private RenderService renderer;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir, metrics);
        renderer = store.renderer();
    }

    @AfterEach
    void close() {
        store.close();
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
                "impl", "straightforward"), CallControl.unlimited());

        assertThat(metrics.events()).containsExactly("filtered fill straightforward",
                "filtered fill straightforward", "rendered png");
    }

    @Test
    void anUnfilteredRenderingRecordsOnlyItsFormat() throws Exception {
        Path png = png(dir.resolve("in.png"));

        renderer.render(png, false, request("render", "jpeg"), CallControl.unlimited());

        assertThat(metrics.events()).containsExactly("rendered jpeg");
    }

    @Test
    void aRefusedRenderingRecordsNoTime() {
        assertThatThrownBy(() -> renderer.render(dir.resolve("none.png"), false, request("render", "png",
                "filter", "no-such-filter"), CallControl.unlimited())).isInstanceOf(StoreException.class);

        assertThat(metrics.events()).isEmpty();
    }
}
