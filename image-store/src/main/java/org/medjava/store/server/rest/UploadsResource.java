package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.eclipse.microprofile.metrics.annotation.Counted;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.ingest.ResumableUploads;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;

/**
 * {@code /uploads}: resumable uploads, tus 1.0 (core, creation, expiration, checksum, termination). The creation
 * names the target path under {@code /images/} and the object's SHA-256 in {@code Upload-Metadata}
 * ({@code path}, {@code sha256}; optional {@code filetype}) or the SHA-256 in {@code Repr-Digest}; chunks are
 * PATCHed at the offset HEAD gives; the last one stores the object exactly as a PUT would, once its SHA-256 matches.
 */
@RequestScoped
@Path("uploads")
@Tag(name = ApiDocs.IMAGES)
public class UploadsResource {

    private static final String RULES = "tus 1.0 (https://tus.io/protocols/resumable-upload) with the creation, "
            + "expiration, checksum (sha1, sha256; 460 on a mismatch) and termination extensions. Every request but "
            + "OPTIONS carries Tus-Resumable: 1.0.0 (else 412).";
    /** The most of a refused chunk read and dropped so that its sender gets the refusal (a client's chunk size). */
    private static final long DISCARD_LIMIT = 64L << 20;
    private static final String TUS_VERSION = "Tus-Resumable: 1.0.0 (412 otherwise)";

    @Inject
    ResumableUploads uploads;

    @Inject
    LinkSettings links;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders requestHeaders;

    @Context
    SecurityContext security;

    /** Whose request this is, for the audit trail ({@link RequestCaller}). */
    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    @OPTIONS
    @Operation(summary = "What the store speaks of tus (no login needed)", description = RULES)
    @APIResponse(responseCode = "204", description = "Tus-Version, Tus-Extension, Tus-Max-Size "
            + "(medjava.upload.max-bytes), Tus-Checksum-Algorithm")
    public Response discover() {
        return tus(Response.noContent())
                .header("Tus-Version", TusHeaders.VERSION)
                .header("Tus-Extension", TusHeaders.EXTENSIONS)
                .header("Tus-Max-Size", uploads.maxBytes())
                .header("Tus-Checksum-Algorithm", ResumableUploads.ChunkChecksum.SUPPORTED)
                .build();
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    @Counted(name = "resumable-uploads", absolute = true, description = "resumable uploads created (POST /uploads)")
    @SecurityRequirement(name = ApiDocs.BASIC)
    @SecurityRequirement(name = ApiDocs.BEARER)
    @SecurityRequirement(name = ApiDocs.SESSION)
    @Operation(summary = "Create a resumable upload (uploader role)", description = RULES + " Upload-Metadata "
            + "(base64 values) names the target path under /images/ (path), the object's SHA-256 in hex (sha256, or "
            + "Repr-Digest: sha-256=:base64: instead), optionally its type (filetype) and if-none-match * (store "
            + "only where no file is: else 412 when it is complete, as a PUT with If-None-Match: *). The length is checked "
            + "against medjava.upload.max-bytes before a byte is sent (413). The body must be empty.")
    @Parameter(name = TusHeaders.TUS_RESUMABLE, in = ParameterIn.HEADER, required = true, description = TUS_VERSION)
    @Parameter(name = TusHeaders.UPLOAD_LENGTH, in = ParameterIn.HEADER, required = true,
            description = "the whole object's size in bytes")
    @Parameter(name = TusHeaders.UPLOAD_METADATA, in = ParameterIn.HEADER, required = true,
            description = "path <base64>,sha256 <base64 of 64 hex digits>[,filetype <base64>]",
            example = "path c2FtcGxlcy9jdC5kY20=,sha256 ...")
    @Parameter(name = TusHeaders.REPR_DIGEST, in = ParameterIn.HEADER,
            description = "the object's SHA-256 as RFC 9530 has it (sha-256=:base64:), instead of the metadata")
    @APIResponse(responseCode = "201", description = "created: Location is the upload's URL; Upload-Offset: 0, "
            + "Upload-Expires")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response create(@HeaderParam(TusHeaders.TUS_RESUMABLE) String version,
                           @HeaderParam(TusHeaders.UPLOAD_LENGTH) String length,
                           @HeaderParam(TusHeaders.UPLOAD_METADATA) String metadata,
                           @HeaderParam(TusHeaders.REPR_DIGEST) String reprDigest,
                           @HeaderParam("Upload-Defer-Length") String deferLength,
                           @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength) throws IOException {
        Access.require(security, Role.UPLOADER);
        Response refused = checkVersion(version);
        if (refused != null) {
            return refused;
        }
        if (deferLength != null) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Defer-Length is not supported: give"
                    + " Upload-Length");
        }
        if (contentLength != null && !contentLength.trim().equals("0")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "creation with upload is not supported: create"
                    + " with an empty body, then PATCH the bytes");
        }
        long bytes = TusHeaders.bytes(length, TusHeaders.UPLOAD_LENGTH);
        if (bytes < 0) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Length is required");
        }
        Map<String, String> meta = TusHeaders.metadata(metadata);
        String target = meta.get("path");
        if (target == null || target.isBlank()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Metadata must name the target path"
                    + " under /images/ (path)");
        }
        String type = meta.getOrDefault("filetype", meta.get("contentType"));
        ResumableUploads.Upload upload = uploads.create(StorePath.parse(target), bytes,
                TusHeaders.sha256(meta, reprDigest), type == null || type.isBlank() ? null : type, user(),
                "*".equals(meta.get("if-none-match")));
        return tus(Response.created(PublicBase.resolve(links, uri, requestHeaders, "uploads/" + upload.id())))
                .header(TusHeaders.UPLOAD_OFFSET, upload.offset())
                .header(TusHeaders.UPLOAD_EXPIRES, TusHeaders.httpDate(upload.expires()))
                .build();
    }

    @HEAD
    @Path("{id}")
    @SecurityRequirement(name = ApiDocs.BASIC)
    @SecurityRequirement(name = ApiDocs.BEARER)
    @SecurityRequirement(name = ApiDocs.SESSION)
    @Operation(summary = "The offset of a resumable upload: where the next chunk starts", description = RULES)
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the upload (from Location)")
    @Parameter(name = TusHeaders.TUS_RESUMABLE, in = ParameterIn.HEADER, required = true, description = TUS_VERSION)
    @APIResponse(responseCode = "200", description = "Upload-Offset, Upload-Length, Upload-Expires; no body")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "410", description = "the upload expired (and is removed)",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    public Response offset(@PathParam("id") String id, @HeaderParam(TusHeaders.TUS_RESUMABLE) String version) {
        Access.require(security, Role.UPLOADER);
        Response refused = checkVersion(version);
        if (refused != null) {
            return refused;
        }
        ResumableUploads.Upload upload = uploads.status(id, user());
        return tus(Response.ok())
                .header(TusHeaders.UPLOAD_OFFSET, upload.offset())
                .header(TusHeaders.UPLOAD_LENGTH, upload.length())
                .header(TusHeaders.UPLOAD_EXPIRES, TusHeaders.httpDate(upload.expires()))
                .header("Cache-Control", "no-store")
                .build();
    }

    @PATCH
    @Path("{id}")
    @Consumes(MediaType.WILDCARD)
    @SecurityRequirement(name = ApiDocs.BASIC)
    @SecurityRequirement(name = ApiDocs.BEARER)
    @SecurityRequirement(name = ApiDocs.SESSION)
    @Operation(summary = "Append a chunk to a resumable upload (the last one stores the object)", description = RULES
            + " The chunk goes at Upload-Offset, which must be the upload's (409 otherwise: ask HEAD). A chunk that "
            + "breaks off is kept as far as it arrived, unless it carried Upload-Checksum. When the last byte is in, "
            + "the object's SHA-256 is checked (460 and the upload is discarded when it differs) and the object is "
            + "stored as a PUT stores it: the same validation (415, 422) and index.")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the upload (from Location)")
    @Parameter(name = TusHeaders.TUS_RESUMABLE, in = ParameterIn.HEADER, required = true, description = TUS_VERSION)
    @Parameter(name = TusHeaders.UPLOAD_OFFSET, in = ParameterIn.HEADER, required = true,
            description = "where this chunk starts: the upload's offset")
    @Parameter(name = TusHeaders.UPLOAD_CHECKSUM, in = ParameterIn.HEADER,
            description = "the chunk's checksum: sha1 or sha256, a space, the digest in base64")
    @RequestBody(required = true, description = "the chunk", content = @Content(
            mediaType = TusHeaders.OFFSET_OCTET_STREAM, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "204", description = "appended: Upload-Offset is the new offset, Upload-Expires; "
            + "after the last chunk also ETag and Content-Location of the stored object")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "410", description = "the upload expired (and is removed)",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "423", description = "another request is appending to this upload: ask HEAD, retry",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    @APIResponse(responseCode = "460", description = "checksum mismatch: the chunk (discarded, the offset stays) or "
            + "the whole object's SHA-256 (the upload is discarded, nothing stored)",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response append(@PathParam("id") String id, InputStream body,
                           @HeaderParam(TusHeaders.TUS_RESUMABLE) String version,
                           @HeaderParam(TusHeaders.UPLOAD_OFFSET) String offset,
                           @HeaderParam(TusHeaders.UPLOAD_CHECKSUM) String checksum,
                           @HeaderParam(HttpHeaders.CONTENT_TYPE) String type,
                           @HeaderParam(HttpHeaders.CONTENT_LENGTH) String contentLength) throws IOException {
        Access.require(security, Role.UPLOADER);
        Response refused = checkVersion(version);
        if (refused != null) {
            return refused;
        }
        if (type == null || !type.trim().toLowerCase(java.util.Locale.ROOT).startsWith(TusHeaders.OFFSET_OCTET_STREAM)) {
            throw new StoreException(StoreException.Kind.UNSUPPORTED_MEDIA_TYPE, "a chunk is sent as "
                    + TusHeaders.OFFSET_OCTET_STREAM);
        }
        long at = TusHeaders.bytes(offset, TusHeaders.UPLOAD_OFFSET);
        if (at < 0) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Offset is required");
        }
        long declared = TusHeaders.bytes(contentLength, HttpHeaders.CONTENT_LENGTH);
        ResumableUploads.Appended appended;
        try {
            appended = uploads.append(id, user(), at, body, declared,
                    checksum == null ? null : ResumableUploads.ChunkChecksum.parse(checksum),
                            RequestCaller.of(servletRequest));
        } catch (StoreException refusal) {
            if (refusal.kind() != StoreException.Kind.BAD_REQUEST) { // not when the body itself broke off
                discardUnread(body, declared);
            }
            throw refusal;
        }
        Response.ResponseBuilder response = tus(Response.noContent())
                .header(TusHeaders.UPLOAD_OFFSET, appended.upload().offset())
                .header(TusHeaders.UPLOAD_EXPIRES, TusHeaders.httpDate(appended.upload().expires()));
        ImageRepository.PutResult stored = appended.stored();
        if (stored != null) {
            response.tag(EntityTag.valueOf(stored.file().etag()))
                    .header("Content-Location", PublicBase.resolve(links, uri, requestHeaders,
                            "images/" + encoded(stored.file().path())));
        }
        return response.build();
    }

    /**
     * Reads and drops what is left of a refused chunk (409 while another PATCH is still appending, 423, 404...), so
     * that the client, still sending, gets the refusal instead of a connection reset: the container closes a
     * connection whose body was left unread, and a tus client sending 8 MiB saw only "EOF". Bounded by
     * {@link #DISCARD_LIMIT}; beyond it the connection may close as before. A body that stalls ends at the
     * container's read timeout.
     */
    private static void discardUnread(InputStream body, long declared) {
        if (declared > DISCARD_LIMIT) {
            return;
        }
        byte[] buffer = new byte[64 << 10];
        long left = DISCARD_LIMIT;
        try {
            for (int n; left > 0 && (n = body.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0; ) {
                left -= n;
            }
        } catch (IOException gone) {
            // the client went: nobody is waiting for the refusal either
        }
    }

    @DELETE
    @Path("{id}")
    @SecurityRequirement(name = ApiDocs.BASIC)
    @SecurityRequirement(name = ApiDocs.BEARER)
    @SecurityRequirement(name = ApiDocs.SESSION)
    @Operation(summary = "Abandon a resumable upload (tus termination)", description = RULES)
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the upload (from Location)")
    @Parameter(name = TusHeaders.TUS_RESUMABLE, in = ParameterIn.HEADER, required = true, description = TUS_VERSION)
    @APIResponse(responseCode = "204", description = "the upload and what it received are gone")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    @APIResponse(responseCode = "423", description = "a chunk is being appended: retry when it is in",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    public Response terminate(@PathParam("id") String id, @HeaderParam(TusHeaders.TUS_RESUMABLE) String version)
            throws IOException {
        Access.require(security, Role.UPLOADER);
        Response refused = checkVersion(version);
        if (refused != null) {
            return refused;
        }
        uploads.terminate(id, user());
        return tus(Response.noContent()).build();
    }

    /** A store path as a URL path: each segment percent-encoded. */
    private static String encoded(StorePath path) {
        return java.util.Arrays.stream(path.relative().split("/"))
                .map(s -> java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20"))
                .collect(java.util.stream.Collectors.joining("/"));
    }

    private String user() {
        return security.getUserPrincipal() == null ? "" : security.getUserPrincipal().getName();
    }

    private static Response.ResponseBuilder tus(Response.ResponseBuilder response) {
        return response.header(TusHeaders.TUS_RESUMABLE, TusHeaders.VERSION);
    }

    /** tus: a version the store does not speak is 412 with the versions it does (Tus-Version). */
    private static Response checkVersion(String version) {
        if (version != null && version.trim().equals(TusHeaders.VERSION)) {
            return null;
        }
        String message = version == null ? "a tus request needs Tus-Resumable: " + TusHeaders.VERSION
                : "tus version " + version + " is not supported; the store speaks " + TusHeaders.VERSION;
        return tus(Response.status(412)).header("Tus-Version", TusHeaders.VERSION)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(Map.of("status", 412, "error", "Precondition Failed", "message", message)).build();
    }
}
