package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.medjava.codec.dicom.Window;

class WindowLevelTest {

    @Test
    void draggingRightWidensAndDownRaisesTheLevel() {
        WindowLevel wl = new WindowLevel(512); // one unit per pixel
        Window w = wl.drag(new Window(40, 400), 100, 20);
        assertThat(w.width()).isEqualTo(500);
        assertThat(w.center()).isEqualTo(60);
    }

    @Test
    void draggingLeftNarrowsButNeverBelowOne() {
        WindowLevel wl = new WindowLevel(512);
        assertThat(wl.drag(new Window(40, 400), -10_000, 0).width()).isEqualTo(1);
    }

    @Test
    void sensitivityFollowsTheModalityRange() {
        assertThat(new WindowLevel(4096).sensitivity()).isEqualTo(8);
        assertThat(new WindowLevel(255).sensitivity()).isEqualTo(255 / 512.0);
        assertThat(new WindowLevel(0).sensitivity()).isEqualTo(1 / 512.0);
    }

    @Test
    void formatsAsRadiologistsReadIt() {
        assertThat(WindowLevel.format(new Window(40, 400))).isEqualTo("C 40 W 400");
        assertThat(WindowLevel.format(new Window(-600.5, 1500))).isEqualTo("C -600.5 W 1500");
    }

    @Test
    void ctPresetsHaveTheUsualValues() {
        assertThat(WindowLevel.CT_PRESETS).extracting(WindowLevel.Preset::name)
                .contains("CT brain", "CT lung", "CT bone", "CT abdomen");
        assertThat(WindowLevel.CT_PRESETS.get(0).window()).isEqualTo(new Window(40, 400));
    }
}
