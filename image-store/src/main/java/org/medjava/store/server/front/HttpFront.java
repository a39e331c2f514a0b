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

    private FrontServer server;
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
        try {
            InetSocketAddress bind = http.bind().map(host -> new InetSocketAddress(host, port))
                    .orElseGet(() -> new InetSocketAddress(port));
            InetSocketAddress payara = new InetSocketAddress(InetAddress.getLoopbackAddress(), http.backendPort());
            InetSocketAddress tlsBind = http.httpsPort().map(tlsPort -> http.httpsBind()
                    .map(host -> new InetSocketAddress(host, tlsPort)).orElseGet(() -> new InetSocketAddress(tlsPort)))
                    .orElse(null);
            SslContext tls = null;
            if (tlsBind != null) {
                Map.Entry<Path, char[]> keys = config.tls().keystoreOrJvms();
                tls = FrontServer.tls(keys.getKey(), keys.getValue());
            }
            server = new FrontServer(bind, tlsBind, tls, payara, http.maxRelayed(), http.maxWaiting(), reads, dicomWeb,
                    Duration.ofSeconds(http.headerTimeoutSeconds()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening the HTTP port " + port, e);
        } catch (java.net.BindException | io.netty.channel.unix.Errors.NativeIoException e) { // a port in use
            throw new IllegalStateException("cannot open the store's HTTP port " + port + http.httpsPort()
                    .map(p -> " or its HTTPS port " + p).orElse("") + ": " + e.getMessage(), e);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("medjava.http.bind or medjava.https.bind names no address of this "
                    + "machine: " + e.getMessage(), e);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the store's TLS key store: " + e, e);
        } catch (RuntimeException e) { // the application must not run without its port: the deployment fails
            throw new IllegalStateException("cannot open the store's HTTP port " + port + ": " + e, e);
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (server != null) {
            server.close();
            server = null;
            reads.close();
            if (dicomWeb != null) {
                dicomWeb.close();
            }
        }
    }
}
