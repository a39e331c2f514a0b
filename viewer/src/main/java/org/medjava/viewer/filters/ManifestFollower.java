package org.medjava.viewer.filters;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.medjava.viewer.store.Manifest;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.store.StoreException;

/**
 * Polls the store's filter manifest with {@code If-None-Match} (a 304 costs next to nothing) and hands every new
 * version to the catalog, so the Filters menu follows the store without a restart. Runs on its own daemon thread;
 * an unreachable store leaves the filters as they are and is reported through {@code status}.
 */
public final class ManifestFollower implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ManifestFollower.class.getName());

    private final FilterCatalog catalog;
    private final StoreClient client;
    private final Consumer<String> status;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "manifest-follower");
        t.setDaemon(true);
        return t;
    });
    private volatile String etag;
    private volatile boolean failing;
    private ScheduledFuture<?> polling;

    public ManifestFollower(FilterCatalog catalog, StoreClient client, Consumer<String> status) {
        this.catalog = catalog;
        this.client = client;
        this.status = status;
    }

    /** Checks at once, then every {@code interval}. */
    public synchronized void start(Duration interval) {
        polling = timer.scheduleWithFixedDelay(this::checkQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * One check, on the calling thread.
     *
     * @return whether the manifest had changed
     */
    public boolean check() throws IOException {
        Manifest manifest = client.manifest(etag);
        if (manifest == null) {
            return false;
        }
        List<String> problems = catalog.follow(manifest, client::downloadPlugin);
        if (problems.isEmpty()) {
            etag = manifest.etag(); // a refused plugin is retried next time
        } else {
            status.accept("filter repository: " + String.join("; ", problems));
        }
        return true;
    }

    private void checkQuietly() {
        try {
            check();
            if (failing) {
                failing = false;
                status.accept("filter repository reachable again");
            }
        } catch (java.util.concurrent.CancellationException e) {
            // stopped (disconnect or exit): nothing to report
        } catch (StoreException e) {
            if (e.status() == 401) {
                // a refused login (password changed, account removed) must not be retried every few seconds: each
                // try counts as a failed login, and the store's throttle would then refuse the user's next login
                status.accept("the store refused this login; the Filters menu follows the store again after the next"
                        + " login");
                stopPolling();
                return;
            }
            failed(e);
        } catch (IOException | RuntimeException e) {
            failed(e);
        }
    }

    private void failed(Exception e) {
        if (!failing) {
            failing = true;
            status.accept("filters kept as they are: " + e.getMessage());
        }
        LOG.log(Level.DEBUG, "manifest check failed: " + e);
    }

    private synchronized void stopPolling() {
        if (polling != null) {
            polling.cancel(false);
        }
    }

    @Override
    public synchronized void close() {
        if (polling != null) {
            polling.cancel(true);
        }
        timer.shutdownNow();
    }
}
