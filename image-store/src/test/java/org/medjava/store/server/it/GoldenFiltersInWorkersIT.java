package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.medjava.filter.Filter;
import org.medjava.filter.FilterDescriptor;
import org.medjava.filter.FilterParams;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.Raster;
import org.medjava.filter.Region;
import org.medjava.filter.runtime.FilterInfo;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.filter.runtime.isolation.WorkerOptions;
import org.medjava.filter.testkit.GoldenTests;

/**
 * The eight shipped plugins, as the store installs them (the signed JARs of its seed), run every golden case of the
 * xv spec through filter workers: bit-exact, every implementation, RGB and grey — the same cases each plugin's own
 * suite runs in-process.
 */
class GoldenFiltersInWorkersIT {
    static Path work;
    static FilterRegistry registry;

    @BeforeAll
    static void loadTheShippedPlugins() throws Exception {
        Path plugins = Path.of(System.getProperty("store.plugins"));
        work = Files.createTempDirectory("golden-workers-");
        registry = new FilterRegistry(work, WorkerOptions.defaults().withWorkers(2));
        registry.setTrust(PluginTrust.load(PluginTrust.Policy.REQUIRE, plugins.resolve("trusted-publishers")));
        try (var jars = Files.list(plugins)) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                registry.load(jar.getFileName().toString().replaceFirst("^filter-", "").replaceFirst("\\.jar$", ""),
                        jar, Map.of());
            }
        }
    }

    @AfterAll
    static void close() {
        registry.close();
    }

    @TestFactory
    Stream<DynamicTest> everyGoldenCaseThroughTheWorkers() {
        assertThat(registry.isolation().mode()).isEqualTo("workers");
        List<FilterInfo> filters = registry.filters();
        assertThat(filters).hasSize(8);
        List<DynamicTest> tests = new ArrayList<>();
        for (FilterInfo filter : filters) {
            GoldenTests.forFilter(new ThroughRegistry(registry, filter.id())).forEach(tests::add);
        }
        return tests.stream();
    }

    /** A filter as a host sees it: every call goes through the registry, so through a worker. */
    private record ThroughRegistry(FilterRegistry registry, String id) implements Filter {
        @Override
        public FilterDescriptor descriptor() {
            return registry.descriptor(id);
        }

        @Override
        public boolean supportsGray16() {
            return registry.supportsGray16(id);
        }

        @Override
        public void apply(Raster src, Raster dst, Region region, FilterParams params, Implementation impl) {
            dst.copyFrom(registry.apply(id, src, region, params.asText(), impl));
        }

        @Override
        public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region region, FilterParams params,
                                Implementation impl) {
            GrayRaster16 out = registry.apply(id, src, region, params.asText(), impl);
            System.arraycopy(out.words(), 0, dst.words(), 0, out.words().length);
        }
    }
}
