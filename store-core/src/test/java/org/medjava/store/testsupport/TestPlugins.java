package org.medjava.store.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import org.medjava.filter.testkit.PluginJarBuilder;

/** Throw-away filter plugins for the store's tests (built with filter-testkit's {@link PluginJarBuilder}). */
public final class TestPlugins {

    private TestPlugins() {
    }

    /**
     * A plugin {@code it-fill} whose one filter, {@code fill}, paints its region with the grey level {@code value}
     * (and says {@code value} as its version), so that which version ran is visible in the output.
     */
    public static Path fill(Path jar, int value) throws IOException {
        String pkg = "it.fill.v" + value;
        String source = """
                package %1$s;
                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("fill").version("%2$d").build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
                                byte[] out = dst.rgb();
                                for (int y = r.y(); y < r.endY(); y++)
                                    for (int x = r.x(); x < r.endX(); x++)
                                        for (int c = 0; c < 3; c++) out[3 * (y * dst.width() + x) + c] = (byte) %2$d;
                            }
                        });
                    }
                }
                """.formatted(pkg, value);
        return PluginJarBuilder.plugin("it-fill").version(Integer.toString(value))
                .source(pkg + ".Provider", source).provider(pkg + ".Provider").build(jar);
    }
}
