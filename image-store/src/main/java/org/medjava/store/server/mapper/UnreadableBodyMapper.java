package org.medjava.store.server.mapper;

import jakarta.json.stream.JsonParsingException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.medjava.store.server.http.ErrorBody;

/**
 * A request body the HTTP layer could not read into what the endpoint takes (malformed JSON, a number where a text
 * belongs): 400 saying so, with the parser's line and column where it has them — not a 500 naming the parser.
 */
@Provider
public class UnreadableBodyMapper implements ExceptionMapper<ProcessingException> {

    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(
            UnreadableBodyMapper.class.getName());

    @Override
    public Response toResponse(ProcessingException e) {
        LOG.log(java.util.logging.Level.FINE, "unreadable request body", e);
        String where = "";
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JsonParsingException p && p.getLocation() != null) {
                where = " (at line " + p.getLocation().getLineNumber() + ", column "
                        + p.getLocation().getColumnNumber() + ")";
            }
        }
        return ErrorBody.response(400, "the request body is not the JSON this endpoint takes" + where
                + "; see /openapi for its shape");
    }
}
