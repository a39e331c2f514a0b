package org.medjava.viewer;

import com.formdev.flatlaf.FlatDarkLaf;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.swing.SwingUtilities;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.filter.runtime.PluginTrust;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.filters.FilterIsolation;
import org.medjava.viewer.store.Credentials;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.ui.ViewerFrame;

/** Builds the viewer: look and feel, the filter registry with the bundled plugins, the main window. */
public final class ViewerApp {
    private static final System.Logger LOG = System.getLogger(ViewerApp.class.getName());

    private ViewerApp() {
    }

    /**
     * The registry, its plugins in filter workers unless the options say in-process, and its bundled plugins,
     * loading in the background (the first worker starts with the first of them) while the window comes up.
     */
    public static FilterCatalog catalog(ViewerOptions options) throws IOException {
        Path work = Files.createTempDirectory("medjava-viewer-");
        Path registryDir = work.resolve("registry");
        FilterRegistry registry = null;
        String note = null;
        if (options.filterWorkers() == null) {
            note = ViewerOptions.DEFAULT_FILTERS.equals("in-process") ? "Filter workers run on Linux only"
                    : "Chosen with medjava.viewer.filters=in-process";
        } else {
            try {
                registry = new FilterRegistry(registryDir, options.filterWorkers());
            } catch (RuntimeException e) { // e.g. no POSIX file permissions for the workers' directory
                note = "Filter workers could not be prepared (" + e.getMessage() + ")";
            }
        }
        FilterCatalog catalog = new FilterCatalog(registry != null ? registry : new FilterRegistry(registryDir),
                work.resolve("downloads"), trust(options), note);
        log(catalog.isolation());
        catalog.loadBundledInBackground(options.pluginsDir()).thenAccept(problems -> problems.forEach(
                p -> System.err.println("viewer: bundled plugin not loaded: " + p)));
        return catalog;
    }

    private static void log(FilterIsolation isolation) {
        LOG.log(isolation.confined() ? Level.INFO : Level.WARNING, "filter plugins: " + isolation.details()
                .replace("\n\n", "; ").replace("\n• ", "; ").replace('\n', ' '));
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
