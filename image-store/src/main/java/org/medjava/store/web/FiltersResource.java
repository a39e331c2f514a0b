package org.medjava.store.web;

import jakarta.enterprise.context.RequestScoped;
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
import org.medjava.store.filters.FilterRepository;
import org.medjava.store.StoreException;
import org.medjava.store.security.Access;
import org.medjava.store.security.Role;

/**
 * The filter repository over HTTP: the manifest, plugin JAR downloads, and (for admins) install/replace, remove,
 * suspend and resume, all effective at once in the running store. The manifest carries an ETag, so clients that
 * follow the repository poll it cheaply with {@code If-None-Match}.
 */
@RequestScoped
@Path("filters")
public class FiltersResource {

    private static final Jsonb JSON = JsonbBuilder.create();
    private static final String JAR = "application/java-archive";

    @Inject
    FilterRepository filters;

    @Context
    SecurityContext security;

    @Inject
    org.medjava.store.config.StoreConfig config;

    @Context
    UriInfo uri;

    @Context
    jakarta.ws.rs.core.HttpHeaders headers;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
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

    @PUT
    @Path("{id}.jar")
    @Consumes(MediaType.WILDCARD)
    @Produces(MediaType.APPLICATION_JSON)
    public Response install(@PathParam("id") String id, InputStream body) throws IOException {
        Access.require(security, Role.ADMIN);
        FilterRepository.Installed installed = filters.install(id, body);
        Object entity = pluginEntry(id);
        return installed.replaced() ? Response.ok(entity).build()
                : Response.created(PublicBase.resolve(config, uri, headers, uri.getPath(false))).entity(entity).build();
    }

    @DELETE
    @Path("{id}.jar")
    public Response remove(@PathParam("id") String id) throws IOException {
        Access.require(security, Role.ADMIN);
        filters.remove(id);
        return Response.noContent().build();
    }

    /** {@code POST /filters/{id}/suspend} or {@code /resume}: every filter of the plugin. */
    @POST
    @Path("{id}/{action: suspend|resume}")
    @Produces(MediaType.APPLICATION_JSON)
    public Response suspendOrResume(@PathParam("id") String id, @PathParam("action") String action)
            throws IOException {
        Access.require(security, Role.ADMIN);
        filters.setSuspended(id, action.equals("suspend"));
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
