package org.medjava.viewer.ui;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.swing.SwingUtilities;
import org.medjava.viewer.filters.FilterCatalog;
import org.medjava.viewer.filters.ManifestFollower;
import org.medjava.viewer.model.BenchmarkCsv;
import org.medjava.viewer.model.RecentServers;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.store.SystemBrowser;

/**
 * Connecting to a store: the login dialog (recent servers offered), connecting with credentials given at start, a
 * new login after a 401, and what follows a connection: the recent servers list, the browsers, and following the
 * store's filter manifest.
 */
final class ConnectFlow {
    private final ViewerController controller;
    private final FilterCatalog catalog;
    private final RecentServers recent;
    private final Duration manifestInterval;
    private final BenchmarkCsv csv;
    private final List<Consumer<StoreClient>> onConnect = new ArrayList<>();
    private ManifestFollower follower;
    /** Where single sign-on opens its page; the GUI tests put their own HTTP "browser" here. */
    private SystemBrowser browser = SystemBrowser.desktop();

    /** @param csv benchmark mode's timing file, or null */
    ConnectFlow(ViewerController controller, FilterCatalog catalog, RecentServers recent, Duration manifestInterval,
                BenchmarkCsv csv) {
        this.controller = controller;
        this.catalog = catalog;
        this.recent = recent;
        this.manifestInterval = manifestInterval;
        this.csv = csv;
    }

    void useBrowser(SystemBrowser browser) {
        this.browser = browser;
    }

    /** {@code then} is told every new connection (the browsers connect through it). */
    void onConnect(Consumer<StoreClient> then) {
        onConnect.add(then);
    }

    /** Shows the connect dialog (pre-filled when given) and connects. Event thread. */
    void askConnect(String url, String user) {
        StoreClient c = new ConnectDialog(controller.owner(), controller.tasks(), page -> browser.open(page),
                recent.list(), url, user).ask();
        if (c != null) {
            connected(c);
        }
    }

    /** Connects without asking (credentials given at start); asks when that fails. Event thread. */
    void connectWith(StoreClient c) {
        StatusBar status = controller.status();
        status.message("Connecting to " + c.base() + "…");
        controller.tasks().background(p -> c.list(""), listing -> connected(c), e -> {
            status.message(e.getMessage());
            askConnect(c.base().toString(), c.user());
        });
    }

    /** Asks for a login again (after a 401) to the same store; the new client, or null. */
    StoreClient relogin() {
        StoreClient client = controller.client();
        String url = client == null ? null : client.base().toString();
        String user = client == null ? null : client.user();
        StoreClient c = new ConnectDialog(controller.owner(), controller.tasks(), page -> browser.open(page),
                recent.list(), url, user).ask();
        if (c != null) {
            connected(c);
        }
        return c;
    }

    private void connected(StoreClient c) {
        StatusBar status = controller.status();
        if (follower != null) {
            follower.close();
        }
        controller.setClient(c);
        try {
            recent.remember(new RecentServers.Server(c.base().toString(), c.user()));
        } catch (IOException e) {
            status.message("Connected, but the recent servers list could not be saved: " + e.getMessage());
        }
        controller.owner().setTitle("MedJava Viewer — " + c.user() + " @ " + c.base());
        onConnect.forEach(l -> l.accept(c));
        follower = new ManifestFollower(catalog, c, text -> SwingUtilities.invokeLater(() -> status.message(text)));
        follower.start(manifestInterval);
        status.message("Connected to " + c.base() + " as " + c.user() + (csv == null ? ""
                : "; benchmark mode: filter timings go to " + csv.file().toAbsolutePath()));
    }

    void shutdown() {
        if (follower != null) {
            follower.close();
        }
    }
}
