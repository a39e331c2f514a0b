package org.medjava.store.web;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.medjava.store.index.IndexException;

/**
 * The index's database failed (PostgreSQL down or restarting): 503 with the reason. Stored objects are still served
 * by path; queries come back with the database.
 */
@Provider
public class IndexUnavailableMapper implements ExceptionMapper<IndexException> {

    @Override
    public Response toResponse(IndexException e) {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON_TYPE)
                .header("Retry-After", "10")
                .entity(Map.of("status", 503, "error", "Service Unavailable", "message", "the DICOM index is"
                        + " unavailable: " + e.getMessage() + " (stored objects can still be read by path)")).build();
    }
}
