package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import org.medjava.store.server.config.LinkSettings;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.medjava.filter.runtime.PluginInfo;
import org.medjava.store.core.filters.FilterRepository;
import org.medjava.store.core.StoreException;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The filter repository over HTTP: the manifest, plugin JAR downloads, and (for admins) install/replace, remove,
 * suspend and resume, all effective at once in the running store. The manifest carries an ETag, so clients that
 * follow the repository poll it cheaply with {@code If-None-Match}.
 */
@RequestScoped
@Path("filters")
@Tag(name = ApiDocs.FILTERS)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class FiltersResource {

    private static final Jsonb JSON = JsonbBuilder.create();
    private static final String JAR = "application/java-archive";

    @Inject
    FilterRepository filters;

    @Context
    SecurityContext security;

    /** Whose request this is, for the audit trail ({@link RequestCaller}). */
    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    @Inject
    LinkSettings links;

    @Context
    UriInfo uri;

    @Context
    jakarta.ws.rs.core.HttpHeaders headers;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The plugin manifest: plugins, their filters and parameter rules, SHA-256, download links",
            description = "Carries an ETag: poll it with If-None-Match (304 while nothing changed). Every node of a "
                    + "cluster serves the same manifest.")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the manifest",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "FilterManifest")))
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    public Response manifest(@Context Request request) {
        String json = JSON.toJson(FilterManifest.of(filters.plugins(), filters.filters()));
        EntityTag tag = new EntityTag(sha256(json.getBytes(StandardCharsets.UTF_8)).substring(0, 32));
        Response.ResponseBuilder notModified = request.evaluatePreconditions(tag);
        if (notModified != null) {
            return notModified.build();
        }
        return Response.ok(json, MediaType.APPLICATION_JSON_TYPE.withCharset("UTF-8")).tag(tag).build();
    }

    @GET
    @Path("{id}.jar")
    @Produces(JAR)
    @Operation(summary = "Download a plugin JAR", description = "Digest and ETag carry its SHA-256, as the manifest "
            + "does: verify before loading.")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the plugin id", example = "blur")
    @APIResponse(responseCode = "200", description = "the JAR",
            content = @Content(mediaType = "application/java-archive", schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Response download(@PathParam("id") String id) throws IOException {
        java.nio.file.Path jar = filters.jar(id);
        String sha = filters.plugin(id).map(PluginInfo::sha256).orElse(null);
        return Response.ok((jakarta.ws.rs.core.StreamingOutput) out -> Files.copy(jar, out), JAR)
                .header("Content-Length", Files.size(jar))
                .header("Content-Disposition", "attachment; filename=\"" + id + ".jar\"")
                .header("Digest", sha == null ? null : "sha-256=" + java.util.Base64.getEncoder()
                        .encodeToString(HexFormat.of().parseHex(sha)))
                .tag(sha == null ? null : new EntityTag(sha))
                .build();
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Install or replace the plugin a JAR carries, under its manifest's Plugin-Id (admin)",
            description = "The id is read from the JAR's manifest (Plugin-Id), so no one has to type it; otherwise "
            + "as PUT /filters/{id}.jar. A file that is not a JAR with a Plugin-Id, or that fails to load, is "
            + "refused (422) and the running version stays active.")
    @RequestBody(required = true, content = @Content(mediaType = "application/java-archive",
            schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "200", description = "replaced", content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Plugin")))
    @APIResponse(responseCode = "201", description = "installed", content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Plugin")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response installFromManifest(InputStream body) throws IOException {
        Access.require(security, Role.ADMIN);
        return installed(filters.install(body, RequestCaller.of(servletRequest)));
    }

    @PUT
    @Path("{id}.jar")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Install or replace a plugin JAR (admin)", description = "Loaded in its own class loader "
            + "and swapped in atomically; calls in flight finish on the old version. A JAR that fails to load, or "
            + "whose manifest names another Plugin-Id than {id}, is refused (422) and the running version stays "
            + "active. POST /filters takes the id from the manifest.")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the plugin id", example = "blur")
    @RequestBody(required = true, content = @Content(mediaType = "application/java-archive",
            schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "200", description = "replaced", content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Plugin")))
    @APIResponse(responseCode = "201", description = "installed", content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Plugin")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response install(@PathParam("id") String id, InputStream body) throws IOException {
        Access.require(security, Role.ADMIN);
        return installed(filters.install(id, body, RequestCaller.of(servletRequest)));
    }

    /** 200 with the plugin's entry when it replaced one, else 201 with its JAR's address. */
    private Response installed(FilterRepository.Installed installed) {
        String id = installed.plugin().id();
        Object entity = pluginEntry(id);
        return installed.replaced() ? Response.ok(entity).build()
                : Response.created(PublicBase.resolve(links, uri, headers, "/filters/" + id + ".jar")).entity(entity)
                        .build();
    }

    @DELETE
    @Path("{id}.jar")
    @Operation(summary = "Remove a plugin (admin)")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the plugin id", example = "blur")
    @APIResponse(responseCode = "204", description = "removed")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Response remove(@PathParam("id") String id) throws IOException {
        Access.require(security, Role.ADMIN);
        filters.remove(id, RequestCaller.of(servletRequest));
        return Response.noContent().build();
    }

    /** {@code POST /filters/{id}/suspend} or {@code /resume}: every filter of the plugin. */
    @POST
    @Path("{id}/{action: suspend|resume}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Suspend or resume every filter of a plugin (admin)", description = "A suspended "
            + "filter is refused with 409 until resumed; the plugin stays loaded.")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the plugin id", example = "blur")
    @Parameter(name = "action", in = ParameterIn.PATH, required = true,
            schema = @Schema(type = SchemaType.STRING, enumeration = {"suspend", "resume"}))
    @APIResponse(responseCode = "200", description = "the plugin's new state", content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Plugin")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    public Response suspendOrResume(@PathParam("id") String id, @PathParam("action") String action)
            throws IOException {
        Access.require(security, Role.ADMIN);
        filters.setSuspended(id, action.equals("suspend"), RequestCaller.of(servletRequest));
        return Response.ok(pluginEntry(id)).build();
    }

    private FilterManifest.Plugin pluginEntry(String id) {
        return FilterManifest.of(filters.plugins(), filters.filters()).plugins().stream()
                .filter(p -> p.id().equals(id)).findFirst()
                .orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND, "no plugin " + id));
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
