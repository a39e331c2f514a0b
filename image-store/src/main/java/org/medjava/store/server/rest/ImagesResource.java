package org.medjava.store.server.rest;

import org.medjava.filter.runtime.CallControl;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.index.DicomIndex;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.config.RenderSettings;
import java.util.Date;
import org.eclipse.microprofile.metrics.annotation.Counted;
import org.medjava.codec.ImageFormat;
import org.medjava.store.core.derive.DerivedImages;
import org.medjava.store.core.render.RenderQuery;
import org.medjava.store.core.render.RenderRequest;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.memory.UploadSlots;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.server.http.ClientHangups;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.http.ByteRange;
import org.medjava.store.server.http.ErrorBody;
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
 * {@code /images/...}: directory listings, file downloads with conditional requests and ranges, rendering with
 * filters ({@code ?render=png|gif|jpeg}, or {@code ?render=dicom}: the derived DICOM object of a DICOM source, filtered
 * on its stored values and not stored, for a viewer that windows it itself), uploads and deletes. HEAD is answered by the GET methods (the container drops the body).
 */
@RequestScoped
@Path("images")
@Tag(name = ApiDocs.IMAGES)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class ImagesResource {

    private static final String GET_RULES = "Files: conditional requests (If-None-Match, If-Modified-Since: 304) "
            + "and one Range (206; 416 outside the file). Directories: a listing with each file's kind, size, type "
            + "and, for DICOM, its index summary. " + ApiDocs.RENDER_RULES;
    private static final String PUT_RULES = "The body must decode as DICOM, PNG, GIF or JPEG (else 415 or 422); it is "
            + "written to a temporary file, synced and renamed, so a failed upload leaves the previous version. "
            + "DICOM files are indexed. If-Match / If-None-Match: * make it conditional (412). Bodies above "
            + "medjava.upload.max-bytes are refused (413).";

    private static final int CHUNK = 256 * 1024;

    @Inject
    ImageRepository images;

    @Inject
    ClientHangups hangups;

    @Inject
    Ingest ingest;

    @Inject
    UploadSlots uploads;

    @Inject
    DicomIndex index;

    @Inject
    RenderService renderer;

    @Inject
    DerivedImages derived;

    @Inject
    LinkSettings links;

    @Inject
    RenderSettings renderLimits;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders requestHeaders;

    @Context
    SecurityContext security;

    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    @GET
    @Operation(summary = "Listing of the store's top directory")
    @APIResponse(responseCode = "200", description = "a directory listing (JSON for Accept: application/json, else HTML)",
            content = {@Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Listing")),
                    @Content(mediaType = ApiDocs.HTML, schema = @Schema(type = SchemaType.STRING))})
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response root(@Context Request request, @Context HttpHeaders headers) throws IOException {
        return get("", request, headers);
    }

    @GET
    @Path("{path: .*}")
    @Operation(summary = "A file's bytes, a directory listing (path ending in /), or a rendering (?render=)",
            description = GET_RULES)
    @Parameter(name = "path", in = ParameterIn.PATH, required = true, description = "a directory (ending in /) or a "
            + "file under /images/", example = "samples/dicom/CT_small.dcm")
    @Parameter(ref = "render")
    @Parameter(ref = "filter")
    @Parameter(ref = "window")
    @Parameter(ref = "region")
    @Parameter(ref = "frame")
    @Parameter(ref = "impl")
    @Parameter(ref = "timeout")
    @Parameter(name = "Range", in = ParameterIn.HEADER, description = "one byte range of a file (e.g. bytes=0-1023)")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the file as stored (its own Content-Type; ETag, Last-Modified, "
            + "Accept-Ranges), a listing, or the rendered image",
            content = {@Content(mediaType = "*/*", schema = @Schema(ref = "Binary")),
                    @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Listing")),
                    @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "206", description = "the byte range asked (Content-Range)",
            content = @Content(mediaType = "*/*", schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "301", description = "a directory named without its final /: Location adds it")
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE_TO_DECODE)
    @APIResponse(responseCode = "416", ref = ApiDocs.RANGE_NOT_SATISFIABLE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response get(@PathParam("path") String raw, @Context Request request, @Context HttpHeaders headers)
            throws IOException {
        StorePath path = StorePath.parse(raw);
        StoredFile file = images.stat(path).orElseThrow(() -> new StoreException(
                StoreException.Kind.NOT_FOUND, "no " + (path.isRoot() ? "/" : path.relative()) + " in the store"));
        boolean slash = uri.getPath().endsWith("/");
        if (file.directory()) {
            if (!slash) {
                return Response.status(Response.Status.MOVED_PERMANENTLY)
                        .location(PublicBase.resolve(links, uri, requestHeaders, uri.getPath(false) + "/"
                                + (uri.getRequestUri().getRawQuery() == null ? "" : "?"
                                + uri.getRequestUri().getRawQuery()))).build();
            }
            return DirectoryView.respond(path, images, index, headers);
        }
        if (slash) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, path.relative() + " is a file, not a directory");
        }
        if (uri.getQueryParameters().containsKey("render")) {
            return FilterRuns.run(servletRequest, hangups, uri.getQueryParameters(), renderLimits,
                    control -> render(file, request, control));
        }
        return download(file, request, headers);
    }

    private Response render(StoredFile file, Request request, CallControl control) throws IOException {
        RenderQuery.check(uri.getQueryParameters());
        RenderRequest render = RenderRequest.parse(uri.getQueryParameters());
        EntityTag tag = new EntityTag(Integer.toHexString(uri.getRequestUri().getRawQuery().hashCode()) + "-"
                + file.etag().replace("\"", ""));
        Response.ResponseBuilder notModified = request.evaluatePreconditions(tag);
        if (notModified != null) {
            return notModified.build();
        }
        boolean dicom = ImageFormat.DICOM.mediaType().equals(file.contentType());
        byte[] bytes;
        RenderService.Timings timings = new RenderService.Timings();
        if (render.format() == ImageFormat.DICOM) { // the filtered stored values, for a client that windows them
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            derived.write(file.path(), render, out, timings, control);
            return Response.ok(out.toByteArray(), ImageFormat.DICOM.mediaType()).tag(tag)
                    .header("Server-Timing", timings.serverTiming()).build();
        }
        try (LocalCopy copy = images.localCopy(file.path())) {
            bytes = renderer.render(copy.path(), dicom, render, timings, control);
        }
        return Response.ok(bytes, render.format().mediaType()).tag(tag)
                .header("Server-Timing", timings.serverTiming()).build();
    }

    private Response download(StoredFile file, Request request, HttpHeaders headers) {
        EntityTag tag = EntityTag.valueOf(file.etag());
        Date modified = Date.from(file.modified());
        Response.ResponseBuilder precondition = request.evaluatePreconditions(modified, tag);
        if (precondition != null) {
            return precondition.build();
        }
        ByteRange range = null;
        String ifRange = headers.getHeaderString("If-Range");
        if (ifRange == null || ifRange.equals(file.etag())) {
            try {
                range = ByteRange.parse(headers.getHeaderString("Range"), file.size());
            } catch (ByteRange.Unsatisfiable e) {
                return Response.fromResponse(ErrorBody.response(416, "the range " + headers.getHeaderString("Range")
                        + " is outside the file (" + file.size() + " bytes)")).header("Content-Range", "bytes */"
                        + file.size()).build();
            }
        }
        long start = range == null ? 0 : range.start();
        long length = range == null ? file.size() : range.length();
        Response.ResponseBuilder response = range == null ? Response.ok() : Response.status(206)
                .header("Content-Range", "bytes " + range.start() + "-" + range.end() + "/" + file.size());
        return response.entity(send(file, start, length))
                .type(file.contentType())
                .tag(tag)
                .lastModified(modified)
                .header("Accept-Ranges", "bytes")
                .header(HttpHeaders.CONTENT_LENGTH, length)
                .build();
    }

    /** Streams a byte range of a file in large chunks (the container's output buffer takes them whole). */
    private StreamingOutput send(StoredFile file, long start, long length) {
        return (OutputStream out) -> {
            try (InputStream in = images.open(file, start, length)) {
                byte[] buffer = new byte[(int) Math.min(CHUNK, Math.max(length, 1))];
                for (int n; (n = in.readNBytes(buffer, 0, buffer.length)) > 0; ) {
                    out.write(buffer, 0, n);
                }
            }
        };
    }

    @PUT
    @Path("{path: .*}")
    @Consumes(MediaType.WILDCARD)
    @Counted(name = "uploads", absolute = true, description = "PUT requests to /images")
    @Operation(summary = "Store a file (create or replace; uploader role)", description = PUT_RULES)
    @Parameter(name = "path", in = ParameterIn.PATH, required = true, description = "where, under /images/",
            example = "samples/dicom/CT_small.dcm")
    @Parameter(name = "If-Match", in = ParameterIn.HEADER, description = "replace only this version (its ETag)")
    @Parameter(name = "If-None-Match", in = ParameterIn.HEADER, description = "*: create only, never replace")
    @RequestBody(required = true, description = "the file: DICOM Part 10, PNG, GIF or JPEG", content = {
            @Content(mediaType = ApiDocs.DICOM, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.JPEG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.GIF, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "201", description = "created (Location, ETag, Last-Modified)")
    @APIResponse(responseCode = "204", description = "replaced (ETag, Last-Modified)")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response put(@PathParam("path") String raw, InputStream body,
                        @HeaderParam(HttpHeaders.CONTENT_LENGTH) @DefaultValue("-1") long length,
                        @HeaderParam(HttpHeaders.CONTENT_TYPE) String type,
                        @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
                        @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) throws IOException {
        Access.require(security, Role.UPLOADER);
        StorePath path = StorePath.parse(raw);
        ImageRepository.PutResult result;
        try (UploadSlots.Slot slot = uploads.admit(length)) {
            result = ingest.put(path, slot.watch(body), length, type, new Preconditions(ifMatch, ifNoneMatch),
                    RequestCaller.of(servletRequest));
        }
        StoredFile stored = result.file();
        Response.ResponseBuilder response = result.created()
                ? Response.created(PublicBase.resolve(links, uri, requestHeaders, uri.getPath(false)))
                : Response.noContent();
        return response.tag(EntityTag.valueOf(stored.etag())).lastModified(Date.from(stored.modified())).build();
    }

    @DELETE
    @Path("{path: .*}")
    @Operation(summary = "Delete a file (uploader role)", description = "A DICOM file leaves the index too.")
    @Parameter(name = "path", in = ParameterIn.PATH, required = true, description = "the file under /images/")
    @Parameter(name = "If-Match", in = ParameterIn.HEADER, description = "delete only this version (its ETag)")
    @APIResponse(responseCode = "204", description = "deleted")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "412", ref = ApiDocs.PRECONDITION_FAILED)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response delete(@PathParam("path") String raw, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch)
            throws IOException {
        Access.require(security, Role.UPLOADER);
        ingest.delete(StorePath.parse(raw), new Preconditions(ifMatch, null), RequestCaller.of(servletRequest));
        return Response.noContent().build();
    }
}
