package org.medjava.viewer.image;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Implementation;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.testkit.PluginJarBuilder;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.model.FilterStep;

/**
 * The viewer's bundled plugins (the JARs the build copies to {@code medjava.plugins}) in a real registry, plus a
 * plugin compiled on the fly whose filter has only 8-bit kernels, for the unit tests of the grey pipeline.
 */
final class TestFilters implements AutoCloseable {
    /** The id of the 8-bit-only filter (it inverts RGB in its region). */
    static final String INVERT = "invert8";

    final FilterCatalog catalog;

    private TestFilters(FilterCatalog catalog) {
        this.catalog = catalog;
    }

    static TestFilters open(Path dir) throws IOException {
        FilterCatalog catalog = new FilterCatalog(new FilterRegistry(dir.resolve("work")), dir.resolve("downloads"));
        catalog.loadBundled(Path.of(System.getProperty("medjava.plugins", "target/viewer/plugins")));
        if (catalog.registry().filter("despeckle").isEmpty()) {
            throw new IllegalStateException("the bundled plugins are missing from " + System.getProperty(
                    "medjava.plugins") + " (run the tests through Maven: process-test-classes copies them)");
        }
        String source = """
                package test.invert8;
                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("%s").version("1").build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster s, Raster t, Region r, FilterParams p, Implementation i) {
                                for (int y = r.y(); y < r.endY(); y++)
                                    for (int x = r.x(); x < r.endX(); x++) t.setRgb(x, y, ~s.rgbAt(x, y) & 0xFFFFFF);
                            }
                        });
                    }
                }
                """.formatted(INVERT);
        Path jar = PluginJarBuilder.plugin("invert8").version("1.0").source("test.invert8.Provider", source)
                .provider("test.invert8.Provider").build(dir.resolve("invert8.jar"));
        catalog.registry().load("invert8", jar, Map.of());
        return new TestFilters(catalog);
    }

    FilterRegistry registry() {
        return catalog.registry();
    }

    /** Runs a grey filter with its default parameters over the whole image. */
    GrayRaster16 apply(String filterId, GrayRaster16 values) {
        return registry().apply(filterId, values, null, Map.of(), Implementation.OPTIMIZED);
    }

    /** The step the viewer records for a filter with default parameters over the whole image. */
    FilterStep step(String filterId, boolean storedValues) {
        return new FilterStep(filterId, registry().validate(filterId, Map.of()).toString(), null,
                Implementation.OPTIMIZED, catalog.provenance(filterId, null), storedValues);
    }

    @Override
    public void close() {
        catalog.close();
    }
}
