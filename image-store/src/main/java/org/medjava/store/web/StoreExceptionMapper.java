package org.medjava.store.web;

import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.medjava.store.StoreException;
import org.medjava.store.security.BrowserRequests;

/** Every refusal as {@code {"status":..., "error":..., "message":...}} with the status its kind maps to. */
@Provider
public class StoreExceptionMapper implements ExceptionMapper<StoreException> {

    @Context
    HttpHeaders headers;

    @Override
    public Response toResponse(StoreException e) {
        Response.StatusType status = Response.Status.fromStatusCode(e.kind().status);
        String reason = status != null ? status.getReasonPhrase()
                : e.kind() == StoreException.Kind.INSUFFICIENT_STORAGE ? "Insufficient Storage" : "Unprocessable Content";
        Response.ResponseBuilder response = Response.status(e.kind().status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Map.of("status", e.kind().status, "error", reason, "message", e.getMessage()));
        if (e.kind() == StoreException.Kind.UNAUTHORIZED) {
            // no Basic challenge for a page's script: the browser would open its own login prompt
            response.header("WWW-Authenticate", headers == null ? BrowserRequests.BASIC_CHALLENGE
                    : BrowserRequests.challenge(headers.getHeaderString("Sec-Fetch-Mode"),
                            headers.getHeaderString("X-Requested-With")));
        }
        return response.build();
    }
}
