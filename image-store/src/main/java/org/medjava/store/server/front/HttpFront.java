package org.medjava.store.server.front;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.Liveness;
import org.medjava.store.server.config.HttpSettings;
import org.medjava.store.server.config.StoreConfig;
import org.medjava.store.net.dicomweb.RenderedImages;
import org.medjava.store.net.dicomweb.ThumbnailCache;
import org.medjava.store.net.dicomweb.WadoService;
import org.medjava.store.server.health.LivenessFilter;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.server.logging.AccessLog;
import org.medjava.store.server.monitoring.RegistryMetrics;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.server.security.StoreAuthenticationMechanism;

/**
 * Starts the store's front ({@link FrontServer}) on {@code medjava.http.port} when the application starts, and stops
 * it when the application stops. Payara's own listener ({@code --port}, named by {@code medjava.http.backend-port})
 * then serves the front alone, on the loopback. Without {@code medjava.http.port} there is no front: Payara's
 * listener is the store's port, and every request takes the container's path (the same answers, more slowly).
 */
@WebListener
public class HttpFront implements ServletContextListener {
    private static final Logger LOG = Logger.getLogger(HttpFront.class.getName());

    @Inject
    StoreConfig config;

    @Inject
    StoreAuthenticationMechanism authentication;

    @Inject
    ImageRepository images;

    @Inject
    AccessLog accessLog;

    @Inject
    RegistryMetrics metrics;

    @Inject
    ArchiveSearch search;

    @Inject
    DicomIndex index;

    @Inject
    RenderService renderer;

    @Inject
    ThumbnailCache thumbnails;

    @Inject
    ReadAudit readAudit;

    @Inject
    @Any
    @Liveness
    Instance<HealthCheck> livenessChecks;

    /** The longest the port waits for the application's deployment to end. */
    private static final Duration DEPLOYMENT = Duration.ofMinutes(10);

    private FrontServer server; // guarded by this
    private Thread opener;
    private boolean closed; // guarded by this
    private FrontReads reads;
    private FrontDicomWeb dicomWeb;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        HttpSettings http = config.http();
        if (http.port().isEmpty()) {
            LOG.info("no front (medjava.http.port is not set): Payara's listener answers every request");
            return;
        }
        int port = http.port().get();
        List<HealthCheck> checks = livenessChecks.stream().toList(); // application-scoped: resolved once
        reads = new FrontReads(event.getServletContext().getContextPath(), config.links(), http, config.storage(),
                authentication.readAuthentication(), images, accessLog, metrics,
                pretty -> LivenessFilter.report(checks, pretty), readAudit);
        dicomWeb = !http.directReads() ? null : new FrontDicomWeb(event.getServletContext().getContextPath(),
                reads, new WadoService(search, index, images, config.dicom().aeTitle()),
                new RenderedImages(images, renderer, thumbnails), config.render(), accessLog, metrics);
        InetSocketAddress bind;
        InetSocketAddress tlsBind;
        SslContext tls = null;
        try {
            bind = http.bind().map(host -> new InetSocketAddress(host, port))
                    .orElseGet(() -> new InetSocketAddress(port));
            tlsBind = http.httpsPort().map(tlsPort -> http.httpsBind()
                    .map(host -> new InetSocketAddress(host, tlsPort)).orElseGet(() -> new InetSocketAddress(tlsPort)))
                    .orElse(null);
            if (tlsBind != null) {
                Map.Entry<Path, char[]> keys = config.tls().keystoreOrJvms();
                tls = FrontServer.tls(keys.getKey(), keys.getValue());
            }
            checkFree(bind);
            if (tlsBind != null) {
                checkFree(tlsBind);
            }
        } catch (java.net.BindException e) { // a port in use: the deployment fails, naming it
            throw new IllegalStateException("cannot open the store's HTTP port " + port + http.httpsPort()
                    .map(p -> " or its HTTPS port " + p).orElse("") + ": " + e.getMessage(), e);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("medjava.http.bind or medjava.https.bind names no address of this "
                    + "machine: " + e.getMessage(), e);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the store's TLS key store: " + e, e);
        }
        InetSocketAddress payara = new InetSocketAddress(InetAddress.getLoopbackAddress(), http.backendPort());
        SslContext tlsContext = tls;
        String live = event.getServletContext().getContextPath() + LivenessFilter.PATH;
        // The port opens once the application answers behind it: before, a request relayed to Payara would meet a
        // context not yet deployed (404 for a stored object), and a load balancer would send requests to a node
        // that accepts connections while it deploys. Until then connections are refused and go to another node.
        opener = new Thread(() -> {
            try {
                awaitDeployed(payara, live);
                FrontServer opened = open(() -> new FrontServer(bind, tlsBind, tlsContext, payara,
                        http.maxRelayed(), http.maxWaiting(), reads, dicomWeb,
                        Duration.ofSeconds(http.headerTimeoutSeconds())));
                synchronized (this) {
                    if (closed) {
                        opened.close();
                        return;
                    }
                    server = opened;
                }
                LOG.info("the store's HTTP port " + port + http.httpsPort().map(p -> " and HTTPS port " + p)
                        .orElse("") + " are open");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                LOG.log(java.util.logging.Level.SEVERE, "cannot open the store's HTTP port " + port + ": " + e, e);
            }
        }, "medjava-front-open");
        opener.setDaemon(true);
        opener.start();
    }

    /** Fails when {@code address} is taken (another process on the port), so that the deployment fails at once. */
    private static void checkFree(InetSocketAddress address) throws IOException {
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(address);
        }
    }

    /** What opens the front; {@link #open} tries it again when it fails. */
    @FunctionalInterface
    interface Opening {
        FrontServer open() throws Exception;
    }

    /** Tries to open the front this many times, a second apart. */
    static final int OPEN_ATTEMPTS = 10;

    /**
     * Opens the front, again after a failure other than a port in use. Seen in the ITs: right after Payara said it
     * was ready, Netty's first channel loaded a class through the application's class loader and met one of its JAR
     * files closed ("zip file closed", the container's doing); the store then ran without its HTTP port, and
     * answered nothing, for good. A second later the same loads succeed.
     */
    static FrontServer open(Opening opening) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return opening.open();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (attempt >= OPEN_ATTEMPTS || e instanceof java.net.BindException
                        || e.getCause() instanceof java.net.BindException) {
                    throw e;
                }
                LOG.log(java.util.logging.Level.WARNING, "opening the store's HTTP port failed (attempt " + attempt
                        + " of " + OPEN_ATTEMPTS + "), trying again in a second: " + e, e);
                Thread.sleep(1000);
            }
        }
    }

    /**
     * Waits until Payara's listener answers the application's liveness path: the application is deployed. Gives up
     * after {@link #DEPLOYMENT} (a deployment that failed after this listener started never answers).
     */
    private static void awaitDeployed(InetSocketAddress payara, String live) throws InterruptedException {
        long end = System.nanoTime() + DEPLOYMENT.toNanos();
        java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2)).build();
        java.net.URI uri = java.net.URI.create("http://" + payara.getAddress().getHostAddress() + ":"
                + payara.getPort() + live);
        while (true) {
            try {
                int status = client.send(java.net.http.HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5))
                        .build(), java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status != 404) { // Payara's 404 until the application's context is deployed
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() - end > 0) {
                throw new IllegalStateException("the application did not answer " + uri + " within " + DEPLOYMENT);
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        FrontServer open;
        synchronized (this) {
            closed = true;
            open = server;
            server = null;
        }
        if (opener != null) {
            opener.interrupt();
        }
        if (open != null) {
            open.close();
        }
        if (reads != null) {
            reads.close();
        }
        if (dicomWeb != null) {
            dicomWeb.close();
        }
    }
}
