package org.medjava.filter.testkit;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Plugins whose one filter never returns on its own, for tests of deadlines and quarantine (RGB and grey alike):
 * a {@link #hostile hostile} one ignores cancellation and interrupts; an {@link #honouring honouring} one calls
 * {@code Cancellation.check()} every turn. Both sleep between turns, so a test's abandoned threads cost no CPU.
 * A hostile filter ends only when the system property {@value #RELEASE} is {@code true} (tests set it when done).
 */
public final class RunawayPlugins {
    /** System property that lets hostile filters of this JVM return (tidying up after a test). */
    public static final String RELEASE = "medjava.test.release-runaways";

    private static final String HOSTILE_TURN = """
            while (!Boolean.getBoolean("%s")) {
                try { Thread.sleep(20); } catch (InterruptedException ignored) { } // deaf to interrupts too
            }
            """.formatted(RELEASE);
    private static final String HONOURING_TURN = """
            while (true) {
                Cancellation.check();
                try { Thread.sleep(5); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
            }
            """;

    private RunawayPlugins() {
    }

    /** A plugin whose filter {@code filterId} loops until {@value #RELEASE}, ignoring every cancellation. */
    public static Path hostile(Path jar, String pluginId, String filterId) throws IOException {
        return build(jar, pluginId, filterId, HOSTILE_TURN);
    }

    /** A plugin whose filter {@code filterId} loops until its call is cancelled, checking every 5 ms. */
    public static Path honouring(Path jar, String pluginId, String filterId) throws IOException {
        return build(jar, pluginId, filterId, HONOURING_TURN);
    }

    private static Path build(Path jar, String pluginId, String filterId, String turn) throws IOException {
        String pkg = "runaway." + pluginId.replaceAll("[^A-Za-z0-9]", "");
        String source = """
                package %1$s;
                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("%2$s").version("1").build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
                                loop();
                            }
                            public boolean supportsGray16() { return true; }
                            public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region r, FilterParams p,
                                                    Implementation i) {
                                loop();
                            }
                            private void loop() {
                                %3$s
                            }
                        });
                    }
                }
                """.formatted(pkg, filterId, turn);
        return PluginJarBuilder.plugin(pluginId).version("1").source(pkg + ".Provider", source)
                .provider(pkg + ".Provider").build(jar);
    }
}
