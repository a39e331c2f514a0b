package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.config.RenderSettings;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.derive.DerivedImages;
import org.medjava.store.core.ingest.Ingested;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.server.http.ClientHangups;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /derived}: keep a filtered image as derived DICOM (the web viewer's "save"). The body names a stored
 * DICOM image and what to do to it, as the rendered endpoint takes it: {@code {"source": "samples/dicom/CT.dcm",
 * "frame": 0, "window": "40,400", "filters": ["blur:n=3", "sharpen:p=50"], "region": "x,y,w,h", "impl": "optimized"}}.
 * 201 with the new object's path and UIDs; 400 for a bad chain or a non-DICOM source, 404, 409 (suspended), 422.
 */
@RequestScoped
@Path("derived")
@Tag(name = ApiDocs.IMAGES)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class DerivedResource {

    /** The body: everything but {@code source} optional. */
    @Schema(name = "Derivation", description = "A stored DICOM image and what to do to it, as GET "
            + "/images/{path}?render= takes it; everything but source optional.", example = "{\"source\": "
            + "\"samples/dicom/CT_small.dcm\", \"window\": \"40,400\", \"filters\": [\"blur:n=3\"]}")
    public record Derivation(String source, Integer frame, String window, List<String> filters, String region,
                             String impl) {
    }

    @Inject
    DerivedImages derived;

    @Inject
    ClientHangups hangups;

    @Context
    SecurityContext security;

    @Context
    UriInfo uri;

    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    @Context
    jakarta.ws.rs.core.HttpHeaders headers;

    @jakarta.inject.Inject
    LinkSettings links;

    @jakarta.inject.Inject
    RenderSettings renderLimits;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Store a filtered image as a derived DICOM object (uploader role)", description = "The new "
            + "object refers to its source, has new series and instance UIDs, and holds the filtered stored values at "
            + "the source's depth (the window is only its default presentation). " + ApiDocs.RENDER_RULES)
    @org.eclipse.microprofile.openapi.annotations.parameters.Parameter(ref = "timeout")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "Derivation")))
    @APIResponse(responseCode = "201", description = "stored; Location is its URL under /images/",
            headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DerivedObject")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response derive(Derivation body) throws IOException {
        Access.require(security, Role.UPLOADER);
        if (body == null || body.source() == null || body.source().isBlank()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "send {\"source\": \"<path under /images/>\", "
                    + "\"filters\": [\"blur:n=3\", ...], \"window\": \"center,width\", \"frame\": 0, \"region\": "
                    + "\"x,y,w,h\"}");
        }
        Map<String, List<String>> query = new HashMap<>();
        query.put("render", List.of("png"));
        if (body.frame() != null) {
            query.put("frame", List.of(body.frame().toString()));
        }
        put(query, "window", body.window());
        put(query, "region", body.region());
        put(query, "impl", body.impl());
        if (body.filters() != null && !body.filters().isEmpty()) {
            query.put("filter", new ArrayList<>(body.filters()));
        }
        org.medjava.store.core.render.RenderQuery.check(query);
        RenderRequest render = RenderRequest.parse(query);
        Ingested stored = FilterRuns.run(servletRequest, hangups, uri.getQueryParameters(), renderLimits,
                control -> derived.derive(StorePath.parse(body.source()), render, control,
                        RequestCaller.of(servletRequest)));
        String path = stored.path().relative();
        return Response.created(PublicBase.resolve(links, uri, headers, jakarta.ws.rs.core.UriBuilder.fromPath("images")
                        .path(path).build().getRawPath()))
                .entity(Json.createObjectBuilder().add("path", path).add("studyUid", stored.studyInstanceUid())
                        .add("seriesUid", stored.seriesInstanceUid()).add("sopInstanceUid", stored.sopInstanceUid())
                        .add("sopClassUid", stored.sopClassUid()).build().toString())
                .type(MediaType.APPLICATION_JSON).build();
    }

    private static void put(Map<String, List<String>> query, String key, String value) {
        if (value != null && !value.isBlank()) {
            query.put(key, List.of(value));
        }
    }
}
