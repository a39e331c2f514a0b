package org.medjava.store.server.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * tus 1.0: every response to a tus request but OPTIONS carries {@code Tus-Resumable} — refusals too, which the
 * store's exception mappers build without knowing the protocol.
 */
@Provider
public class TusResumableHeader implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String path = request.getUriInfo().getPath();
        boolean tus = path.equals("uploads") || path.equals("/uploads") || path.startsWith("uploads/")
                || path.startsWith("/uploads/");
        if (tus && !"OPTIONS".equals(request.getMethod())
                && !response.getHeaders().containsKey(TusHeaders.TUS_RESUMABLE)) {
            response.getHeaders().putSingle(TusHeaders.TUS_RESUMABLE, TusHeaders.VERSION);
        }
    }
}
