package org.medjava.filter.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.InvalidParameterException;
import org.medjava.filter.Region;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.testkit.PluginJarBuilder;

/** The registry's grey entry point: same validation, suspension, failure and timing as the 8-bit one. */
class FilterRegistryGray16Test {
    @TempDir
    Path dir;
    FilterRegistry registry;
    final List<RegistryEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        registry = newRegistry(dir.resolve("work"));
        registry.addListener(events::add);
    }

    /** The registry under test: plugins in this process; a subclass runs the same tests in filter workers. */
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir);
    }

    @AfterEach
    void tearDown() {
        registry.close();
    }

    /** A plugin whose "grey-fill" filter sets every region value to the top of the range minus n; n=9 throws. */
    static Path greyJar(Path jar) throws Exception {
        String source = """
                package test.grey;

                import java.util.*;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;

                public class Provider implements FilterProvider {
                    @Override public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("grey-fill")
                                    .param(ParamSpec.oddInteger("n", 1, 1, 9, "subtracted")).build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) { }
                            @Override public boolean supportsGray16() { return true; }
                            @Override public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region r,
                                                              FilterParams p, Implementation i) {
                                Filter.requireContract(this, src, dst, r, p);
                                if (p.getInt("n") == 9) { throw new IllegalStateException("nine"); }
                                for (int y = r.y(); y < r.endY(); y++)
                                    for (int x = r.x(); x < r.endX(); x++)
                                        dst.setValue(x, y, src.maxValue() - p.getInt("n"));
                            }
                        });
                    }
                }
                """;
        return PluginJarBuilder.plugin("grey").source("test.grey.Provider", source).provider("test.grey.Provider")
                .build(jar);
    }

    static GrayRaster16 image() {
        return new GrayRaster16(4, 3, 12, true);
    }

    @Test
    void appliesAGreyFilterInsideTheRegionOnlyKeepingTheFormat() throws Exception {
        registry.load("grey", greyJar(dir.resolve("grey.jar")), Map.of());
        assertThat(registry.supportsGray16("grey-fill")).isTrue();

        GrayRaster16 out = registry.apply("grey-fill", image(), Region.of(1, 1, 2, 5), Map.of("n", "3"),
                Implementation.PARALLEL);

        assertThat(out.valueAt(1, 1)).isEqualTo(2044);
        assertThat(out.valueAt(2, 2)).isEqualTo(2044);
        assertThat(out.valueAt(0, 0)).isZero();
        assertThat(out.valueAt(3, 2)).isZero();
        assertThat(out.describe()).isEqualTo("12-bit signed grey");
    }

    /** Workers keep their arrays from call to call: nothing of one call may show in the next. */
    @Test
    void eachCallSeesOnlyItsOwnSourceWhateverCameBefore() throws Exception {
        registry.load("grey", greyJar(dir.resolve("grey.jar")), Map.of());
        GrayRaster16 ramp = image();
        for (int i = 0; i < 12; i++) {
            ramp.setValue(i % 4, i / 4, i * 100);
        }

        registry.apply("grey-fill", image(), null, Map.of("n", "1"), Implementation.OPTIMIZED);
        registry.apply("grey-fill", new GrayRaster16(3, 3, 12, true), null, Map.of(), Implementation.OPTIMIZED);
        GrayRaster16 out = registry.apply("grey-fill", ramp, Region.of(2, 1, 1, 1), Map.of("n", "5"),
                Implementation.OPTIMIZED);

        for (int i = 0; i < 12; i++) {
            assertThat(out.valueAt(i % 4, i / 4)).as("value %d", i).isEqualTo(i == 6 ? 2042 : i * 100);
        }
    }

    @Test
    void anRgbOnlyFilterRefusesGreyDataAndStaysActive() throws Exception {
        TestPlugins.fillJar(dir.resolve("fill.jar"), "fill", "fill", 7, "");
        registry.load("fill", dir.resolve("fill.jar"), Map.of());
        assertThat(registry.supportsGray16("fill")).isFalse();

        assertThatThrownBy(() -> registry.apply("fill", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(UnsupportedDataException.class)
                .hasMessageStartingWith("fill cannot filter 12-bit signed grey data: fill filters 8-bit RGB only");
        assertThat(registry.plugin("fill").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
    }

    @Test
    void aPluginBuiltForApi10LoadsAndRefusesGreyData() throws Exception {
        String pkg = "test.old";
        Path jar = PluginJarBuilder.plugin("old").apiVersion("1.0")
                .source(pkg + ".Provider", TestPlugins.fillProvider(pkg, "old-fill", 4, "", ""))
                .provider(pkg + ".Provider").build(dir.resolve("old.jar"));
        registry.load("old", jar, Map.of());

        assertThatThrownBy(() -> registry.apply("old-fill", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(UnsupportedDataException.class).hasMessageContaining("old-fill cannot filter");
        assertThat(registry.apply("old-fill", new org.medjava.filter.Raster(2, 2), null, Map.of(),
                Implementation.OPTIMIZED).rgbAt(1, 1) & 0xFF).isEqualTo(4);
    }

    @Test
    void badParametersAndValuesOutsideTheRangeAreRefusedWithoutFailingThePlugin() throws Exception {
        registry.load("grey", greyJar(dir.resolve("grey.jar")), Map.of());

        assertThatThrownBy(() -> registry.apply("grey-fill", image(), null, Map.of("n", "4"),
                Implementation.OPTIMIZED)).isInstanceOf(InvalidParameterException.class)
                .hasMessageContaining("n must be an odd integer from 1 to 9");
        GrayRaster16 bad = new GrayRaster16(2, 1, 12, false, new short[] {4096, 0});
        assertThatThrownBy(() -> registry.apply("grey-fill", bad, null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("grey value 4096 at (0,0) is outside the 12-bit unsigned range 0..4095");
        assertThat(registry.plugin("grey").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
    }

    @Test
    void suspendedAndUnknownFiltersAreRefusedAsForRgb() throws Exception {
        registry.load("grey", greyJar(dir.resolve("grey.jar")), Map.of());
        registry.suspend("grey-fill");
        assertThatThrownBy(() -> registry.apply("grey-fill", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(RegistryException.FilterUnavailableException.class).hasMessageContaining("suspended");
        registry.resume("grey-fill");
        assertThat(registry.apply("grey-fill", image(), null, Map.of(), Implementation.OPTIMIZED).valueAt(0, 0))
                .isEqualTo(2046);
        assertThatThrownBy(() -> registry.apply("nope", image(), null, Map.of(), Implementation.OPTIMIZED))
                .isInstanceOf(RegistryException.UnknownIdException.class).hasMessageContaining("available: grey-fill");
    }

    @Test
    void aGreyKernelThatThrowsMarksItsPluginFailed() throws Exception {
        registry.load("grey", greyJar(dir.resolve("grey.jar")), Map.of());
        assertThatThrownBy(() -> registry.apply("grey-fill", image(), null, Map.of("n", "9"),
                Implementation.OPTIMIZED)).isInstanceOf(RegistryException.FilterFailedException.class)
                .hasMessageContaining("nine").hasMessageContaining("FAILED");
        assertThat(registry.plugin("grey").orElseThrow().state()).isEqualTo(PluginInfo.State.FAILED);
    }

    @Test
    void benchmarkModeRecordsTheGreyFormat() throws Exception {
        registry.load("grey", greyJar(dir.resolve("grey.jar")), Map.of());
        registry.setTiming(true);
        registry.apply("grey-fill", image(), Region.of(1, 1, 10, 10), Map.of(), Implementation.STRAIGHTFORWARD);

        ApplyRecord record = events.stream().filter(e -> e instanceof RegistryEvent.FilterApplied)
                .map(e -> ((RegistryEvent.FilterApplied) e).record()).findFirst().orElseThrow();
        assertThat(record.filterId()).isEqualTo("grey-fill");
        assertThat(record.data()).isEqualTo("12-bit signed grey");
        assertThat(record.region()).isEqualTo(Region.of(1, 1, 3, 2));
        assertThat(record.params()).isEqualTo("n=1");
        assertThat(record.implementation()).isEqualTo(Implementation.STRAIGHTFORWARD);
    }
}
