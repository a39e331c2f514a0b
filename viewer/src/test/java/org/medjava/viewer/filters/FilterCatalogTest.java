package org.medjava.viewer.filters;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.filter.testkit.PluginJarBuilder;
import org.medjava.filter.testkit.TestPublisher;
import org.medjava.viewer.store.Manifest;

/** The catalog following a store's manifest, with JARs served from memory instead of HTTP. */
class FilterCatalogTest {

    @TempDir
    Path dir;
    private FilterCatalog catalog;
    private final Map<String, byte[]> served = new HashMap<>();
    private final AtomicInteger downloads = new AtomicInteger();
    private final AtomicInteger changes = new AtomicInteger();

    @BeforeEach
    void setUp() throws IOException {
        catalog = new FilterCatalog(new FilterRegistry(dir.resolve("work")), dir.resolve("downloads"), trust(
                PluginTrust.Policy.REQUIRE)); // PluginJarBuilder signs as TestPublisher.standard()
        catalog.addListener(changes::incrementAndGet);
    }

    @AfterEach
    void tearDown() {
        catalog.close();
    }

    private static PluginTrust trust(PluginTrust.Policy policy) {
        return PluginTrust.of(policy, List.of(TestPublisher.standard().certificate()));
    }

    /** A plugin whose one filter fills its region with {@code value}: the result tells which version ran. */
    private byte[] fillJar(String pluginId, String filterId, int value) throws IOException {
        return fillJar(pluginId, filterId, value, b -> b);
    }

    private byte[] fillJar(String pluginId, String filterId, int value,
                           java.util.function.UnaryOperator<PluginJarBuilder> signing) throws IOException {
        String pkg = "test." + pluginId.replace("-", "") + ".v" + value;
        String source = """
                package %1$s;
                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("%2$s").version("%3$d").build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster s, Raster t, Region r, FilterParams p, Implementation i) {
                                for (int y = r.y(); y < r.endY(); y++)
                                    for (int x = r.x(); x < r.endX(); x++) t.setRgb(x, y, %3$d);
                            }
                        });
                    }
                }
                """.formatted(pkg, filterId, value);
        Path jar = signing.apply(PluginJarBuilder.plugin(pluginId).version(Integer.toString(value))
                .source(pkg + ".Provider", source).provider(pkg + ".Provider"))
                .build(dir.resolve(pluginId + "-" + value + ".jar"));
        return Files.readAllBytes(jar);
    }

    private Manifest.Plugin serve(String id, byte[] jar, String... suspended) {
        String link = "/filters/" + id + ".jar?v=" + PluginVerifier.sha256(jar);
        served.put(link, jar);
        List<Manifest.FilterState> filters = List.of(new Manifest.FilterState(id,
                List.of(suspended).contains(id) ? "SUSPENDED" : "ACTIVE"));
        return new Manifest.Plugin(id, "v", "ACTIVE", PluginVerifier.sha256(jar), link, filters);
    }

    private List<String> follow(Manifest.Plugin... plugins) {
        return catalog.follow(new Manifest("etag", List.of(plugins)), link -> {
            downloads.incrementAndGet();
            return served.get(link);
        });
    }

    private int run(String filterId) {
        return catalog.registry().apply(filterId, new Raster(2, 2), null, Map.of(), Implementation.STRAIGHTFORWARD)
                .rgbAt(0, 0);
    }

    private FilterEntry entry(String id) {
        return catalog.entries().stream().filter(e -> e.id().equals(id)).findFirst().orElse(null);
    }

    @Test
    void installedReplacedSuspendedAndRemovedOnTheStoreFollowInTheRegistry() throws IOException {
        byte[] v1 = fillJar("invert", "invert", 1);
        assertThat(follow(serve("invert", v1))).isEmpty();
        assertThat(entry("invert").origin()).isEqualTo(FilterEntry.Origin.STORE);
        assertThat(run("invert")).isEqualTo(1);

        byte[] v2 = fillJar("invert", "invert", 2);
        follow(serve("invert", v2));
        assertThat(run("invert")).isEqualTo(2);
        assertThat(entry("invert").pluginVersion()).isEqualTo("2");

        follow(serve("invert", v2, "invert"));
        assertThat(entry("invert").state()).isEqualTo(FilterInfo.State.SUSPENDED);
        follow(serve("invert", v2));
        assertThat(entry("invert").state()).isEqualTo(FilterInfo.State.ACTIVE);

        follow();
        assertThat(entry("invert")).isNull();
        assertThat(changes.get()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void anUnchangedManifestDownloadsNothingAgain() throws IOException {
        Manifest.Plugin p = serve("invert", fillJar("invert", "invert", 1));
        follow(p);
        follow(p);
        assertThat(downloads.get()).isEqualTo(1);
    }

    @Test
    void aJarWhoseDigestDiffersFromTheManifestIsRefusedAndTheRunningVersionStays() throws IOException {
        byte[] v1 = fillJar("invert", "invert", 1);
        follow(serve("invert", v1));
        byte[] v2 = fillJar("invert", "invert", 2);
        Manifest.Plugin lying = new Manifest.Plugin("invert", "2", "ACTIVE", PluginVerifier.sha256(v2), "/evil", List.of());
        served.put("/evil", fillJar("invert", "invert", 3));
        List<String> problems = follow(lying);
        assertThat(problems).singleElement().asString().contains("SHA-256").contains("not loaded");
        assertThat(run("invert")).isEqualTo(1);
        assertThat(catalog.problems()).hasSize(1);
    }

    @Test
    void aJarWithTheRightDigestButNoTrustedSignatureIsRefusedAndTheRunningVersionStays() throws IOException {
        follow(serve("invert", fillJar("invert", "invert", 1)));

        List<String> unsigned = follow(serve("invert", fillJar("invert", "invert", 2, PluginJarBuilder::unsigned)));
        assertThat(unsigned).singleElement().asString()
                .startsWith("plugin invert from the store refused: the JAR is not signed");
        TestPublisher stranger = TestPublisher.create("CN=Not the viewer's publisher");
        List<String> untrusted = follow(serve("invert", fillJar("invert", "invert", 3, b -> b.signedBy(stranger))));
        assertThat(untrusted).singleElement().asString()
                .contains("CN=Not the viewer's publisher", "a publisher this host does not trust");

        assertThat(run("invert")).isEqualTo(1);
        assertThat(dir.resolve("downloads/quarantine")).doesNotExist();
    }

    @Test
    void underTheQuarantinePolicyARefusedJarIsKeptButNotLoaded() throws IOException {
        catalog.close();
        catalog = new FilterCatalog(new FilterRegistry(dir.resolve("work-q")), dir.resolve("downloads"),
                trust(PluginTrust.Policy.QUARANTINE));

        List<String> problems = follow(serve("invert", fillJar("invert", "invert", 4, PluginJarBuilder::unsigned)));

        assertThat(problems).singleElement().asString().contains("not signed", "kept, not loaded");
        assertThat(entry("invert")).isNull();
        try (var kept = Files.list(dir.resolve("downloads/quarantine"))) {
            assertThat(kept.toList()).singleElement().asString().contains("invert-");
        }
    }

    @Test
    void aStoreVersionReplacesTheBundledOneAndRemovalBringsTheBundledBack() throws IOException {
        Path bundled = Files.createDirectories(dir.resolve("bundled"));
        Files.write(bundled.resolve("invert.jar"), fillJar("invert", "invert", 7));
        assertThat(catalog.loadBundled(bundled)).isEmpty();
        assertThat(entry("invert").origin()).isEqualTo(FilterEntry.Origin.BUNDLED);
        assertThat(run("invert")).isEqualTo(7);

        follow(serve("invert", fillJar("invert", "invert", 8)));
        assertThat(run("invert")).isEqualTo(8);
        assertThat(entry("invert").origin()).isEqualTo(FilterEntry.Origin.STORE);

        follow();
        assertThat(run("invert")).isEqualTo(7);
        assertThat(entry("invert").origin()).isEqualTo(FilterEntry.Origin.BUNDLED);
    }

    @Test
    void theSameBytesAsTheBundledJarAreNotDownloaded() throws IOException {
        Path bundled = Files.createDirectories(dir.resolve("bundled"));
        byte[] jar = fillJar("invert", "invert", 7);
        Files.write(bundled.resolve("invert.jar"), jar);
        catalog.loadBundled(bundled);
        follow(serve("invert", jar));
        assertThat(downloads.get()).isZero();
        assertThat(entry("invert").origin()).isEqualTo(FilterEntry.Origin.STORE);
        catalog.forgetStore();
        assertThat(entry("invert").origin()).isEqualTo(FilterEntry.Origin.BUNDLED);
    }

    @Test
    void failedPluginsOnTheStoreAreNotDownloaded() {
        follow(new Manifest.Plugin("broken", "1", "FAILED", null, "/filters/broken.jar", List.of()));
        assertThat(downloads.get()).isZero();
        assertThat(catalog.entries()).isEmpty();
    }
}
