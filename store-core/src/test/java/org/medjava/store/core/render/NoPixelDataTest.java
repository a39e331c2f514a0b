package org.medjava.store.core.render;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.medjava.store.core.testsupport.DerivingStore.request;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.runtime.CallControl;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.testsupport.DerivingStore;
import org.medjava.store.testkit.Samples;

/** Objects without pixels (reports, plans, waveforms) are kept; asked to render, they say what they are. */
class NoPixelDataTest {

    @TempDir
    Path dir;
    private DerivingStore store;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aRenderingOfAnObjectWithoutPixelsIs422NamingItsKind() {
        for (DecodeBudget budget : new DecodeBudget[] {DecodeBudget.UNLIMITED, new DecodeBudget(64 << 20, 0)}) {
            RenderService renderer = new RenderService(store.registry(), DerivingStore.LIMIT, StoreMetrics.NONE,
                    budget, 3);
            assertThatThrownBy(() -> renderer.render(Samples.sopClass("test-SR.dcm"), true, request("render", "png"), CallControl.unlimited()))
                    .isInstanceOfSatisfying(StoreException.class, e -> org.assertj.core.api.Assertions
                            .assertThat(e.kind()).isEqualTo(StoreException.Kind.UNPROCESSABLE))
                    .hasMessageStartingWith("no pixel data: structured report (Comprehensive SR Storage)");
            assertThatThrownBy(() -> renderer.thumbnail(Samples.sopClass("rtplan.dcm"), 0, 64, 64,
                    org.medjava.codec.ImageFormat.PNG)).hasMessageStartingWith("no pixel data: RT Plan");
        }
    }

    @Test
    void aBrokenImageKeepsTheDecodersReason() {
        RenderService renderer = new RenderService(store.registry(), DerivingStore.LIMIT);
        assertThatThrownBy(() -> renderer.render(Samples.dicom("badVR.dcm"), true, request("render", "png"), CallControl.unlimited()))
                .hasMessageStartingWith("cannot render: ");
    }
}
