package org.medjava.filter.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.PluginJarBuilder;

/** Every kind of broken plugin JAR is marked FAILED with its reason; the registry and other plugins carry on. */
class BrokenPluginTest {
    /** The registry under test: plugins in this process; a subclass runs the same tests in filter workers. */
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir);
    }

    @TempDir
    static Path dir;
    FilterRegistry registry;

    interface JarMaker {
        Path make(Path dir) throws Exception;
    }

    @BeforeEach
    void setUp() throws Exception {
        registry = newRegistry(dir.resolve("work-" + System.nanoTime()));
        TestPlugins.fillJar(dir.resolve("good.jar"), "good", "good", 5, "");
        registry.load("good", dir.resolve("good.jar"), Map.of());
    }

    @AfterEach
    void tearDown() {
        registry.close();
    }

    static Stream<Arguments> brokenJars() {
        return Stream.of(
                Arguments.of("no provider in the JAR", (JarMaker) d -> PluginJarBuilder.plugin("broken")
                        .source("b.Nothing", "package b; public class Nothing {}").build(d.resolve("none.jar")),
                        "no META-INF/services"),
                Arguments.of("services file lists no provider of ours", (JarMaker) d -> PluginJarBuilder.plugin("broken")
                        .entry(PluginLoader.SERVICE_FILE, "# empty\n".getBytes(StandardCharsets.UTF_8))
                        .build(d.resolve("empty.jar")), "no FilterProvider found"),
                Arguments.of("provider class missing", (JarMaker) d -> PluginJarBuilder.plugin("broken")
                        .provider("b.Missing").build(d.resolve("missing.jar")), "bad provider"),
                Arguments.of("compiled for another API version", (JarMaker) d -> {
                    Path jar = TestPlugins.fillJar(d.resolve("api.jar"), "broken", "x1", 1, "");
                    return rebuildWithApi(jar, "2.0");
                }, "compiled for filter API 2.0"),
                Arguments.of("no Filter-Api-Version", (JarMaker) d -> {
                    Path jar = TestPlugins.fillJar(d.resolve("noapi.jar"), "broken", "x2", 1, "");
                    return rebuildWithApi(jar, null);
                }, "missing Filter-Api-Version"),
                Arguments.of("no manifest", (JarMaker) d -> PluginJarBuilder.plugin("broken").withoutManifest()
                        .provider("b.P").build(d.resolve("nomanifest.jar")), "no manifest"),
                Arguments.of("another plugin's Plugin-Id", (JarMaker) d ->
                        TestPlugins.fillJar(d.resolve("other.jar"), "other", "x3", 1, ""), "Plugin-Id is \"other\""),
                Arguments.of("not a JAR at all", (JarMaker) d ->
                        PluginJarBuilder.garbage(d.resolve("garbage.jar"), "this is not a zip"), "not a readable JAR"),
                Arguments.of("JAR does not exist", (JarMaker) d -> d.resolve("nowhere.jar"), "does not exist"),
                Arguments.of("init throws", (JarMaker) d -> TestPlugins.fillJar(d.resolve("init.jar"), "broken", "x4", 1,
                        "", "throw new IllegalStateException(\"cannot start\");"), "init failed"),
                Arguments.of("init throws an Error", (JarMaker) d -> TestPlugins.fillJar(d.resolve("err.jar"), "broken",
                        "x5", 1, "", "throw new NoClassDefFoundError(\"com/acme/Gone\");"), "NoClassDefFoundError"),
                Arguments.of("text resource lacks a key", (JarMaker) d -> TestPlugins.textedJar(d.resolve("t1.jar"),
                        "broken", "x6", TestPlugins.texts("Greys.").replace("param.p.help", "param.q.help")),
                        "lacks [param.p.help] has unknown keys [param.q.help]"),
                Arguments.of("text resource not in the JAR", (JarMaker) d -> TestPlugins.textedJar(d.resolve("t2.jar"),
                        "broken", "x7", null), "no Grey.properties beside the class"),
                Arguments.of("duplicate filter id inside the JAR", (JarMaker) d -> duplicateIds(d), "offered twice"),
                Arguments.of("filter id owned by another plugin", (JarMaker) d ->
                        TestPlugins.fillJar(d.resolve("clash.jar"), "broken", "good", 1, ""),
                        "already provided by plugin good"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenJars")
    void brokenJarIsMarkedFailedWithItsReasonAndOthersKeepWorking(String what, JarMaker maker, String reason)
            throws Exception {
        Path jar = maker.make(dir);

        assertThatThrownBy(() -> registry.load("broken", jar, Map.of()))
                .isInstanceOf(RegistryException.PluginLoadException.class).hasMessageContaining(reason);

        PluginInfo info = registry.plugin("broken").orElseThrow();
        assertThat(info.state()).isEqualTo(PluginInfo.State.FAILED);
        assertThat(info.failure()).contains(reason);
        Raster out = registry.apply("good", new Raster(2, 2), null, Map.of(), Implementation.OPTIMIZED);
        assertThat(out.rgbAt(1, 1) & 0xFF).isEqualTo(5);
        assertThat(registry.filters()).extracting(FilterInfo::id).containsExactly("good");
        assertThat(Files.list(registry.workDir()).count()).as("only good's private copy remains").isEqualTo(1);
    }

    private static Path rebuildWithApi(Path jar, String api) throws Exception {
        // same classes, different manifest: rebuild from the fill template with the requested API version
        String pkg = "test.brokenapi" + (api == null ? "none" : api.replace(".", ""));
        return PluginJarBuilder.plugin("broken").apiVersion(api)
                .source(pkg + ".Provider", TestPlugins.fillProvider(pkg, "x-api", 1, "", ""))
                .provider(pkg + ".Provider").build(jar);
    }

    private static Path duplicateIds(Path d) throws Exception {
        String a = TestPlugins.fillProvider("dup.a", "twice", 1, "", "");
        String b = TestPlugins.fillProvider("dup.b", "twice", 2, "", "");
        return PluginJarBuilder.plugin("broken").source("dup.a.Provider", a).source("dup.b.Provider", b)
                .provider("dup.a.Provider").provider("dup.b.Provider").build(d.resolve("dup.jar"));
    }
}
