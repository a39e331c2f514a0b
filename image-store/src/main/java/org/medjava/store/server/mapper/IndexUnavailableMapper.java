package org.medjava.store.server.mapper;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.medjava.store.core.index.IndexException;

/**
 * The index's database failed (PostgreSQL down or restarting): 503 with the reason. Stored objects are still served
 * by path; queries come back with the database.
 */
@Provider
public class IndexUnavailableMapper implements ExceptionMapper<IndexException> {

    @Override
    public Response toResponse(IndexException e) {
        return StorageUnavailableMapper.serviceUnavailable("the DICOM index is unavailable: " + e.getMessage()
                + " (stored objects can still be read by path)");
    }
}
