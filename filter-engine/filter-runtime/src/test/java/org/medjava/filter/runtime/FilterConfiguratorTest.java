package org.medjava.filter.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.PluginJarBuilder;

class FilterConfiguratorTest {
    @TempDir
    Path dir;
    FilterRegistry registry;
    FilterConfigurator configurator;
    Path config;

    @BeforeEach
    void setUp() throws Exception {
        registry = new FilterRegistry(dir.resolve("work"));
        config = dir.resolve("filters.conf");
        configurator = new FilterConfigurator(registry, config);
        TestPlugins.fillJar(dir.resolve("plugins/a.jar"), "a", "alpha", 1, "");
        TestPlugins.fillJar(dir.resolve("plugins/b.jar"), "b", "beta", 2, "");
    }

    @AfterEach
    void tearDown() {
        configurator.close();
        registry.close();
    }

    int run(String filterId) {
        return registry.apply(filterId, new Raster(2, 2), null, Map.of(), Implementation.OPTIMIZED).rgbAt(0, 0) & 0xFF;
    }

    @Test
    void readsDirectivesAtStartWithJarPathsRelativeToTheFile() throws Exception {
        Files.writeString(config, """
                # the svc.conf of MedJava
                load a plugins/a.jar  colour=none   # trailing comment
                load b plugins/b.jar
                suspend beta
                """);

        FilterConfigurator.Report report = configurator.apply();

        assertThat(report.problems()).isEmpty();
        assertThat(report.actions()).contains("suspended beta").anyMatch(a -> a.startsWith("loaded a 1"));
        assertThat(run("alpha")).isEqualTo(1);
        assertThat(registry.filter("beta").orElseThrow().state()).isEqualTo(FilterInfo.State.SUSPENDED);
        assertThat(registry.plugin("a").orElseThrow().properties()).containsEntry("colour", "none");
    }

    @Test
    void reReadingAppliesRemoveResumeAndLeavesUnchangedPluginsAlone() throws Exception {
        Files.writeString(config, "load a plugins/a.jar\nload b plugins/b.jar\nsuspend beta\n");
        configurator.apply();
        var loadedAt = registry.plugin("b").orElseThrow().loadedAt();

        Files.writeString(config, "load b plugins/b.jar\n");
        assertThat(configurator.applyIfChanged()).isTrue();

        assertThat(registry.plugin("a")).isEmpty();
        assertThat(run("beta")).isEqualTo(2);
        assertThat(registry.plugin("b").orElseThrow().loadedAt()).as("b was not reloaded").isEqualTo(loadedAt);
        assertThat(configurator.applyIfChanged()).as("nothing changed").isFalse();
    }

    @Test
    void aJarOverwrittenInPlaceIsHotReplaced() throws Exception {
        Files.writeString(config, "load a plugins/a.jar\n");
        configurator.apply();
        assertThat(run("alpha")).isEqualTo(1);

        TestPlugins.fillJar(dir.resolve("plugins/a.jar"), "a", "alpha", 3, "");
        assertThat(configurator.applyIfChanged()).isTrue();

        assertThat(run("alpha")).isEqualTo(3);
        assertThat(registry.plugin("a").orElseThrow().version()).isEqualTo("3");
    }

    @Test
    void badLinesAndBrokenJarsAreReportedWhileTheRestApplies() throws Exception {
        PluginJarBuilder.garbage(dir.resolve("plugins/broken.jar"), "PK? not a zip");
        Files.writeString(config, """
                load a plugins/a.jar
                lod b plugins/b.jar
                load broken plugins/broken.jar
                load b plugins/b.jar notapair
                suspend
                load b plugins/b.jar
                """);

        FilterConfigurator.Report report = configurator.apply();

        assertThat(report.problems()).hasSize(4)
                .anySatisfy(p -> assertThat(p).contains("line 2").contains("unknown directive \"lod\""))
                .anySatisfy(p -> assertThat(p).contains("plugin broken").contains("not a readable JAR"))
                .anySatisfy(p -> assertThat(p).contains("line 4").contains("not param=value"))
                .anySatisfy(p -> assertThat(p).contains("line 5").contains("expected: suspend <filter-id>"));
        assertThat(run("alpha")).isEqualTo(1);
        assertThat(run("beta")).isEqualTo(2);
        assertThat(registry.plugin("broken").orElseThrow().state()).isEqualTo(PluginInfo.State.FAILED);
        assertThat(configurator.applyIfChanged()).as("an unchanged broken JAR is not retried every tick").isFalse();
    }

    @Test
    void theWatcherPicksUpAChangedFileByItself() throws Exception {
        Files.writeString(config, "load a plugins/a.jar\n");
        configurator.apply();
        configurator.watch(Duration.ofMillis(50));

        Files.writeString(config, "load a plugins/a.jar\nload b plugins/b.jar\nsuspend alpha\n");

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (registry.plugin("b").isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(100); // let the same pass finish the suspension
        assertThat(run("beta")).isEqualTo(2);
        assertThat(registry.filter("alpha").orElseThrow().state()).isEqualTo(FilterInfo.State.SUSPENDED);
    }
}
