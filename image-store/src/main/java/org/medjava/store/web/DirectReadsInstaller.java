package org.medjava.store.web;

import jakarta.inject.Inject;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.HttpServerFilter;
import org.medjava.store.config.StoreConfig;
import org.medjava.store.logging.AccessLog;
import org.medjava.store.monitoring.RegistryMetrics;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.security.StoreAuthenticationMechanism;

/**
 * Puts {@link DirectReads} in front of the servlet container on each of Payara's HTTP listeners when the application
 * starts, and takes it away when it stops. Payara keeps its listeners in internal classes (no API reaches them), so
 * they are found by name, reflectively: {@code Globals} → {@code GrizzlyService} → each network listener's proxy →
 * its Grizzly listener's {@link HttpServerFilter}s, whose handler is Payara's {@code ContainerMapper}. When any of
 * that is not there (another Payara version, another server), nothing is installed and the store serves every read
 * through the container, as before — one warning says so. {@code medjava.http.direct-reads=false} turns it off.
 */
@WebListener
public class DirectReadsInstaller implements ServletContextListener {
    private static final Logger LOG = Logger.getLogger(DirectReadsInstaller.class.getName());
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

    @Override
    public void contextInitialized(ServletContextEvent event) {
        if (!config.directReads()) {
            LOG.info("direct reads off (medjava.http.direct-reads=false): every read goes through the container");
            return;
        }
        List<HttpServerFilter> filters;
        try {
            filters = payaraHttpFilters();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(Level.WARNING, "direct reads not installed (Payara's listeners were not found: {0}); every read "
                    + "goes through the servlet container", e.toString());
            return;
        }
        String contextPath = event.getServletContext().getContextPath();
        for (HttpServerFilter filter : filters) {
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

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        for (HttpServerFilter filter : wrapped) {
            if (filter.getHttpHandler() instanceof DirectReads direct) {
                filter.setHttpHandler(direct.container);
            }
        }
        wrapped.clear();
    }

    /** The HTTP server filters of every network listener Payara runs. */
    private static List<HttpServerFilter> payaraHttpFilters() throws ReflectiveOperationException {
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
        List<HttpServerFilter> filters = new ArrayList<>();
        for (Object listener : (List<?>) getAllServices.invoke(locator, listenerType, new Annotation[0])) {
            Object proxy = lookup.invoke(grizzlyService, listener);
            if (proxy == null) {
                continue; // configured, not running (the admin listener of a Micro instance)
            }
            Object grizzly = proxy.getClass().getMethod("getUnderlyingListener").invoke(proxy);
            @SuppressWarnings("unchecked")
            List<HttpServerFilter> own = (List<HttpServerFilter>) grizzly.getClass()
                    .getMethod("getFilters", Class.class).invoke(grizzly, HttpServerFilter.class);
            filters.addAll(own);
        }
        return filters;
    }
}
