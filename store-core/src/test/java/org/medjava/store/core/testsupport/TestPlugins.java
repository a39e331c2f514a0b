package org.medjava.store.core.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import org.medjava.filter.testkit.PluginJarBuilder;

/** Throw-away filter plugins for the store's tests (built with filter-testkit's {@link PluginJarBuilder}). */
public final class TestPlugins {

    private TestPlugins() {
    }

    /**
     * A plugin {@code it-fill} whose one filter, {@code fill}, paints its region with the grey level {@code value}
     * (and says {@code value} as its version), so that which version ran is visible in the output. On grey data
     * (16-bit grey raster) it paints the stored value {@code value}.
     */
    public static Path fill(Path jar, int value) throws IOException {
        return fill(jar, value, true);
    }

    /** Grey kernel of {@code fill}: stored value {@code value}, clamped into the raster's range. */
    private static final String GREY = """
            public boolean supportsGray16() { return true; }
            public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region r, FilterParams p, Implementation i) {
                short v = (short) Math.max(src.minValue(), Math.min(src.maxValue(), %d));
                for (int y = r.y(); y < r.endY(); y++)
                    for (int x = r.x(); x < r.endX(); x++) dst.words()[y * dst.width() + x] = v;
            }
            """;

    /**
     * As {@link #fill(Path, int)}; with {@code grey} false the filter is 8-bit RGB only (as a plugin built for filter
     * API 1.0), and refuses grey data.
     */
    public static Path fill(Path jar, int value, boolean grey) throws IOException {
        String pkg = "it.fill.v" + value + (grey ? "" : "rgb");
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
                            %3$s
                        });
                    }
                }
                """.formatted(pkg, value, grey ? GREY.formatted(value) : "");
        return PluginJarBuilder.plugin("it-fill").version(Integer.toString(value))
                .source(pkg + ".Provider", source).provider(pkg + ".Provider").build(jar);
    }
}
