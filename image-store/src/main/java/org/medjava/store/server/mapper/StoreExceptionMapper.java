package org.medjava.store.server.mapper;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.medjava.store.core.BusyException;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.render.FilterTimeException;
import org.medjava.store.server.logging.AccessLogFilter;
import org.medjava.store.server.security.BrowserRequests;

/** Every refusal as {@code {"status":..., "error":..., "message":...}} with the status its kind maps to. */
@Provider
public class StoreExceptionMapper implements ExceptionMapper<StoreException> {

    @Context
    HttpHeaders headers;

    @Context
    HttpServletRequest request;

    /** When a client should try again after a dependency (storage, the shared database, a lease) was away. */
    private static final int UNAVAILABLE_RETRY_SECONDS = 10;

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(
            StoreExceptionMapper.class.getName());

    /**
     * A refusal is expected: it is the client's answer, not the server log's business beyond one line — FINE for
     * the client's mistakes (4xx), WARNING for the store's trouble (5xx: storage or index away, a remote PACS
     * unreachable), never a stack trace.
     */
    @Override
    public Response toResponse(StoreException e) {
        LOG.log(e.kind().status >= 500 ? java.util.logging.Level.WARNING : java.util.logging.Level.FINE,
                "{0} {1}", new Object[] {e.kind().status, e.getMessage()});
        Response.StatusType status = Response.Status.fromStatusCode(e.kind().status);
        String reason = status != null ? status.getReasonPhrase()
                : e.kind() == StoreException.Kind.INSUFFICIENT_STORAGE ? "Insufficient Storage"
                : e.kind() == StoreException.Kind.LOCKED ? "Locked"
                : e.kind() == StoreException.Kind.CHECKSUM_MISMATCH ? "Checksum Mismatch" : "Unprocessable Content";
        Response.ResponseBuilder response = Response.status(e.kind().status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Map.of("status", e.kind().status, "error", reason, "message", e.getMessage()));
        if (e instanceof BusyException busy) {
            response.header("Retry-After", busy.retryAfterSeconds());
        } else if (e instanceof FilterTimeException t && t.retryAfterSeconds() != null) {
            response.header("Retry-After", t.retryAfterSeconds());
        } else if (e.kind() == StoreException.Kind.UNAVAILABLE) {
            response.header("Retry-After", UNAVAILABLE_RETRY_SECONDS); // a dependency away: as the index's 503
        }
        if (e.kind() == StoreException.Kind.FORBIDDEN && request != null) {
            request.setAttribute(AccessLogFilter.REFUSAL, e.getMessage()); // audited as the request ends
        }
        if (e.kind() == StoreException.Kind.UNAUTHORIZED) {
            // no Basic challenge for a page's script: the browser would open its own login prompt
            response.header("WWW-Authenticate", headers == null ? BrowserRequests.BASIC_CHALLENGE
                    : BrowserRequests.challenge(headers.getHeaderString("Sec-Fetch-Mode"),
                            headers.getHeaderString("X-Requested-With")));
        }
        return response.build();
    }
}
