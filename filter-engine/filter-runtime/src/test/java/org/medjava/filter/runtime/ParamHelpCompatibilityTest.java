package org.medjava.filter.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.Implementation;
import org.medjava.filter.ParamSpec;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.PluginJarBuilder;

/**
 * API 1.3's plain-language parameter help is optional: a plugin built for 1.2 (no help) still loads and runs, its
 * parameters labelled by name with empty help; a 1.3 plugin's help reaches the host through the registry; API 1.5's
 * text resources are read through each plugin's own class loader.
 */
class ParamHelpCompatibilityTest {
    @TempDir
    Path dir;
    FilterRegistry registry;

    @BeforeEach
    void setUp() {
        registry = new FilterRegistry(dir.resolve("work"));
    }

    @AfterEach
    void tearDown() {
        registry.close();
    }

    @Test
    void aPluginBuiltForApi12WithoutHelpStillLoadsAndRuns() throws Exception {
        // TestPlugins' fill filter declares its parameter the 1.2 way: no withHelp, no descriptor help
        Path jar = PluginJarBuilder.plugin("old").version("1").apiVersion("1.2")
                .source("test.old.Provider", TestPlugins.fillProvider("test.old", "old-fill", 9, "", ""))
                .provider("test.old.Provider").build(dir.resolve("old.jar"));

        PluginInfo info = registry.load("old", jar, Map.of());
        FilterDescriptor d = registry.descriptor("old-fill");
        Raster out = registry.apply("old-fill", new Raster(3, 3), null, Map.of("n", "5"), Implementation.OPTIMIZED);

        assertThat(info.state()).isEqualTo(PluginInfo.State.ACTIVE);
        assertThat(d.help()).isEmpty();
        ParamSpec n = d.params().get(0);
        assertThat(n.label()).isEqualTo("n");
        assertThat(n.help()).isEmpty();
        assertThat(n.hasHelp()).isFalse();
        assertThat(n.description()).isEqualTo("a size");
        assertThat(out.rgbAt(1, 1) & 0xFF).isEqualTo(9);
    }

    @Test
    void aPluginBuiltForApi13KeepsItsHelpThroughTheRegistry() throws Exception {
        String source = """
                package test.helped;
                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("helped").version("1")
                                    .help("Makes everything grey.")
                                    .param(ParamSpec.integer("p", 50, 0, 100, "p in percent of 255")
                                            .withHelp("Strength (%)", "How grey; higher is greyer."))
                                    .build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster s, Raster t, Region r, FilterParams p, Implementation i) {
                            }
                        });
                    }
                }
                """;
        Path jar = PluginJarBuilder.plugin("helped").version("1").apiVersion("1.3")
                .source("test.helped.Provider", source).provider("test.helped.Provider").build(dir.resolve("h.jar"));

        registry.load("helped", jar, Map.of());
        FilterDescriptor d = registry.descriptor("helped");

        assertThat(d.help()).isEqualTo("Makes everything grey.");
        ParamSpec p = d.params().get(0);
        assertThat(p.label()).isEqualTo("Strength (%)");
        assertThat(p.help()).isEqualTo("How grey; higher is greyer.");
        assertThat(p.description()).as("the spec rule stays available").isEqualTo("p in percent of 255");
        assertThat(p.rule()).isEqualTo("an integer from 0 to 100");
    }

    /**
     * Two plugins whose filters have the same class name, each with its own {@code Grey.properties}, show their own
     * texts, also after a replacement.
     */
    @Test
    void eachPluginReadsTheTextsInItsOwnJar() throws Exception {
        registry.load("grey-a", TestPlugins.textedJar(dir.resolve("a.jar"), "grey-a", "grey-a",
                TestPlugins.texts("Greys, from A.")), Map.of());
        registry.load("grey-b", TestPlugins.textedJar(dir.resolve("b.jar"), "grey-b", "grey-b",
                TestPlugins.texts("Greys, from B.")), Map.of());

        assertThat(registry.descriptor("grey-a").help()).isEqualTo("Greys, from A.");
        assertThat(registry.descriptor("grey-b").help()).isEqualTo("Greys, from B.");
        FilterDescriptor a = registry.descriptor("grey-a");
        assertThat(a.description()).isEqualTo("Sets the region to grey p (a test filter).");
        ParamSpec p = a.params().get(0);
        assertThat(p.label()).isEqualTo("Greyness");
        assertThat(p.description()).isEqualTo("p in percent of 255");
        assertThat(p.help()).isEqualTo("How grey; higher is lighter.");
        assertThat(p.rule()).isEqualTo("an integer from 0 to 100");

        registry.load("grey-a", TestPlugins.textedJar(dir.resolve("a2.jar"), "grey-a", "grey-a",
                TestPlugins.texts("Greys, from A's second version.")), Map.of());
        assertThat(registry.descriptor("grey-a").help()).isEqualTo("Greys, from A's second version.");
    }

    @Test
    void withHelpKeepsTheRuleAndDefaultAndBlankHelpMeansNone() {
        ParamSpec plain = ParamSpec.oddInteger("n", 3, 1, 9, "mask size");
        ParamSpec helped = plain.withHelp("  ", null);

        assertThat(helped.label()).isEqualTo("n");
        assertThat(helped.hasHelp()).isFalse();
        ParamSpec full = plain.withHelp("Size", " Width in pixels. ");
        assertThat(full.help()).isEqualTo("Width in pixels.");
        assertThat(full.rule()).isEqualTo(plain.rule());
        assertThat(full.defaultValue()).isEqualTo("3");
        assertThat(full.oddOnly()).isTrue();
        assertThat(plain.hasHelp()).as("withHelp makes a copy").isFalse();
    }
}
