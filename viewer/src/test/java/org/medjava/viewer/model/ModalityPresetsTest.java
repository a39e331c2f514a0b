package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.dicom.Window;

class ModalityPresetsTest {
    /** Stored 0..999 once each, slope 2, intercept 100: modality values 100, 102, …, 2098. */
    private static final ModalityPresets.Distribution VALUES = ModalityPresets.Distribution.of(1000, i -> i, 2, 100);

    @Test
    void percentilesAreNearestRankOnTheRescaledValues() {
        assertThat(VALUES.min()).isEqualTo(100);
        assertThat(VALUES.max()).isEqualTo(2098);
        assertThat(VALUES.percentile(1)).isEqualTo(100 + 2 * 9); // the 10th of 1000 values
        assertThat(VALUES.percentile(99)).isEqualTo(100 + 2 * 989);
        assertThat(VALUES.percentile(0)).isEqualTo(100);
        assertThat(VALUES.percentile(100)).isEqualTo(2098);
    }

    @Test
    void eachModalityGetsItsOwnPresets() {
        assertThat(ModalityPresets.forModality("CT", VALUES)).isEqualTo(WindowLevel.CT_PRESETS);
        List<WindowLevel.Preset> cr = ModalityPresets.forModality("CR", VALUES);
        assertThat(cr).extracting(WindowLevel.Preset::name).first().asString().startsWith("Radiograph 1–99 %");
        assertThat(cr.get(0).window()).isEqualTo(Window.ofRange(118, 2078));
        assertThat(ModalityPresets.forModality("dx ", VALUES)).isEqualTo(cr); // the code is trimmed, any case
        assertThat(ModalityPresets.forModality("MR", VALUES)).extracting(WindowLevel.Preset::name)
                .allMatch(n -> n.startsWith("MR") && n.endsWith("percentile"));
        // NM: from zero to a share of the maximum
        List<WindowLevel.Preset> nm = ModalityPresets.forModality("NM", VALUES);
        assertThat(nm).extracting(WindowLevel.Preset::name).containsExactly("NM 0–100 % of max", "NM 0–75 % of max",
                "NM 0–50 % of max", "NM 0–25 % of max");
        assertThat(nm.get(2).window()).isEqualTo(Window.ofRange(0, 1049));
        // US of 8-bit values: as acquired first
        var us8 = ModalityPresets.Distribution.of(256, i -> i, 1, 0);
        assertThat(ModalityPresets.forModality("US", us8).get(0).window()).isEqualTo(Window.ofRange(0, 255));
        assertThat(ModalityPresets.forModality("", VALUES)).isNotEmpty().noneMatch(p -> p.name().startsWith("CT"));
        assertThat(ModalityPresets.forModality("OT", VALUES)).noneMatch(p -> p.name().startsWith("CT"));
    }

    @Test
    void largeImagesAreSampled() {
        int n = 4 * ModalityPresets.Distribution.MAX_SAMPLES;
        var d = ModalityPresets.Distribution.of(n, i -> i % 1000, 1, 0);
        assertThat(d.min()).isZero();
        assertThat(d.percentile(50)).isBetween(495.0, 505.0);
    }

    @Test
    void userPresetsAreKeptPerModalityAndSurviveARestart(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("settings/presets.properties");
        UserPresets presets = new UserPresets(file);
        assertThat(presets.list("CT")).isEmpty();
        presets.save("CT", new WindowLevel.Preset("My lung", new Window(-500, 1600)));
        presets.save("CT", new WindowLevel.Preset("Stroke", new Window(35, 40)));
        presets.save("MR", new WindowLevel.Preset("T2 brain", new Window(600, 1200.5)));
        presets.save("CT", new WindowLevel.Preset("My lung", new Window(-550, 1500))); // replaced in place

        UserPresets again = new UserPresets(file); // another session
        assertThat(again.list("ct")).containsExactly(new WindowLevel.Preset("My lung", new Window(-550, 1500)),
                new WindowLevel.Preset("Stroke", new Window(35, 40)));
        assertThat(again.list("MR")).containsExactly(new WindowLevel.Preset("T2 brain", new Window(600, 1200.5)));
        assertThat(again.delete("CT", "My lung")).isTrue();
        assertThat(again.delete("CT", "nothing")).isFalse();
        assertThat(new UserPresets(file).list("CT")).extracting(WindowLevel.Preset::name).containsExactly("Stroke");
        assertThat(new UserPresets(file).list("MR")).hasSize(1);
    }

    @Test
    void userPresetsLiveInTheViewerSettingsDirectory(@TempDir Path dir) {
        String before = System.getProperty("medjava.viewer.home");
        System.setProperty("medjava.viewer.home", dir.toString());
        try {
            assertThat(UserPresets.standard().file()).isEqualTo(dir.resolve("presets.properties"));
        } finally {
            if (before == null) {
                System.clearProperty("medjava.viewer.home");
            } else {
                System.setProperty("medjava.viewer.home", before);
            }
        }
    }
}
