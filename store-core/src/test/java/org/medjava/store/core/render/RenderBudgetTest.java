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
import org.medjava.store.core.BusyException;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.testsupport.BlankPng;
import org.medjava.store.core.testsupport.DerivingStore;

/** Rendering takes its memory from the decode budget, and refuses chains over the cap before reading anything. */
class RenderBudgetTest {

    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;
    private DerivingStore store;
    private final DecodeBudget budget = new DecodeBudget(8 * MIB, 0);
    private RenderService renderer;

    @BeforeEach
    void open() throws Exception {
        store = DerivingStore.open(dir);
        renderer = new RenderService(store.registry(), DerivingStore.LIMIT, StoreMetrics.NONE, budget, 3);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void aRenderTakesItsEstimateAndGivesItBack() throws Exception {
        Path png = BlankPng.write(dir.resolve("small.png"), 300, 200, 2);
        byte[] out = renderer.render(png, false, request("render", "png", "filter", "fill"), CallControl.unlimited());
        assertThat(out).isNotEmpty();
        assertThat(budget.inUse()).isZero();
    }

    @Test
    void anImageBeyondTheWholeBudgetIs413BeforeDecoding() throws Exception {
        Path png = BlankPng.write(dir.resolve("large.png"), 2000, 2000, 2); // about 34 MiB to render
        assertThatThrownBy(() -> renderer.render(png, false, request("render", "png"), CallControl.unlimited()))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(StoreException.Kind.TOO_LARGE))
                .hasMessageContaining("PNG 2000x2000").hasMessageContaining("decode budget of 8.0 MiB");
    }

    @Test
    void aBusyBudgetIs503() throws Exception {
        Path png = BlankPng.write(dir.resolve("small.png"), 300, 200, 2);
        try (DecodeBudget.Permit others = budget.admit(8 * MIB, "others")) {
            assertThatThrownBy(() -> renderer.thumbnail(png, 0, 64, 64, org.medjava.codec.ImageFormat.PNG))
                    .isInstanceOf(BusyException.class);
        }
    }

    @Test
    void aChainOverTheCapIs400BeforeTheImageIsRead() {
        Path missing = dir.resolve("not-there.png");
        assertThatThrownBy(() -> renderer.render(missing, false, request("render", "png", "filter",
                "fill|fill|fill|fill"), CallControl.unlimited()))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(StoreException.Kind.BAD_REQUEST))
                .hasMessageContaining("4 steps").hasMessageContaining("at most 3");
    }
}
