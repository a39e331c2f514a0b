package org.medjava.store.web;

import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.lang.annotation.Annotation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.http.HttpProbe;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.HttpServerFilter;
import org.glassfish.grizzly.http.server.HttpServerProbe;
import org.medjava.store.config.StoreConfig;
import org.medjava.store.logging.AccessLog;
import org.medjava.store.monitoring.RegistryMetrics;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.security.StoreAuthenticationMechanism;

/**
 * Puts the store's own front on each of Payara's HTTP listeners when the application starts, and takes it away when
 * it stops: {@link DirectReads} in front of the servlet container (the address check for every request, and the
 * direct file reads unless {@code medjava.http.direct-reads=false}), and the header timeout ({@link SlowHeaders}) on
 * Grizzly's monitoring probes. Payara keeps its listeners in internal classes (no API reaches them), so they are
 * found by name, reflectively: {@code Globals} → {@code GrizzlyService} → each network listener's proxy → its
 * Grizzly listener's filters. When any of that is not there (another Payara version, another server), nothing is
 * installed and the container answers everything, as before — one warning says so.
 */
@WebListener
public class HttpFrontInstaller implements ServletContextListener {
    private static final Logger LOG = Logger.getLogger(HttpFrontInstaller.class.getName());
    private static final String CONTAINER_MAPPER = "com.sun.enterprise.v3.services.impl.ContainerMapper";

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

    private final List<HttpServerFilter> wrapped = new ArrayList<>();
    private final List<Runnable> undo = new ArrayList<>();
    private SlowHeaders slowHeaders;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        List<HttpServerFilter> servers;
        List<org.glassfish.grizzly.http.HttpServerFilter> codecs;
        try {
            servers = payaraFilters(HttpServerFilter.class);
            codecs = payaraFilters(org.glassfish.grizzly.http.HttpServerFilter.class);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "the store's HTTP front was not installed (Payara's listeners were not found: {0});"
                    + " every request goes through the servlet container, with no header timeout", e.toString());
            return;
        }
        installDirectReads(event.getServletContext().getContextPath(), servers);
        installHeaderTimeout(servers, codecs);
    }

    private void installDirectReads(String contextPath, List<HttpServerFilter> servers) {
        if (!config.directReads()) {
            LOG.info("direct reads off (medjava.http.direct-reads=false): every read goes through the container");
        }
        for (HttpServerFilter filter : servers) {
            HttpHandler handler = filter.getHttpHandler();
            if (handler != null && handler.getClass().getName().equals(CONTAINER_MAPPER)) {
                filter.setHttpHandler(new DirectReads(handler, contextPath, config,
                        authentication.readAuthentication(), images, accessLog, metrics));
                wrapped.add(filter);
            }
        }
        LOG.log(wrapped.isEmpty() ? Level.WARNING : Level.FINE, "direct reads installed on {0} HTTP listener(s)",
                wrapped.size());
    }

    private void installHeaderTimeout(List<HttpServerFilter> servers,
                                      List<org.glassfish.grizzly.http.HttpServerFilter> codecs) {
        int seconds = config.headerTimeoutSeconds();
        if (seconds == 0 || servers.isEmpty() || codecs.isEmpty()) {
            LOG.log(seconds == 0 ? Level.INFO : Level.WARNING, "no header timeout: request headers may take any time "
                    + "to arrive{0}", seconds == 0 ? " (medjava.http.header-timeout-seconds=0)" : "");
            return;
        }
        slowHeaders = new SlowHeaders(Duration.ofSeconds(seconds));
        HttpProbe data = slowHeaders.dataProbe();
        HttpServerProbe requests = slowHeaders.requestProbe();
        for (org.glassfish.grizzly.http.HttpServerFilter codec : codecs) {
            codec.getMonitoringConfig().addProbes(data);
            undo.add(() -> codec.getMonitoringConfig().removeProbes(data));
        }
        for (HttpServerFilter server : servers) {
            server.getMonitoringConfig().addProbes(requests);
            undo.add(() -> server.getMonitoringConfig().removeProbes(requests));
        }
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        for (HttpServerFilter filter : wrapped) {
            if (filter.getHttpHandler() instanceof DirectReads direct) {
                filter.setHttpHandler(direct.container);
            }
        }
        wrapped.clear();
        undo.forEach(Runnable::run);
        undo.clear();
        if (slowHeaders != null) {
            slowHeaders.close();
            slowHeaders = null;
        }
    }

    /** The filters of {@code type} of every network listener Payara runs. */
    private static <T> List<T> payaraFilters(Class<T> type) throws ReflectiveOperationException {
        ClassLoader loader = HttpServerFilter.class.getClassLoader();
        Object locator = Class.forName("org.glassfish.internal.api.Globals", true, loader)
                .getMethod("getDefaultHabitat").invoke(null);
        java.lang.reflect.Method getService = Class.forName("org.glassfish.hk2.api.ServiceLocator", true, loader)
                .getMethod("getService", Class.class, Annotation[].class);
        java.lang.reflect.Method getAllServices = getService.getDeclaringClass()
                .getMethod("getAllServices", Class.class, Annotation[].class);
        Class<?> grizzlyServiceType = Class.forName("com.sun.enterprise.v3.services.impl.GrizzlyService", true,
                loader);
        Class<?> listenerType = Class.forName("org.glassfish.grizzly.config.dom.NetworkListener", true, loader);
        Object grizzlyService = getService.invoke(locator, grizzlyServiceType, new Annotation[0]);
        java.lang.reflect.Method lookup = grizzlyServiceType.getMethod("lookupNetworkProxy", listenerType);
        List<T> filters = new ArrayList<>();
        for (Object listener : (List<?>) getAllServices.invoke(locator, listenerType, new Annotation[0])) {
            Object proxy = lookup.invoke(grizzlyService, listener);
            if (proxy == null) {
                continue; // configured, not running (the admin listener of a Micro instance)
            }
            Object grizzly = proxy.getClass().getMethod("getUnderlyingListener").invoke(proxy);
            for (Object filter : (List<?>) grizzly.getClass().getMethod("getFilters", Class.class)
                    .invoke(grizzly, type)) {
                filters.add(type.cast(filter));
            }
        }
        return filters;
    }
}
