package org.medjava.store.server.mapper;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.medjava.store.server.filter.MediaTypeHeaderFilter;
import org.medjava.store.server.http.ErrorBody;

/**
 * Jersey's own refusals (no such resource: 404, wrong method: 405, 406, 415, a malformed parameter: 400/404, ...)
 * as the short JSON every refusal of the store is, instead of an empty body or the web container's HTML error page,
 * which no client can show. Under {@code /dicomweb} a 404 names the resources DICOMweb serves. A refusal that has a
 * body already is left as it is.
 */
@Provider
public class DicomWebErrorMapper implements ExceptionMapper<WebApplicationException> {

    @Context
    UriInfo uri;

    @Context
    Request request;

    @Override
    public Response toResponse(WebApplicationException e) {
        Response response = e.getResponse();
        if (response.hasEntity()) {
            return response;
        }
        int status = response.getStatus();
        String path = "/" + uri.getPath();
        String message = status == 404 && MediaTypeHeaderFilter.isDicomWeb(uri.getPath())
                ? "no DICOMweb resource at " + path + " (studies, series, instances, their metadata, frames, bulk, "
                + "rendered and thumbnail resources are served; see PS3.18)"
                : ErrorBody.standardMessage(status, request == null ? null : request.getMethod(), path);
        return Response.fromResponse(response).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.of(status, message)).build();
    }
}
