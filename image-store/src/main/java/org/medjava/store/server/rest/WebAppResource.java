package org.medjava.store.server.rest;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The browser applications, static files packaged by the {@code web} module under {@code META-INF/medjava-web/}:
 * MedJava's own viewer and console at {@code /viewer/}, the prebuilt OHIF viewer at {@code /ohif/} (a single-page
 * app: a path that names no file gets its {@code index.html}), the API browser (Swagger UI on {@code /openapi}) at
 * {@code /api/}. Open without a login (they hold no data; every
 * request they make for data is authenticated). A Content-Security-Policy keeps both from loading anything from
 * another origin.
 */
@ApplicationScoped
@Path("")
@Tag(name = ApiDocs.APPLICATIONS)
public class WebAppResource {

    private static final String FILE = "A static file with its ETag (304 to a current If-None-Match), "
            + "Content-Security-Policy and Cache-Control (immutable for content-hashed names).";

    private static final String ROOT = "META-INF/medjava-web/";
    private static final String FAVICON = "favicon.ico";
    /** Names a browser may ask for: no "..", no backslashes, no hidden files. */
    private static final Pattern SAFE = Pattern.compile("(?:[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*/)*[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]*");
    /** Content-hashed bundle names (OHIF's {@code app.bundle.0f6159c501addfe9.js}, {@code 34b1e6b1deb5828e.wasm}). */
    private static final Pattern HASHED = Pattern.compile("(?:^|.*[./])[0-9a-f]{16}\\.[a-z0-9]+$");

    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("html", "text/html; charset=utf-8"), Map.entry("js", "text/javascript; charset=utf-8"),
            Map.entry("mjs", "text/javascript; charset=utf-8"), Map.entry("css", "text/css; charset=utf-8"),
            Map.entry("json", "application/json"), Map.entry("wasm", "application/wasm"),
            Map.entry("png", "image/png"), Map.entry("svg", "image/svg+xml"), Map.entry("ico", "image/x-icon"),
            Map.entry("jpg", "image/jpeg"), Map.entry("gif", "image/gif"), Map.entry("woff2", "font/woff2"),
            Map.entry("woff", "font/woff"), Map.entry("ttf", "font/ttf"), Map.entry("txt", "text/plain; charset=utf-8"),
            Map.entry("md", "text/plain; charset=utf-8"));

    /** Ours: only the store's origin; WebAssembly for the codecs; workers from the store or blob URLs. */
    static final String VIEWER_POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; worker-src 'self' blob:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'";
    /**
     * OHIF: its files, its pages' inline bootstrap scripts by hash ({@link InlineScripts}, in place of
     * {@code INLINE}), WebAssembly, and nothing from another origin; no {@code 'unsafe-inline'} or {@code 'unsafe-eval'}
     * for scripts.
     */
    static final String OHIF_POLICY = "default-src 'self'; script-src 'self' INLINE 'wasm-unsafe-eval' blob:; "
            + "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; "
            + "worker-src 'self' blob:; connect-src 'self' data: blob:; object-src 'none'; base-uri 'self'; "
            + "frame-ancestors 'self'";

    /** Swagger UI: its own scripts and styles (inline styles for its widgets), calls to the store only. */
    static final String API_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
            + "frame-ancestors 'self'";

    /** Files found, kept once read (a bounded set: what the web JAR holds); misses are not remembered. */
    private final Map<String, Asset> assets = new ConcurrentHashMap<>();

    private record Asset(byte[] bytes, String etag, String inlineScripts) {
    }

    @GET
    @Path("viewer")
    @Operation(hidden = true)
    public Response viewerDirectory() {
        return Response.status(Response.Status.MOVED_PERMANENTLY).location(URI.create("viewer/")).build();
    }

    @GET
    @Path("viewer/{file: .*}")
    @Operation(summary = "MedJava's browser application (static files)", description = FILE)
    @APIResponse(responseCode = "200", description = "the file", content = @Content(mediaType = "*/*", schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "404", description = "no such file",
            content = @Content(mediaType = "text/plain", schema = @Schema(type = SchemaType.STRING)))
    public Response viewer(@PathParam("file") String file, @Context Request request) {
        return serve("viewer", file.isEmpty() ? "index.html" : file, false, request);
    }

    @HEAD
    @Path("viewer/{file: .*}")
    @Operation(hidden = true)
    public Response viewerHead(@PathParam("file") String file, @Context Request request) {
        return viewer(file, request);
    }

    /** The icon every browser asks the site root for, whatever page it shows: the viewer's, open, cached a day. */
    @GET
    @Path("favicon.ico")
    @Operation(hidden = true)
    public Response favicon(@Context Request request) {
        return serve("viewer", FAVICON, false, request);
    }

    @GET
    @Path("ohif")
    @Operation(hidden = true)
    public Response ohifDirectory() {
        return Response.status(Response.Status.MOVED_PERMANENTLY).location(URI.create("ohif/")).build();
    }

    @GET
    @Path("ohif/{file: .*}")
    @Operation(summary = "The OHIF viewer (static files; paths without a file are its routes)", description = FILE)
    @APIResponse(responseCode = "200", description = "the file, or index.html for a route",
            content = @Content(mediaType = "*/*", schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "404", description = "no such file",
            content = @Content(mediaType = "text/plain", schema = @Schema(type = SchemaType.STRING)))
    public Response ohif(@PathParam("file") String file, @Context Request request) {
        return serve("ohif", file.isEmpty() ? "index.html" : file, true, request);
    }

    @GET
    @Path("api")
    @Operation(hidden = true)
    public Response apiDirectory() {
        return Response.status(Response.Status.MOVED_PERMANENTLY).location(URI.create("api/")).build();
    }

    @GET
    @Path("api/{file: .*}")
    @Operation(summary = "The API browser: Swagger UI on this document (static files)", description = FILE)
    @APIResponse(responseCode = "200", description = "the file", content = @Content(mediaType = "*/*", schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "404", description = "no such file",
            content = @Content(mediaType = "text/plain", schema = @Schema(type = SchemaType.STRING)))
    public Response api(@PathParam("file") String file, @Context Request request) {
        return serve("api", file.isEmpty() ? "index.html" : file, false, request);
    }

    private Response serve(String app, String file, boolean singlePage, Request request) {
        Optional<Asset> asset = SAFE.matcher(file).matches() ? load(app + "/" + file) : Optional.empty();
        String name = file;
        if (asset.isEmpty() && singlePage && !lastSegment(file).contains(".")) {
            name = "index.html";
            asset = load(app + "/index.html");
        }
        if (asset.isEmpty()) {
            return Response.status(Response.Status.NOT_FOUND).type("text/plain; charset=utf-8")
                    .entity("no such file in the " + app + " application: " + file + "\n").build();
        }
        EntityTag etag = new EntityTag(asset.get().etag());
        String policy = app.equals("ohif") ? ohifPolicy(asset.get()) : app.equals("api") ? API_POLICY
                : VIEWER_POLICY;
        String cache = HASHED.matcher(name).matches() ? "public, max-age=31536000, immutable"
                : name.equals(FAVICON) ? "public, max-age=86400" : "no-cache";
        Response.ResponseBuilder notModified = request.evaluatePreconditions(etag);
        Response.ResponseBuilder builder = notModified != null ? notModified
                : Response.ok(asset.get().bytes(), type(name));
        return builder.tag(etag).header("Cache-Control", cache).header("Content-Security-Policy", policy)
                .header("Referrer-Policy", "same-origin").build(); // nosniff: RequestGuardFilter, on every answer
    }

    private Optional<Asset> load(String name) {
        return Optional.ofNullable(assets.computeIfAbsent(name, n -> {
            try (InputStream in = WebAppResource.class.getClassLoader().getResourceAsStream(ROOT + n)) {
                if (in == null) {
                    return null;
                }
                byte[] bytes = in.readAllBytes();
                return new Asset(bytes, sha256(bytes), n.endsWith(".html") ? InlineScripts.hashSources(bytes) : "");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }));
    }

    private static String ohifPolicy(Asset asset) {
        return OHIF_POLICY.replace("INLINE ", asset.inlineScripts().isEmpty() ? "" : asset.inlineScripts() + " ");
    }

    private static String lastSegment(String file) {
        return file.substring(file.lastIndexOf('/') + 1);
    }

    static String type(String name) {
        String ext = lastSegment(name);
        ext = ext.contains(".") ? ext.substring(ext.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT) : "";
        return TYPES.getOrDefault(ext, "application/octet-stream");
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
