package org.medjava.viewer;

import com.formdev.flatlaf.FlatDarkLaf;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.swing.SwingUtilities;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.store.Credentials;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.ui.ViewerFrame;

/** Builds the viewer: look and feel, the filter registry with the bundled plugins, the main window. */
public final class ViewerApp {
    private ViewerApp() {
    }

    /** The registry and its bundled plugins (off the event thread: loading JARs takes a moment). */
    public static FilterCatalog catalog(ViewerOptions options) throws IOException {
        Path work = Files.createTempDirectory("medjava-viewer-");
        FilterCatalog catalog = new FilterCatalog(new FilterRegistry(work.resolve("registry")),
                work.resolve("downloads"), trust(options));
        List<String> problems = catalog.loadBundled(options.pluginsDir());
        problems.forEach(p -> System.err.println("viewer: bundled plugin not loaded: " + p));
        return catalog;
    }

    /**
     * Whose plugins the viewer runs: the certificates in {@code medjava.viewer.trusted-publishers} (default: the
     * bundled plugins' {@code trusted-publishers/}), policy {@code medjava.viewer.plugin-signatures} (require).
     */
    static PluginTrust trust(ViewerOptions options) throws IOException {
        String dir = System.getProperty("medjava.viewer.trusted-publishers");
        Path publishers = dir != null ? Path.of(dir)
                : options.pluginsDir() == null ? null : options.pluginsDir().resolve("trusted-publishers");
        PluginTrust.Policy policy = PluginTrust.Policy.parse(System.getProperty("medjava.viewer.plugin-signatures",
                "require"));
        return publishers == null ? PluginTrust.of(policy, List.of()) : PluginTrust.load(policy, publishers);
    }

    /** Creates and shows the main window (event thread), then connects or opens files as the options say. */
    public static ViewerFrame show(ViewerOptions options, FilterCatalog catalog) {
        FlatDarkLaf.setup();
        ViewerFrame frame = new ViewerFrame(catalog, options.benchmarkCsv(), options.manifestInterval());
        frame.setLocationRelativeTo(null);
        frame.setVisible(true);
        options.files().forEach(frame::openLocal);
        if (options.server() != null) {
            if (options.password() != null && options.user() != null) {
                StoreClient client = new StoreClient(StoreClient.parseServer(options.server()),
                        new Credentials(options.user(), options.password()));
                frame.connectWith(client);
            } else {
                SwingUtilities.invokeLater(() -> frame.askConnect(options.server(), options.user()));
            }
        }
        return frame;
    }
}
