package org.medjava.store.server.logging;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;

/**
 * Every request the application serves, in the access log, and its caller noted on it for the audit trail
 * ({@link RequestCaller}: resources pass it to the store's doors).
 * The requests the authentication mechanism answers itself (a 401, a CORS preflight, a redirect to the login page)
 * never get here: the mechanism logs them ({@link #logRefused}). A request refused with 403 (a role it lacks) is
 * also an audit event of its caller, with the request and the reason ({@link #REFUSAL}).
 */
public class AccessLogFilter extends HttpFilter {

    /** The request attribute holding {@link System#nanoTime()} when the store first saw the request. */
    public static final String START = AccessLogFilter.class.getName() + ".start";
    /** The request attribute holding why the request was refused with 403, for the audit trail. */
    public static final String REFUSAL = AccessLogFilter.class.getName() + ".refusal";
    /** The door the audit trail names for the refusals of the application's HTTP API. */
    private static final String DOOR = "http";

    @Inject
    AccessLog log;

    @Inject
    LinkSettings links;

    /** Looked up at the refusal: the trail opens after the filter is made. */
    @Inject
    Instance<AuditTrail> audit;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long start = start(request);
        CountingResponse counted = new CountingResponse(response);
        Caller caller = Caller.account(request.getRemoteUser(), PublicBase.clientAddress(links, request));
        request.setAttribute(RequestCaller.ATTRIBUTE, caller);
        boolean failed = true;
        try {
            chain.doFilter(request, counted);
            if (!request.isAsyncStarted()) {
                counted.finish();
            }
            failed = false;
        } finally {
            if (!failed && request.isAsyncStarted()) {
                request.getAsyncContext().addListener(new AsyncListener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        counted.finish();
                        write(request, counted, counted.getStatus(), start);
                        refused(caller, request, counted.getStatus());
                    }

                    @Override
                    public void onTimeout(AsyncEvent event) {
                    }

                    @Override
                    public void onError(AsyncEvent event) {
                    }

                    @Override
                    public void onStartAsync(AsyncEvent event) {
                    }
                });
            } else {
                write(request, counted, failed ? 500 : counted.getStatus(), start);
                refused(caller, request, failed ? 500 : counted.getStatus());
            }
        }
    }

    private void write(HttpServletRequest request, CountingResponse response, int status, long start) {
        log.record(Instant.now(), PublicBase.clientAddress(links, request), request.getRemoteUser(),
                request.getMethod(), request.getRequestURI(), request.getQueryString(), status, response.bytes(),
                (System.nanoTime() - start) / 1_000_000);
    }

    private void refused(Caller caller, HttpServletRequest request, int status) {
        if (status != HttpServletResponse.SC_FORBIDDEN) {
            return;
        }
        String what = request.getMethod() + " " + request.getRequestURI();
        Object why = request.getAttribute(REFUSAL);
        audit.get().record(AuditEvents.readRefused(caller, DOOR, request.getRequestURI(), what + " refused: "
                + (why == null ? "403 Forbidden" : why)));
    }

    /** Logs a request the authentication mechanism answered itself ({@code bytes}: the body it wrote). */
    public static void logRefused(AccessLog log, LinkSettings links, HttpServletRequest request,
                                  HttpServletResponse response, long bytes) {
        log.record(Instant.now(), PublicBase.clientAddress(links, request), null, request.getMethod(),
                request.getRequestURI(), request.getQueryString(), response.getStatus(), bytes,
                (System.nanoTime() - start(request)) / 1_000_000);
    }

    /** When the store first saw the request (the authentication mechanism marks it), else now. */
    public static long start(HttpServletRequest request) {
        Object start = request.getAttribute(START);
        if (start instanceof Long t) {
            return t;
        }
        long now = System.nanoTime();
        request.setAttribute(START, now);
        return now;
    }
}
