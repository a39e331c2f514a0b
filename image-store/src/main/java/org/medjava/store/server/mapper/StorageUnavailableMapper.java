package org.medjava.store.server.mapper;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.medjava.store.core.storage.StorageUnavailableException;

/** The storage (object storage, or the disk) cannot be reached: 503 with the reason, in the same shape as a refusal. */
@Provider
public class StorageUnavailableMapper implements ExceptionMapper<StorageUnavailableException> {

    @Override
    public Response toResponse(StorageUnavailableException e) {
        return serviceUnavailable(e.getMessage() + " (stored objects are unchanged; try again later)");
    }

    /** 503 with {@code Retry-After} and the JSON body every refusal of the store has. */
    static Response serviceUnavailable(String message) {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON_TYPE)
                .header("Retry-After", "10")
                .entity(Map.of("status", 503, "error", "Service Unavailable", "message", message)).build();
    }
}
