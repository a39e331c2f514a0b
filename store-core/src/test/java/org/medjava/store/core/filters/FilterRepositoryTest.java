package org.medjava.store.core.filters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.filter.testkit.PluginJarBuilder;
import org.medjava.store.core.filters.FilterRepository.Installed;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.StoreException.Kind;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * {@link FilterRepository} on temp directories, with throw-away plugins compiled by {@link PluginJarBuilder}. The
 * test plugin's "fill" filter sets every pixel to its version number, so a rendering tells which version ran.
 */
class FilterRepositoryTest {

    private static final long MAX_JAR = 1 << 20;

    @TempDir
    static Path jars; // built once per class: compiling plugins is the slow part
    private static final Map<String, byte[]> BUILT = new java.util.HashMap<>();

    @TempDir
    Path dir;

    private final List<FilterRepository> opened = new ArrayList<>();
    private FilterRepository repo;

    @BeforeEach
    void setUp() throws IOException {
        repo = open();
    }

    @AfterEach
    void tearDown() {
        opened.forEach(FilterRepository::close);
    }

    // ------------------------------------------------------------------ install and replace

    @Test
    void installsANewPlugin() throws IOException {
        byte[] jar = fillJar("fill", "fill", 1);

        Installed installed = repo.install("fill", new ByteArrayInputStream(jar), TestCallers.USER);

        assertThat(installed.replaced()).isFalse();
        assertThat(installed.plugin().id()).isEqualTo("fill");
        assertThat(installed.plugin().version()).isEqualTo("1");
        assertThat(installed.plugin().state()).isEqualTo(PluginInfo.State.ACTIVE);
        assertThat(installed.plugin().filterIds()).containsExactly("fill");
        assertThat(repo.plugins()).extracting(PluginInfo::id).containsExactly("fill");
        assertThat(Files.readAllBytes(repo.jar("fill"))).isEqualTo(jar);
        assertThat(repo.jar("fill")).isEqualTo(dir.resolve("plugins/fill.jar"));
        assertThat(installed.plugin().sha256()).isEqualToIgnoringCase(sha256(jar));
        assertThat(render("fill")).isEqualTo(1);
        assertStagingEmpty();
    }

    @Test
    void replacesARunningPlugin() throws IOException {
        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);
        byte[] v2 = fillJar("fill", "fill", 2);

        Installed installed = repo.install("fill", new ByteArrayInputStream(v2), TestCallers.USER);

        assertThat(installed.replaced()).isTrue();
        assertThat(installed.plugin().version()).isEqualTo("2");
        assertThat(repo.plugin("fill").orElseThrow().version()).isEqualTo("2");
        assertThat(Files.readAllBytes(repo.jar("fill"))).isEqualTo(v2);
        assertThat(render("fill")).isEqualTo(2);
        assertThat(repo.plugins()).hasSize(1);
        assertStagingEmpty();
    }

    @Test
    void garbageJarIsRejectedAndTheRunningVersionKept() throws IOException {
        byte[] v1 = fillJar("fill", "fill", 1);
        repo.install("fill", new ByteArrayInputStream(v1), TestCallers.USER);

        assertRefused(() -> repo.install("fill", new ByteArrayInputStream("this is not a zip".getBytes()),
                TestCallers.USER),
                Kind.UNPROCESSABLE)
                .hasMessageContaining("plugin fill rejected")
                .hasMessageContaining("not a readable JAR")
                .hasMessageContaining("the running version stays active");

        PluginInfo plugin = repo.plugin("fill").orElseThrow();
        assertThat(plugin.state()).isEqualTo(PluginInfo.State.ACTIVE);
        assertThat(plugin.version()).isEqualTo("1");
        assertThat(Files.readAllBytes(repo.jar("fill"))).isEqualTo(v1);
        assertThat(render("fill")).isEqualTo(1);
        assertStagingEmpty();
    }

    @Test
    void brokenNewPluginIsRejectedAndLeavesNoEntry() throws IOException {
        byte[] broken = fillJar("fill", "fill", 1, "throw new IllegalStateException(\"cannot start\");");

        assertRefused(() -> repo.install("fill", new ByteArrayInputStream(broken), TestCallers.USER),
                Kind.UNPROCESSABLE)
                .hasMessageContaining("plugin fill rejected")
                .hasMessageContaining("cannot start")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("stays active"));

        assertThat(repo.plugin("fill")).isEmpty();
        assertThat(repo.plugins()).isEmpty();
        assertThat(repo.filters()).isEmpty();
        assertThat(dir.resolve("plugins/fill.jar")).doesNotExist();
        assertStagingEmpty();
    }

    @Test
    void jarWhosePluginIdDiffersIsRejected() throws IOException {
        byte[] other = fillJar("other", "fill", 1);

        assertRefused(() -> repo.install("fill", new ByteArrayInputStream(other), TestCallers.USER), Kind.UNPROCESSABLE)
                .hasMessageContaining("the JAR's manifest names Plugin-Id \"other\", not \"fill\"");
        assertThat(repo.plugins()).isEmpty();
        assertStagingEmpty();
    }

    @Test
    void aJarWithoutAnIdIsInstalledUnderItsManifestsPluginId() throws IOException {
        Installed installed = repo.install(new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);

        assertThat(installed.replaced()).isFalse();
        assertThat(installed.plugin().id()).isEqualTo("fill");
        assertThat(repo.jar("fill")).isEqualTo(dir.resolve("plugins/fill.jar"));
        assertThat(render("fill")).isEqualTo(1);

        Installed again = repo.install(new ByteArrayInputStream(fillJar("fill", "fill", 2)), TestCallers.USER);
        assertThat(again.replaced()).isTrue();
        assertThat(render("fill")).isEqualTo(2);
        assertStagingEmpty();
    }

    @Test
    void aFileWithoutAPluginIdInItsManifestIsRefusedWithoutAnId() throws IOException {
        assertRefused(() -> repo.install(new ByteArrayInputStream("this is not a zip".getBytes()), TestCallers.USER),
                Kind.UNPROCESSABLE).hasMessageContaining("not a filter plugin");
        assertThat(repo.plugins()).isEmpty();
        assertStagingEmpty();
    }

    @Test
    void jarOverTheLimitIsTooLarge() throws IOException {
        byte[] v1 = fillJar("fill", "fill", 1);
        repo.install("fill", new ByteArrayInputStream(v1), TestCallers.USER);
        FilterRepository small = open(dir.resolve("small-plugins"), 100);

        assertRefused(() -> small.install("fill", new ByteArrayInputStream(v1), TestCallers.USER), Kind.TOO_LARGE)
                .hasMessageContaining("limited to 100 bytes");
        assertThat(small.plugins()).isEmpty();
        assertThat(list(dir.resolve("small-plugins/.staging"))).isEmpty();

        // an endless upload is cut off too, and the running version is untouched
        FilterRepository limited = open(dir.resolve("plugins"), 10_000);
        assertRefused(() -> limited.install("fill", endless(), TestCallers.USER), Kind.TOO_LARGE);
        assertThat(Files.readAllBytes(repo.jar("fill"))).isEqualTo(v1);
        assertStagingEmpty();
    }

    // ------------------------------------------------------------------ suspend, resume, remove

    @Test
    void suspensionIsRememberedAcrossRestarts() throws IOException {
        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);

        repo.setSuspended("fill", true, TestCallers.USER);

        assertThat(filterState(repo, "fill")).isEqualTo(FilterInfo.State.SUSPENDED);
        assertThat(dir.resolve("plugins/fill.suspended")).exists();

        FilterRepository restarted = open();
        restarted.loadAll();
        assertThat(filterState(restarted, "fill")).isEqualTo(FilterInfo.State.SUSPENDED);

        restarted.setSuspended("fill", false, TestCallers.USER);
        assertThat(filterState(restarted, "fill")).isEqualTo(FilterInfo.State.ACTIVE);
        assertThat(dir.resolve("plugins/fill.suspended")).doesNotExist();
        assertThat(render(restarted, "fill")).isEqualTo(1);

        FilterRepository again = open();
        again.loadAll();
        assertThat(filterState(again, "fill")).isEqualTo(FilterInfo.State.ACTIVE);
    }

    @Test
    void installingANewVersionOfASuspendedPluginResumesIt() throws IOException {
        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);
        repo.setSuspended("fill", true, TestCallers.USER);

        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 2)), TestCallers.USER);

        // the marker is gone, so after a restart the plugin is active: it must be active now as well
        assertThat(dir.resolve("plugins/fill.suspended")).doesNotExist();
        assertThat(filterState(repo, "fill")).isEqualTo(FilterInfo.State.ACTIVE);
        assertThat(render("fill")).isEqualTo(2);
    }

    @Test
    void reinstallingARemovedSuspendedPluginStartsActive() throws IOException {
        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);
        repo.setSuspended("fill", true, TestCallers.USER);
        repo.remove("fill", TestCallers.USER);

        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);

        assertThat(filterState(repo, "fill")).isEqualTo(FilterInfo.State.ACTIVE);
        assertThat(render("fill")).isEqualTo(1);
    }

    @Test
    void suspendingTwiceAndResumingAnActivePluginAreHarmless() throws IOException {
        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);

        repo.setSuspended("fill", true, TestCallers.USER);
        repo.setSuspended("fill", true, TestCallers.USER);
        assertThat(filterState(repo, "fill")).isEqualTo(FilterInfo.State.SUSPENDED);
        repo.setSuspended("fill", false, TestCallers.USER);
        repo.setSuspended("fill", false, TestCallers.USER);
        assertThat(filterState(repo, "fill")).isEqualTo(FilterInfo.State.ACTIVE);
    }

    @Test
    void failedPluginCannotBeSuspended() throws IOException {
        Files.createDirectories(dir.resolve("plugins"));
        Files.write(dir.resolve("plugins/bad.jar"), "garbage".getBytes());
        Files.write(dir.resolve("plugins/fill.jar"), fillJar("fill", "fill", 1));

        repo.loadAll();

        assertThat(repo.plugin("bad").orElseThrow().state()).isEqualTo(PluginInfo.State.FAILED);
        assertThat(repo.plugin("fill").orElseThrow().state()).isEqualTo(PluginInfo.State.ACTIVE);
        assertRefused(() -> repo.setSuspended("bad", true, TestCallers.USER), Kind.CONFLICT)
                .hasMessageContaining("plugin bad is FAILED").hasMessageContaining("install a working JAR");
    }

    @Test
    void removeUnloadsAndDeletesTheJarAndMarker() throws IOException {
        repo.install("fill", new ByteArrayInputStream(fillJar("fill", "fill", 1)), TestCallers.USER);
        repo.setSuspended("fill", true, TestCallers.USER);

        repo.remove("fill", TestCallers.USER);

        assertThat(repo.plugin("fill")).isEmpty();
        assertThat(repo.filters()).isEmpty();
        assertThat(dir.resolve("plugins/fill.jar")).doesNotExist();
        assertThat(dir.resolve("plugins/fill.suspended")).doesNotExist();
        assertRefused(() -> repo.remove("fill", TestCallers.USER),
                Kind.NOT_FOUND).hasMessageContaining("no plugin fill");
        assertRefused(() -> repo.jar("fill"), Kind.NOT_FOUND);

        FilterRepository restarted = open();
        restarted.loadAll();
        assertThat(restarted.plugins()).isEmpty();
    }

    // ------------------------------------------------------------------ ids and lookups

    @ParameterizedTest
    @ValueSource(strings = {"../x", "A", "", "-x", "a/b", "a.b", "fill.jar", "x ", "ünicode"})
    void badIdsAreBadRequests(String id) {
        assertRefused(() -> repo.install(id, new ByteArrayInputStream(new byte[0]), TestCallers.USER), Kind.BAD_REQUEST)
                .hasMessageContaining("plugin ids are lower-case letters, digits and '-'");
        assertRefused(() -> repo.jar(id), Kind.BAD_REQUEST);
        assertRefused(() -> repo.remove(id, TestCallers.USER), Kind.BAD_REQUEST);
        assertRefused(() -> repo.setSuspended(id, true, TestCallers.USER), Kind.BAD_REQUEST);
        assertThat(repo.plugin(id)).isEmpty();
        assertStagingEmpty();
    }

    @Test
    void idLengthLimitIs64() {
        assertRefused(() -> repo.jar("a".repeat(64)), Kind.NOT_FOUND);
        assertRefused(() -> repo.jar("a".repeat(65)), Kind.BAD_REQUEST);
    }

    @Test
    void nullIdIsABadRequest() {
        assertRefused(() -> repo.install(null, new ByteArrayInputStream(new byte[0]), TestCallers.USER),
                Kind.BAD_REQUEST);
    }

    @Test
    void missingPluginIsNotFound() {
        assertRefused(() -> repo.jar("missing"), Kind.NOT_FOUND).hasMessageContaining("no plugin missing");
        assertRefused(() -> repo.setSuspended("missing", true, TestCallers.USER), Kind.NOT_FOUND)
                .hasMessageContaining("no plugin missing");
        assertRefused(() -> repo.remove("missing", TestCallers.USER), Kind.NOT_FOUND);
        assertThat(repo.plugin("missing")).isEmpty();
    }

    @Test
    void loadAllLoadsEveryJarAndKeepsGoingPastBrokenOnes() throws IOException {
        Files.createDirectories(dir.resolve("plugins"));
        Files.write(dir.resolve("plugins/aaa.jar"), fillJar("aaa", "fill-a", 3));
        Files.write(dir.resolve("plugins/bbb.jar"), "garbage".getBytes());
        Files.write(dir.resolve("plugins/ccc.jar"), fillJar("ccc", "fill-c", 4));
        Files.writeString(dir.resolve("plugins/readme.txt"), "not a plugin");

        repo.loadAll();

        assertThat(repo.plugins()).extracting(PluginInfo::id).containsExactly("aaa", "bbb", "ccc");
        assertThat(repo.plugins()).extracting(PluginInfo::state)
                .containsExactly(PluginInfo.State.ACTIVE, PluginInfo.State.FAILED, PluginInfo.State.ACTIVE);
        assertThat(render("fill-a")).isEqualTo(3);
        assertThat(render("fill-c")).isEqualTo(4);
    }

    // ------------------------------------------------------------------ helpers

    private FilterRepository open() throws IOException {
        return open(dir.resolve("plugins"), MAX_JAR);
    }

    private FilterRepository open(Path pluginsDir, long maxJarBytes) throws IOException {
        FilterRepository r = new FilterRepository(pluginsDir, dir.resolve("work-" + opened.size()), maxJarBytes);
        opened.add(r);
        return r;
    }

    private int render(String filterId) {
        return render(repo, filterId);
    }

    /** Runs a filter on a small black raster and returns the value it filled in. */
    private static int render(FilterRepository r, String filterId) {
        Raster out = r.registry().apply(filterId, new Raster(4, 4), null, Map.of(), Implementation.OPTIMIZED);
        return out.rgb()[0] & 0xFF;
    }

    private static FilterInfo.State filterState(FilterRepository r, String filterId) {
        return r.registry().filter(filterId).orElseThrow().state();
    }

    private void assertStagingEmpty() {
        Path staging = dir.resolve("plugins/.staging");
        assertThat(Files.exists(staging) ? list(staging) : List.of()).as("left in .staging").isEmpty();
    }

    private static List<Path> list(Path d) {
        try (Stream<Path> files = Files.list(d)) {
            return files.toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRefused(ThrowingCallable call, Kind kind) {
        return assertThatThrownBy(call).isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(((StoreException) e).kind()).as(e.getMessage()).isEqualTo(kind));
    }

    private static InputStream endless() {
        return new InputStream() {
            @Override
            public int read() {
                return 0;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return len;
            }
        };
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] fillJar(String pluginId, String filterId, int value) throws IOException {
        return fillJar(pluginId, filterId, value, "");
    }

    /** A plugin with one filter that fills its region with {@code value}; {@code initBody} runs in init. */
    private static synchronized byte[] fillJar(String pluginId, String filterId, int value, String initBody)
            throws IOException {
        String key = pluginId + "/" + filterId + "/" + value + "/" + initBody;
        byte[] cached = BUILT.get(key);
        if (cached != null) {
            return cached;
        }
        String pkg = "test.store." + pluginId.replace("-", "") + ".v" + value + "n" + BUILT.size();
        String source = """
                package %1$s;

                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;

                public class Provider implements FilterProvider {
                    @Override public void init(PluginContext ctx) {
                        %4$s
                    }

                    @Override public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("%2$s").version("%3$d").build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
                                byte[] out = dst.rgb();
                                for (int y = r.y(); y < r.endY(); y++)
                                    for (int x = r.x(); x < r.endX(); x++)
                                        for (int c = 0; c < 3; c++) out[3 * (y * dst.width() + x) + c] = (byte) %3$d;
                            }
                        });
                    }
                }
                """.formatted(pkg, filterId, value, initBody);
        Path jar = PluginJarBuilder.plugin(pluginId).version(Integer.toString(value))
                .source(pkg + ".Provider", source).provider(pkg + ".Provider")
                .build(jars.resolve(pkg + ".jar"));
        byte[] bytes = Files.readAllBytes(jar);
        BUILT.put(key, bytes);
        return bytes;
    }
}
