package org.medjava.store.web;

import jakarta.inject.Inject;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.medjava.store.config.StoreConfig;

/**
 * What every request meets first:
 * <ul>
 *   <li>the answer names the store, not the server product ({@code Server: MedJava}; no {@code X-Powered-By});
 *   <li>without {@code medjava.public-url} and trusted forwarded headers, a {@code Host} that does not name this
 *       server ({@link AllowedHosts}) is refused with 400 "unknown host": absolute links are never built from it;
 *   <li>a path parameter ({@code ;name=value}, {@code ;jsessionid=}) in an {@code /images/} address is refused
 *       with 400: the container and JAX-RS cut path parameters off, so {@code x;jsessionid=1.gif} would be
 *       stored as {@code x}. A name that contains {@code ;} is written {@code %3B}.
 * </ul>
 */
public class RequestGuardFilter extends HttpFilter {

    static final String SERVER = "MedJava";

    @Inject
    StoreConfig config;

    private volatile AllowedHosts allowedHosts;

    /**
     * medjava.public-url as {@link StoreConfig#publicBaseUri()} gives it, looked up by the first request that needs it
     * and kept: StoreConfig's values are injected once, when the application starts, and do not change while it runs
     * (a new value takes a restart), so there is nothing to invalidate.
     */
    private volatile Optional<URI> publicBase;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        response.setHeader("Server", SERVER);
        response.setHeader("X-Powered-By", null);
        if (request.getDispatcherType() == DispatcherType.REQUEST) {
            String refusal = refusal(request);
            if (refusal != null) {
                refuse(request, response, refusal);
                return;
            }
        }
        chain.doFilter(request, response);
    }

    private String refusal(HttpServletRequest request) {
        String host = request.getHeader("Host"); // none (HTTP/1.0): links from the listener's own address
        if (host != null && publicBase().isEmpty() && !config.trustForwarded()
                && !hosts().accepts(host, request.getLocalAddr())) {
            return "unknown host: this store does not answer to the name in the Host header (use one of its own "
                    + "names, or set medjava.http.allowed-hosts or medjava.public-url)";
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.startsWith("/images/") && (path.indexOf(';') >= 0 || request.isRequestedSessionIdFromURL())) {
            return "a ';' in an /images/ address starts a path parameter, which the store does not take (a session "
                    + "id belongs in a cookie); write a ';' that is part of a name as %3B";
        }
        return null;
    }

    private Optional<URI> publicBase() {
        Optional<URI> base = publicBase;
        if (base == null) {
            base = config.publicBaseUri();
            publicBase = base;
        }
        return base;
    }

    private AllowedHosts hosts() {
        AllowedHosts hosts = allowedHosts;
        if (hosts == null) {
            hosts = AllowedHosts.of(config.allowedHosts());
            allowedHosts = hosts;
        }
        return hosts;
    }

    private static void refuse(HttpServletRequest request, HttpServletResponse response, String message)
            throws IOException {
        response.setStatus(400);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        if (!"HEAD".equals(request.getMethod())) {
            byte[] body = ErrorBody.json(400, message).getBytes(StandardCharsets.UTF_8);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }
}
