package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The root sends browsers to the web application and other clients to the image browser. */
@RequestScoped
@Path("")
public class RootResource {

    @GET
    @Operation(summary = "The store's root: browsers go to /viewer/, other clients to /images/")
    @Tag(name = ApiDocs.APPLICATIONS)
    @APIResponse(responseCode = "303", description = "see Location",
            headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    public Response root(@jakarta.ws.rs.core.Context jakarta.ws.rs.core.HttpHeaders headers) {
        boolean browser = headers.getAcceptableMediaTypes().stream()
                .anyMatch(t -> t.getType().equals("text") && t.getSubtype().equals("html"));
        return Response.seeOther(URI.create(browser ? "viewer/" : "images/")).build();
    }
}
