package org.medjava.store.web;

import org.medjava.store.render.RenderService;
import org.medjava.store.index.DicomIndex;
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
import org.medjava.store.config.StoreConfig;
import java.util.Date;
import org.eclipse.microprofile.metrics.annotation.Counted;
import org.medjava.codec.ImageFormat;
import org.medjava.store.derive.DerivedImages;
import org.medjava.store.render.RenderRequest;
import org.medjava.store.ingest.Ingest;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.storage.LocalCopy;
import org.medjava.store.repo.Preconditions;
import org.medjava.store.StoreException;
import org.medjava.store.repo.StorePath;
import org.medjava.store.repo.StoredFile;
import org.medjava.store.security.Access;
import org.medjava.store.security.Role;

/**
 * {@code /images/...}: directory listings, file downloads with conditional requests and ranges, rendering with
 * filters ({@code ?render=png|gif|jpeg}, or {@code ?render=dicom}: the derived DICOM object of a DICOM source, filtered
 * on its stored values and not stored, for a viewer that windows it itself), uploads and deletes. HEAD is answered by the GET methods (the container drops the body).
 */
@RequestScoped
@Path("images")
public class ImagesResource {

    private static final int CHUNK = 256 * 1024;

    @Inject
    ImageRepository images;

    @Inject
    Ingest ingest;

    @Inject
    DicomIndex index;

    @Inject
    RenderService renderer;

    @Inject
    DerivedImages derived;

    @Inject
    StoreConfig config;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders requestHeaders;

    @Context
    SecurityContext security;

    @GET
    public Response root(@Context Request request, @Context HttpHeaders headers) throws IOException {
        return get("", request, headers);
    }

    @GET
    @Path("{path: .*}")
    public Response get(@PathParam("path") String raw, @Context Request request, @Context HttpHeaders headers)
            throws IOException {
        StorePath path = StorePath.parse(raw);
        StoredFile file = images.stat(path).orElseThrow(() -> new StoreException(
                StoreException.Kind.NOT_FOUND, "no " + (path.isRoot() ? "/" : path.relative()) + " in the store"));
        boolean slash = uri.getPath().endsWith("/");
        if (file.directory()) {
            if (!slash) {
                return Response.status(Response.Status.MOVED_PERMANENTLY)
                        .location(PublicBase.resolve(config, uri, requestHeaders, uri.getPath(false) + "/"
                                + (uri.getRequestUri().getRawQuery() == null ? "" : "?"
                                + uri.getRequestUri().getRawQuery()))).build();
            }
            return DirectoryView.respond(path, images, index, headers);
        }
        if (slash) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, path.relative() + " is a file, not a directory");
        }
        if (uri.getQueryParameters().containsKey("render")) {
            return render(file, request);
        }
        return download(file, request, headers);
    }

    private Response render(StoredFile file, Request request) throws IOException {
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
            derived.write(file.path(), render, out, timings);
            return Response.ok(out.toByteArray(), ImageFormat.DICOM.mediaType()).tag(tag)
                    .header("Server-Timing", timings.serverTiming()).build();
        }
        try (LocalCopy copy = images.localCopy(file.path())) {
            bytes = renderer.render(copy.path(), dicom, render, timings);
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
                return Response.status(416).header("Content-Range", "bytes */" + file.size()).build();
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
    public Response put(@PathParam("path") String raw, InputStream body,
                        @HeaderParam(HttpHeaders.CONTENT_LENGTH) @DefaultValue("-1") long length,
                        @HeaderParam(HttpHeaders.CONTENT_TYPE) String type,
                        @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch,
                        @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) throws IOException {
        Access.require(security, Role.UPLOADER);
        StorePath path = StorePath.parse(raw);
        ImageRepository.PutResult result = ingest.put(path, body, length, type,
                new Preconditions(ifMatch, ifNoneMatch));
        StoredFile stored = result.file();
        Response.ResponseBuilder response = result.created()
                ? Response.created(PublicBase.resolve(config, uri, requestHeaders, uri.getPath(false)))
                : Response.noContent();
        return response.tag(EntityTag.valueOf(stored.etag())).lastModified(Date.from(stored.modified())).build();
    }

    @DELETE
    @Path("{path: .*}")
    public Response delete(@PathParam("path") String raw, @HeaderParam(HttpHeaders.IF_MATCH) String ifMatch)
            throws IOException {
        Access.require(security, Role.UPLOADER);
        ingest.delete(StorePath.parse(raw), new Preconditions(ifMatch, null));
        return Response.noContent().build();
    }
}
