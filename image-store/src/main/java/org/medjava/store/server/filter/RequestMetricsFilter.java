package org.medjava.store.server.filter;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.medjava.store.server.monitoring.RegistryMetrics;

/**
 * Times every HTTP request the application answers, body included, and records it by method, endpoint and status
 * class ({@code medjava_http_requests}). The endpoint is the matched resource's path template, set by
 * {@link EndpointTemplate} ({@code /images/{path}}), never the path itself: no patient data or UIDs in labels.
 * Payara's {@code /metrics}, {@code /health} and {@code /openapi} count under those names, requests no resource
 * matched as {@code unmatched}.
 */
public class RequestMetricsFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;

    @Inject
    RegistryMetrics metrics;

    /** Payara's own endpoints by name (a scraper's and a balancer's requests); anything else no resource served. */
    private static String unmatched(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        for (String own : MICROPROFILE) {
            if (path.equals(own) || path.startsWith(own + "/")) {
                return own;
            }
        }
        return "unmatched";
    }

    private static final String[] MICROPROFILE = {"/metrics", "/health", "/openapi"};

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long t0 = System.nanoTime();
        int status = 500; // unless the chain ends normally
        try {
            chain.doFilter(request, response);
            status = response.getStatus();
        } finally {
            Object endpoint = request.getAttribute(EndpointTemplate.ATTRIBUTE);
            metrics.request(request.getMethod(), endpoint != null ? endpoint.toString() : unmatched(request), status,
                    System.nanoTime() - t0);
        }
    }
}
