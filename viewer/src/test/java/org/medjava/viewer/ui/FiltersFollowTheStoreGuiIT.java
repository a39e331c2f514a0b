package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.swing.JMenuItem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.medjava.filter.testkit.PluginJarBuilder;

/**
 * A plugin installed, replaced, suspended, resumed and removed on the store appears, changes, greys out and
 * disappears in the running viewer's Filters menu, without a restart; and the downloaded plugin really runs.
 */
class FiltersFollowTheStoreGuiIT extends ViewerGuiFixture {
    @BeforeEach
    void startViewer() throws Exception {
        startViewerAsAdmin(null);
    }

    private static byte[] invertJar(Path dir, int version) throws Exception {
        String pkg = "gui.invert.v" + version;
        String source = """
                package %1$s;
                import java.util.List;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("invert").displayName("Invert v%2$d")
                                    .version("%2$d").build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster s, Raster t, Region r, FilterParams p, Implementation i) {
                                for (int y = r.y(); y < r.endY(); y++)
                                    for (int x = r.x(); x < r.endX(); x++) t.setRgb(x, y, ~s.rgbAt(x, y) & 0xFFFFFF);
                            }
                        });
                    }
                }
                """.formatted(pkg, version);
        Path jar = PluginJarBuilder.plugin("invert").version(Integer.toString(version))
                .source(pkg + ".Provider", source).provider(pkg + ".Provider").build(dir.resolve("invert-" + version
                        + ".jar"));
        return Files.readAllBytes(jar);
    }

    private JMenuItem item(String filterId) {
        return viewer.onEdt(() -> viewer.frame.filterItem(filterId));
    }

    private int admin(String method, String path, byte[] body) throws Exception {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body);
        return store.send(store.admin(path).header("Content-Type", "application/java-archive")
                .method(method, publisher)).statusCode();
    }

    @Test
    void theFiltersMenuFollowsTheStoresFilterRepository() throws Exception {
        Path dir = Files.createTempDirectory("plugins-");
        assertThat(item("invert")).isNull();
        assertThat(item("blur")).isNotNull();

        assertThat(admin("PUT", "/filters/invert.jar", invertJar(dir, 1))).isEqualTo(201);
        viewer.await("Invert appears", () -> viewer.frame.filterItem("invert") != null);
        assertThat(item("invert").getText()).contains("Invert v1").contains("store 1");
        assertThat(item("invert").isEnabled()).isTrue();
        viewer.onEdt(() -> {
            viewer.frame.getJMenuBar().getMenu(3).doClick(0);
            return null;
        });
        viewer.screenshot("viewer-filters-menu");
        viewer.onEdt(() -> {
            javax.swing.MenuSelectionManager.defaultManager().clearSelectedPath();
            return null;
        });

        // the downloaded plugin really runs, on an image opened from the store
        viewer.onEdt(() -> {
            viewer.frame.openStore("samples/gif/ct-small.gif");
            return null;
        });
        viewer.await("opened", () -> viewer.frame.document() != null);
        viewer.awaitIdle();
        var before = viewer.onEdt(() -> viewer.frame.document().filterInput());
        viewer.window.menuItem("filter-invert").click();
        viewer.await("inverted", () -> viewer.frame.document().history().canUndo());
        var after = viewer.onEdt(() -> viewer.frame.document().filterInput());
        assertThat(after.rgbAt(5, 5)).isEqualTo(~before.rgbAt(5, 5) & 0xFFFFFF);

        assertThat(admin("PUT", "/filters/invert.jar", invertJar(dir, 2))).isEqualTo(200);
        viewer.await("Invert is replaced by v2", () -> viewer.frame.filterItem("invert") != null
                && viewer.frame.filterItem("invert").getText().contains("Invert v2"));

        assertThat(admin("POST", "/filters/invert/suspend", null)).isEqualTo(200);
        viewer.await("Invert is suspended", () -> !viewer.frame.filterItem("invert").isEnabled());
        assertThat(item("invert").getText()).contains("suspended");

        assertThat(admin("POST", "/filters/invert/resume", null)).isEqualTo(200);
        viewer.await("Invert is resumed", () -> viewer.frame.filterItem("invert").isEnabled());

        assertThat(admin("DELETE", "/filters/invert.jar", null)).isEqualTo(204);
        viewer.await("Invert disappears", () -> viewer.frame.filterItem("invert") == null);
        assertThat(item("blur")).isNotNull();
    }
}
