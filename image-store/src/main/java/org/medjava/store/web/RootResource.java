package org.medjava.store.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/** The root sends browsers to the web application and other clients to the image browser. */
@RequestScoped
@Path("")
public class RootResource {

    @GET
    public Response root(@jakarta.ws.rs.core.Context jakarta.ws.rs.core.HttpHeaders headers) {
        boolean browser = headers.getAcceptableMediaTypes().stream()
                .anyMatch(t -> t.getType().equals("text") && t.getSubtype().equals("html"));
        return Response.seeOther(URI.create(browser ? "viewer/" : "images/")).build();
    }
}
