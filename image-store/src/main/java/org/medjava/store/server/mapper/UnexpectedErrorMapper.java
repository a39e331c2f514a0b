package org.medjava.store.server.mapper;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.server.http.ErrorBody;

/**
 * Whatever no other mapper answers: a fault of the store, not of the request. The client gets 500 with an incident
 * number and nothing of the fault itself (no exception class, no stack trace, no server product); the server log
 * gets the whole fault under the same number, so an operator can find it.
 */
@Provider
public class UnexpectedErrorMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = Logger.getLogger(UnexpectedErrorMapper.class.getName());

    @Override
    public Response toResponse(Throwable e) {
        String incident = UUID.randomUUID().toString().substring(0, 8);
        LOG.log(Level.SEVERE, "incident " + incident + ": request failed", e);
        return ErrorBody.response(500, "the store failed to answer this request (incident " + incident
                + " in the server log)");
    }
}
