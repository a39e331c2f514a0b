package org.medjava.store.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/** The root sends people to the image browser. */
@RequestScoped
@Path("")
public class RootResource {

    @GET
    public Response root() {
        return Response.seeOther(URI.create("images/")).build();
    }
}
