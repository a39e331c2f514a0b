package org.medjava.store.web;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;

/**
 * Jersey's own refusals under {@code /dicomweb} (no such resource: 404, wrong method: 405, ...) as the short JSON
 * the store's other refusals are, instead of the web container's HTML error page, which DICOMweb clients cannot
 * show. Elsewhere the response is left as it was.
 */
@Provider
public class DicomWebErrorMapper implements ExceptionMapper<WebApplicationException> {

    @Context
    UriInfo uri;

    @Override
    public Response toResponse(WebApplicationException e) {
        Response response = e.getResponse();
        if (response.hasEntity() || !MediaTypeHeaderFilter.isDicomWeb(uri.getPath())) {
            return response;
        }
        Response.StatusType status = response.getStatusInfo();
        String message = switch (status.getStatusCode()) {
            case 404 -> "no DICOMweb resource at /" + uri.getPath() + " (studies, series, instances, their metadata, "
                    + "frames, bulk, rendered and thumbnail resources are served; see PS3.18)";
            case 405 -> "/" + uri.getPath() + " does not take this method";
            default -> e.getMessage() == null ? status.getReasonPhrase() : e.getMessage();
        };
        return Response.fromResponse(response).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Map.of("status", status.getStatusCode(), "error", status.getReasonPhrase(), "message",
                        message)).build();
    }
}
