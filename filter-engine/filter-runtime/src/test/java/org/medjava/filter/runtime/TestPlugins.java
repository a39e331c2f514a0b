package org.medjava.filter.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.medjava.filter.testkit.PluginJarBuilder;

/**
 * Throw-away plugins for registry tests. The "fill" filter sets every region byte to a constant, so a result
 * tells which version produced it. Its plugin records life-cycle calls in a marker file named by the load
 * property {@code marker}: "fini inflight=N" proves fini ran once, after the last call.
 */
final class TestPlugins {
    private TestPlugins() {
    }

    /** Source of a provider offering one fill filter; {@code applyBody} runs before filling (e.g. a sleep). */
    static String fillProvider(String pkg, String filterId, int value, String applyBody, String initBody) {
        return """
                package %1$s;

                import java.nio.file.*;
                import java.util.*;
                import java.util.concurrent.atomic.AtomicInteger;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;

                public class Provider implements FilterProvider {
                    static final AtomicInteger IN_FLIGHT = new AtomicInteger();
                    private String marker;

                    @Override public void init(PluginContext ctx) {
                        marker = ctx.properties().get("marker");
                        %5$s
                    }

                    @Override public void fini() {
                        if (marker != null) {
                            try {
                                Files.writeString(Path.of(marker), "fini inflight=" + IN_FLIGHT.get() + "\\n",
                                        StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                            } catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }
                        }
                    }

                    @Override public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("%2$s").version("%3$d")
                                    .param(ParamSpec.oddInteger("n", 3, 1, 9, "a size")).build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
                                IN_FLIGHT.incrementAndGet();
                                try {
                                    %4$s
                                    byte[] out = dst.rgb();
                                    for (int y = r.y(); y < r.endY(); y++)
                                        for (int x = r.x(); x < r.endX(); x++)
                                            for (int c = 0; c < 3; c++) out[3 * (y * dst.width() + x) + c] = (byte) %3$d;
                                } finally {
                                    IN_FLIGHT.decrementAndGet();
                                }
                            }
                        });
                    }
                }
                """.formatted(pkg, filterId, value, applyBody, initBody);
    }

    /** A complete text resource for {@link #textedJar}'s filter, its help saying {@code help}. */
    static String texts(String help) {
        return """
                description = Sets the region to grey p (a test filter).
                help = %s
                param.p.label = Greyness
                param.p.description = p in percent of 255
                param.p.help = How grey; higher is lighter.
                """.formatted(help);
    }

    /**
     * A plugin (API 1.5) whose filter {@code test.texts.Grey}, the same class name in every such JAR, takes its texts
     * from {@code test/texts/Grey.properties} in the JAR: {@code texts}, or none when null.
     */
    static Path textedJar(Path jar, String pluginId, String filterId, String texts) throws IOException {
        String filter = """
                package test.texts;
                import org.medjava.filter.*;
                public class Grey implements Filter {
                    final FilterDescriptor d = FilterDescriptor.builder("%s").version("1").text(Grey.class)
                            .param(ParamSpec.integer("p", 50, 0, 100)).build();
                    public FilterDescriptor descriptor() { return d; }
                    public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
                    }
                }
                """.formatted(filterId);
        PluginJarBuilder builder = PluginJarBuilder.plugin(pluginId).source("test.texts.Grey", filter)
                .source("test.texts.Provider", """
                        package test.texts;
                        public class Provider implements org.medjava.filter.spi.FilterProvider {
                            public java.util.List<org.medjava.filter.Filter> filters() {
                                return java.util.List.of(new Grey());
                            }
                        }
                        """).provider("test.texts.Provider");
        if (texts != null) {
            builder.entry("test/texts/Grey.properties", texts.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build(jar);
    }

    static Path fillJar(Path jar, String pluginId, String filterId, int value, String applyBody) throws IOException {
        return fillJar(jar, pluginId, filterId, value, applyBody, "");
    }

    static Path fillJar(Path jar, String pluginId, String filterId, int value, String applyBody, String initBody)
            throws IOException {
        String pkg = "test." + pluginId.replace("-", "") + ".v" + value;
        return PluginJarBuilder.plugin(pluginId).version(Integer.toString(value))
                .source(pkg + ".Provider", fillProvider(pkg, filterId, value, applyBody, initBody))
                .provider(pkg + ".Provider").build(jar);
    }
}
