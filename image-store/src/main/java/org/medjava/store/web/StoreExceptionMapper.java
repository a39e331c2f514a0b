package org.medjava.store.web;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.medjava.store.StoreException;
import org.medjava.store.security.StoreAuthenticationMechanism;

/** Every refusal as {@code {"status":..., "error":..., "message":...}} with the status its kind maps to. */
@Provider
public class StoreExceptionMapper implements ExceptionMapper<StoreException> {

    @Override
    public Response toResponse(StoreException e) {
        Response.StatusType status = Response.Status.fromStatusCode(e.kind().status);
        String reason = status == null ? "Unprocessable Content" : status.getReasonPhrase();
        Response.ResponseBuilder response = Response.status(e.kind().status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Map.of("status", e.kind().status, "error", reason, "message", e.getMessage()));
        if (e.kind() == StoreException.Kind.UNAUTHORIZED) {
            response.header("WWW-Authenticate", StoreAuthenticationMechanism.CHALLENGE);
        }
        return response.build();
    }
}
