package org.medjava.store.server.filter;

import jakarta.inject.Inject;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.http.ErrorBody;
import org.medjava.store.server.http.FrontHeaders;
import org.medjava.store.server.http.HostCheck;

/**
 * What every request meets first:
 * <ul>
 *   <li>the answer names the store, not the server product ({@code Server: MedJava}; no {@code X-Powered-By});
 *   <li>no answer is content-sniffed ({@code X-Content-Type-Options: nosniff}: a stored file or a listing is never
 *       run as a page of the store's origin), and over HTTPS browsers are told to keep to HTTPS
 *       ({@code Strict-Transport-Security});
 *   <li>unless a trusted proxy stands in front, a {@code Host} that does not name this server ({@link HostCheck})
 *       is refused with 400 "unknown host": absolute links are never built from it;
 *   <li>a path parameter ({@code ;name=value}, {@code ;jsessionid=}) in an {@code /images/} address is refused
 *       with 400: the container and JAX-RS cut path parameters off, so {@code x;jsessionid=1.gif} would be
 *       stored as {@code x}. A name that contains {@code ;} is written {@code %3B}.
 * </ul>
 */
public class RequestGuardFilter extends HttpFilter {

    public static final String SERVER = "MedJava";

    @Inject
    LinkSettings links;

    /** Built by the first request (the configuration is injected once, at the start, and never changes). */
    private volatile HostCheck hosts;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        response.setHeader("Server", SERVER);
        response.setHeader("X-Powered-By", null);
        securityHeaders(FrontHeaders.secure(request), response::setHeader);
        if (request.getDispatcherType() == DispatcherType.REQUEST) {
            String refusal = refusal(request);
            if (refusal != null) {
                refuse(request, response, refusal);
                return;
            }
        }
        chain.doFilter(request, response);
    }

    /** The headers every answer carries, for the container's path and {@link org.medjava.store.server.front.FrontReads} alike. */
    public static void securityHeaders(boolean secure, java.util.function.BiConsumer<String, String> header) {
        header.accept("X-Content-Type-Options", "nosniff");
        if (secure) {
            header.accept("Strict-Transport-Security", "max-age=31536000");
        }
    }

    private String refusal(HttpServletRequest request) {
        String host = request.getHeader("Host"); // none (HTTP/1.0): accepted without reading the settings
        if (host != null && !hosts().accepts(host, FrontHeaders.local(request))) {
            return "unknown host: this store does not answer to the name in the Host header (use one of its own names or "
                    + "the host of medjava.public-url, or set medjava.http.allowed-hosts)";
        }
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.startsWith("/images/") && (path.indexOf(';') >= 0 || request.isRequestedSessionIdFromURL())) {
            return "a ';' in an /images/ address starts a path parameter, which the store does not take (a session "
                    + "id belongs in a cookie); write a ';' that is part of a name as %3B";
        }
        return null;
    }

    private HostCheck hosts() {
        HostCheck check = hosts;
        if (check == null) {
            check = new HostCheck(links);
            hosts = check;
        }
        return check;
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
