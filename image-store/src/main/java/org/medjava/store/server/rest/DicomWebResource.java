package org.medjava.store.server.rest;

import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.render.RenderService;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.memory.UploadSlots;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.server.config.AccessSettings;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.config.UploadSettings;
import org.medjava.store.server.config.DicomSettings;
import org.medjava.store.server.config.RenderSettings;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.Request;
import org.medjava.store.net.dicomweb.AcceptHeader;
import org.medjava.store.net.dicomweb.DicomWebUrls;
import org.medjava.store.net.dicomweb.Negotiation;
import org.medjava.store.net.dicomweb.RenderedImages;
import org.medjava.store.net.dicomweb.QidoParams;
import org.medjava.store.net.dicomweb.QidoService;
import org.medjava.store.net.dicomweb.ReadyMetadataService;
import org.medjava.store.net.dicomweb.StowService;
import org.medjava.store.net.dicomweb.ThumbnailCache;
import org.medjava.store.net.dicomweb.Uids;
import org.medjava.store.net.dicomweb.WadoService;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.ReadyMetadata;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.TrashScope;
import org.medjava.store.core.trash.Trash;
import org.medjava.store.server.http.AcceptEncoding;
import org.medjava.store.server.http.ByteRange;
import org.medjava.store.server.http.ClientHangups;
import org.medjava.store.server.http.ErrorBody;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.filter.MediaTypeHeaderFilter;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * DICOMweb under {@code /dicomweb}: QIDO-RS, WADO-RS (with rendered and thumbnail resources) and STOW-RS (PS3.18).
 * Each resource negotiates its answer from the Accept header as {@link MediaTypeHeaderFilter} read it (Jersey is
 * shown {@code *}{@code /*}); absolute URIs are built on {@link PublicBase}. Authentication is the store's: reads
 * need a login unless anonymous reads are on, STOW needs the uploader role.
 */
@RequestScoped
@Path("dicomweb")
@Tag(name = ApiDocs.DICOMWEB)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class DicomWebResource {

    private static final String RETRIEVE = "multipart/related parts negotiated from the Accept header: instances "
            + "as application/dicom (as stored, or in an uncompressed transfer syntax on request, decompressed if "
            + "need be); frames and bulk data as stored or decoded on request. A type the store cannot send: 406.";
    private static final String RENDERED = "JPEG by default; PNG or GIF by Accept. Takes window and the store's "
            + "filter, region and impl as GET /images/{path}?render= does; answered 304 to a current If-None-Match.";
    private static final String THUMBNAIL = "The image in its default window, fitted into viewport (128 square "
            + "unless given); JPEG by default, PNG or GIF by Accept.";
    private static final String STORE = "Each part is validated and stored as PUT /images would (under "
            + "dicom/{PatientID}/{StudyInstanceUID}/...). The answer lists what was stored and, with reasons, what "
            + "was not; objects are stored or refused one by one.";

    @Inject
    AccessSettings access;

    @Inject
    LinkSettings links;

    @Inject
    UploadSettings uploadLimits;

    @Inject
    DicomSettings dicom;

    @Inject
    RenderSettings renderLimits;

    @Inject
    ClientHangups hangups;

    @Inject
    ImageRepository images;

    @Inject
    DicomIndex index;

    @Inject
    Ingest ingest;

    @Inject
    UploadSlots uploads;

    @Inject
    RenderService renderer;

    @Inject
    ThumbnailCache thumbnails;

    @Inject
    ArchiveSearch search;

    @Inject
    Trash trash;

    @Inject
    ReadAudit audit;

    @Context
    UriInfo uri;

    @Context
    SecurityContext security;

    @Context
    HttpHeaders headers;

    @Context
    ContainerRequestContext request;

    @Context
    Request httpRequest;

    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    /** Rendered images and thumbnails: kept by the client, revalidated by entity tag (they may hold patient data). */
    private static final CacheControl CACHE = CacheControl.valueOf("private, no-cache");

    // ------------------------------------------------------------------------------------------------ QIDO-RS

    @GET
    @Path("studies")
    @Operation(summary = "QIDO-RS: search for studies", description = ApiDocs.QIDO_KEYS)
    @Parameter(ref = "PatientID")
    @Parameter(ref = "PatientName")
    @Parameter(ref = "StudyDate")
    @Parameter(ref = "AccessionNumber")
    @Parameter(ref = "ModalitiesInStudy")
    @Parameter(ref = "StudyInstanceUID")
    @Parameter(ref = "includefield")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @Parameter(ref = "orderby")
    @APIResponse(responseCode = "200", description = "the matches (an empty array when none)", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response studies() {
        return json("the studies", () -> qido().studies(params(QueryLevel.STUDY, Map.of()), urls()));
    }

    @GET
    @Path("series")
    @Operation(summary = "QIDO-RS: search for series in all studies", description = ApiDocs.QIDO_KEYS)
    @Parameter(ref = "Modality")
    @Parameter(ref = "SeriesInstanceUID")
    @Parameter(ref = "StudyInstanceUID")
    @Parameter(ref = "includefield")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @Parameter(ref = "orderby")
    @APIResponse(responseCode = "200", description = "the matches (an empty array when none)", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response allSeries() {
        return json("the series", () -> qido().series(params(QueryLevel.SERIES, Map.of()), urls()));
    }

    @GET
    @Path("studies/{study}/series")
    @Operation(summary = "QIDO-RS: search for the series of a study", description = ApiDocs.QIDO_KEYS)
    @Parameter(ref = "Modality")
    @Parameter(ref = "SeriesInstanceUID")
    @Parameter(ref = "includefield")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @Parameter(ref = "orderby")
    @APIResponse(responseCode = "200", description = "the matches (an empty array when none)", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response series(@PathParam("study") String study) {
        return json("the series", () -> qido().series(params(QueryLevel.SERIES, Map.of("StudyInstanceUID",
                Uids.check(study, "study"))), urls()));
    }

    @GET
    @Path("instances")
    @Operation(summary = "QIDO-RS: search for instances in all studies", description = ApiDocs.QIDO_KEYS)
    @Parameter(ref = "SOPInstanceUID")
    @Parameter(ref = "SeriesInstanceUID")
    @Parameter(ref = "StudyInstanceUID")
    @Parameter(ref = "includefield")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @Parameter(ref = "orderby")
    @APIResponse(responseCode = "200", description = "the matches (an empty array when none)", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response allInstances() {
        return json("the instances", () -> qido().instances(params(QueryLevel.IMAGE, Map.of()), urls()));
    }

    @GET
    @Path("studies/{study}/instances")
    @Operation(summary = "QIDO-RS: search for the instances of a study", description = ApiDocs.QIDO_KEYS)
    @Parameter(ref = "SOPInstanceUID")
    @Parameter(ref = "SeriesInstanceUID")
    @Parameter(ref = "includefield")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @Parameter(ref = "orderby")
    @APIResponse(responseCode = "200", description = "the matches (an empty array when none)", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response studyInstances(@PathParam("study") String study) {
        return json("the instances", () -> qido().instances(params(QueryLevel.IMAGE, Map.of("StudyInstanceUID",
                Uids.check(study, "study"))), urls()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances")
    @Operation(summary = "QIDO-RS: search for the instances of a series", description = ApiDocs.QIDO_KEYS)
    @Parameter(ref = "SOPInstanceUID")
    @Parameter(ref = "includefield")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @Parameter(ref = "orderby")
    @APIResponse(responseCode = "200", description = "the matches (an empty array when none)", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response instances(@PathParam("study") String study, @PathParam("series") String series) {
        return json("the instances", () -> qido().instances(params(QueryLevel.IMAGE, Map.of("StudyInstanceUID",
                Uids.check(study, "study"), "SeriesInstanceUID", Uids.check(series, "series"))), urls()));
    }

    // ------------------------------------------------------------------------------------------------ WADO-RS

    @GET
    @Path("studies/{study}")
    @Operation(summary = "WADO-RS: retrieve a study", description = RETRIEVE)
    @APIResponse(responseCode = "200", description = "multipart/related parts, as the Accept header asks (DICOM "
            + "Part 10 by default)", content = @Content(mediaType = ApiDocs.MULTIPART, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response retrieveStudy(@PathParam("study") String study) {
        return body(wado().retrieve(read(wado().select(study, null, null)), accept()));
    }

    @GET
    @Path("studies/{study}/series/{series}")
    @Operation(summary = "WADO-RS: retrieve a series", description = RETRIEVE)
    @APIResponse(responseCode = "200", description = "multipart/related parts, as the Accept header asks (DICOM "
            + "Part 10 by default)", content = @Content(mediaType = ApiDocs.MULTIPART, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response retrieveSeries(@PathParam("study") String study, @PathParam("series") String series) {
        return body(wado().retrieve(read(wado().select(study, series, null)), accept()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}")
    @Operation(summary = "WADO-RS: retrieve an instance", description = RETRIEVE)
    @APIResponse(responseCode = "200", description = "multipart/related parts, as the Accept header asks (DICOM "
            + "Part 10 by default)", content = @Content(mediaType = ApiDocs.MULTIPART, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response retrieveInstance(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance) {
        return body(wado().retrieve(read(wado().select(study, series, instance)), accept()));
    }

    @GET
    @Path("studies/{study}/metadata")
    @Operation(summary = "WADO-RS: the metadata of a study's instances")
    @APIResponse(responseCode = "200", description = "one DICOM JSON data set per instance, with BulkDataURIs", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response studyMetadata(@PathParam("study") String study) {
        String type = Negotiation.json(accept(), "metadata");
        return ready(ready().study(study, urls()), type);
    }

    @GET
    @Path("studies/{study}/series/{series}/metadata")
    @Operation(summary = "WADO-RS: the metadata of a series' instances")
    @APIResponse(responseCode = "200", description = "one DICOM JSON data set per instance, with BulkDataURIs", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response seriesMetadata(@PathParam("study") String study, @PathParam("series") String series) {
        String type = Negotiation.json(accept(), "metadata");
        return ready(ready().series(study, series, urls()), type);
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/metadata")
    @Operation(summary = "WADO-RS: the metadata of an instance")
    @APIResponse(responseCode = "200", description = "one DICOM JSON data set per instance, with BulkDataURIs", content = {
            @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonArray")),
            @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "DicomJsonArray"))})
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response instanceMetadata(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance) {
        return metadata(read(wado().select(study, series, instance)));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/frames/{frames}")
    @Operation(summary = "WADO-RS: frames of an instance (pixel data)", description = RETRIEVE)
    @Parameter(name = "frames", in = ParameterIn.PATH, required = true, description = "frame numbers from 1, "
            + "comma-separated", example = "1")
    @APIResponse(responseCode = "200", description = "multipart/related parts, as the Accept header (or the accept "
            + "query parameter) asks; one frame in a single part when a single-part type is asked (e.g. image/jphc)",
            content = @Content(mediaType = ApiDocs.MULTIPART, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "206", description = "the byte range asked (Content-Range) of one frame in a single "
            + "part", content = @Content(mediaType = "image/jphc", schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "416", ref = ApiDocs.RANGE_NOT_SATISFIABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response frames(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @PathParam("frames") String frames) {
        WadoService.Body body = wado().frames(one(study, series, instance), frameList(frames), accept());
        return body.contentType().startsWith("multipart/") ? body(body) : oneFrame(body);
    }

    /**
     * One frame in a single part, whose bytes may be asked for in a range (RFC 9110 §14: one range, no If-Range;
     * several are answered whole, as the RFC allows): a prefix of an HTJ2K RPCL codestream is a lower-resolution
     * image, what Cornerstone3D's progressive loader asks for first ({@code Range: bytes=0-N}, then the rest).
     */
    private Response oneFrame(WadoService.Body body) {
        String range = headers.getHeaderString("Range");
        if (range == null || headers.getHeaderString("If-Range") != null) {
            return Response.fromResponse(body(body)).header("Accept-Ranges", "bytes").build();
        }
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        try {
            body.output().write(all);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        byte[] bytes = all.toByteArray();
        ByteRange r;
        try {
            r = ByteRange.parse(range, bytes.length);
        } catch (ByteRange.Unsatisfiable e) {
            return Response.fromResponse(ErrorBody.response(416, "the range " + range + " is outside the frame ("
                    + bytes.length + " bytes)")).header("Content-Range", "bytes */" + bytes.length).build();
        }
        Response.ResponseBuilder answer = r == null ? Response.ok(bytes, body.contentType())
                : Response.status(206).entity(java.util.Arrays.copyOfRange(bytes, (int) r.start(), (int) r.end() + 1))
                        .type(body.contentType()).header("Content-Range", "bytes " + r.start() + "-" + r.end() + "/"
                                + bytes.length);
        return answer.header("Accept-Ranges", "bytes").header(HttpHeaders.VARY, HttpHeaders.ACCEPT).build();
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/bulk/{tag}")
    @Operation(summary = "WADO-RS: bulk data of an instance (a BulkDataURI of its metadata)", description = RETRIEVE)
    @Parameter(name = "tag", in = ParameterIn.PATH, required = true, description = "the attribute's tag (GGGGEEEE)",
            example = "7FE00010")
    @APIResponse(responseCode = "200", description = "multipart/related parts, as the Accept header asks (DICOM "
            + "Part 10 by default)", content = @Content(mediaType = ApiDocs.MULTIPART, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response bulk(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @PathParam("tag") String tag) {
        return body(wado().bulk(one(study, series, instance), tag, accept()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/rendered")
    @Operation(summary = "WADO-RS rendered: an instance as an image", description = RENDERED)
    @Parameter(name = "window", in = ParameterIn.QUERY, description = "center,width[,linear] (e.g. 40,400)")
    @Parameter(ref = "filter")
    @Parameter(ref = "region")
    @Parameter(ref = "impl")
    @Parameter(ref = "timeout")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the image (ETag; Cache-Control: private, no-cache)", content = {
            @Content(mediaType = ApiDocs.JPEG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.GIF, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response rendered(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance) {
        return image(rendering().rendered(one(study, series, instance), 1, uri.getQueryParameters(), accept()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/frames/{frame}/rendered")
    @Operation(summary = "WADO-RS rendered: a frame as an image", description = RENDERED)
    @Parameter(name = "window", in = ParameterIn.QUERY, description = "center,width[,linear] (e.g. 40,400)")
    @Parameter(ref = "filter")
    @Parameter(ref = "region")
    @Parameter(ref = "impl")
    @Parameter(ref = "timeout")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the image (ETag; Cache-Control: private, no-cache)", content = {
            @Content(mediaType = ApiDocs.JPEG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.GIF, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response renderedFrame(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @PathParam("frame") String frame) {
        return image(rendering().rendered(one(study, series, instance), oneFrame(frame), uri.getQueryParameters(),
                accept()));
    }

    // ------------------------------------------------------------------------------------------------ thumbnails

    @GET
    @Path("studies/{study}/thumbnail")
    @Operation(summary = "WADO-RS thumbnail of a study (its representative instance)", description = THUMBNAIL)
    @Parameter(ref = "viewport")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the image (ETag; Cache-Control: private, no-cache)", content = {
            @Content(mediaType = ApiDocs.JPEG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.GIF, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response studyThumbnail(@PathParam("study") String study) {
        return image(rendering().thumbnail(read(wado().select(study, null, null), 1), null,
                uri.getQueryParameters(), accept()));
    }

    @GET
    @Path("studies/{study}/series/{series}/thumbnail")
    @Operation(summary = "WADO-RS thumbnail of a series (its middle instance)", description = THUMBNAIL)
    @Parameter(ref = "viewport")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the image (ETag; Cache-Control: private, no-cache)", content = {
            @Content(mediaType = ApiDocs.JPEG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.GIF, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response seriesThumbnail(@PathParam("study") String study, @PathParam("series") String series) {
        return image(rendering().thumbnail(read(wado().select(study, series, null), 1), null,
                uri.getQueryParameters(), accept()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/thumbnail")
    @Operation(summary = "WADO-RS thumbnail of an instance", description = THUMBNAIL)
    @Parameter(ref = "viewport")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the image (ETag; Cache-Control: private, no-cache)", content = {
            @Content(mediaType = ApiDocs.JPEG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.GIF, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response instanceThumbnail(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance) {
        return image(rendering().thumbnail(read(wado().select(study, series, instance), 1), null,
                uri.getQueryParameters(), accept()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/frames/{frame}/thumbnail")
    @Operation(summary = "WADO-RS thumbnail of a frame", description = THUMBNAIL)
    @Parameter(ref = "viewport")
    @Parameter(ref = "If-None-Match")
    @APIResponse(responseCode = "200", description = "the image (ETag; Cache-Control: private, no-cache)", content = {
            @Content(mediaType = ApiDocs.JPEG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.PNG, schema = @Schema(ref = "Binary")),
            @Content(mediaType = ApiDocs.GIF, schema = @Schema(ref = "Binary"))})
    @APIResponse(responseCode = "304", ref = ApiDocs.NOT_MODIFIED)
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "406", ref = ApiDocs.NOT_ACCEPTABLE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response frameThumbnail(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @PathParam("frame") String frame) {
        return image(rendering().thumbnail(read(wado().select(study, series, instance), 1), oneFrame(frame),
                uri.getQueryParameters(), accept()));
    }

    // ------------------------------------------------------------------------------------------------ STOW-RS

    // ------------------------------------------------------------------------------------- delete (to the trash)

    private static final String DELETE_DOC = "Into the trash (see /trash): at once out of every query, retrieve and"
            + " listing, on every node; restorable until medjava.trash.grace-hours (72) have passed, then purged in the"
            + " background. A deletion of more than medjava.delete.guard-share (25%) of the store's instances (and at"
            + " least medjava.delete.guard-min-instances) is refused with 409 unless an administrator adds force=true."
            + " Answered with the deletion and its URL in the trash.";

    @DELETE
    @Path("studies/{study}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Delete a study (uploader role)", description = DELETE_DOC)
    @APIResponse(responseCode = "200", description = "moved to the trash", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "Deletion")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response deleteStudy(@PathParam("study") String study,
            @Parameter(description = "an administrator's override of the guard") @QueryParam("force") boolean force,
            @Parameter(description = "why, for the trash and the audit trail (at most 256 characters)")
            @QueryParam("reason") String reason) {
        return deleted(() -> TrashScope.study(study), force, reason);
    }

    @DELETE
    @Path("studies/{study}/series/{series}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Delete a series (uploader role)", description = DELETE_DOC)
    @APIResponse(responseCode = "200", description = "moved to the trash", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "Deletion")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response deleteSeries(@PathParam("study") String study, @PathParam("series") String series,
            @Parameter(description = "an administrator's override of the guard") @QueryParam("force") boolean force,
            @Parameter(description = "why, for the trash and the audit trail (at most 256 characters)")
            @QueryParam("reason") String reason) {
        return deleted(() -> TrashScope.series(study, series), force, reason);
    }

    @DELETE
    @Path("studies/{study}/series/{series}/instances/{instance}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Delete an instance (uploader role)", description = DELETE_DOC)
    @APIResponse(responseCode = "200", description = "moved to the trash", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "Deletion")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response deleteInstance(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance,
            @Parameter(description = "an administrator's override of the guard") @QueryParam("force") boolean force,
            @Parameter(description = "why, for the trash and the audit trail (at most 256 characters)")
            @QueryParam("reason") String reason) {
        return deleted(() -> TrashScope.instance(study, series, instance), force, reason);
    }

    /** (Payara's OpenAPI cannot read a @BeanParam's parameters: force and reason are repeated on each resource.) */
    private Response deleted(java.util.function.Supplier<TrashScope> scope, boolean force, String reason) {
        TrashScope named;
        try {
            named = scope.get();
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage());
        }
        org.medjava.store.server.security.StudyAccess.requireVisible(index, visibility(), named.studyInstanceUid(),
                null);
        return TrashResource.delete(trash, named, force, reason, security, RequestCaller.of(servletRequest), links,
                uri, headers);
    }

    @POST
    @Path("studies")
    @Consumes("*/*")
    @Operation(summary = "STOW-RS: store instances (uploader role)", description = STORE)
    @RequestBody(required = true, description = "multipart/related; type=\"application/dicom\", one DICOM Part 10 object "
            + "per part", content = @Content(mediaType = ApiDocs.MULTIPART, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "200", description = "every object stored (ReferencedSOPSequence)", content = @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonDataset")))
    @APIResponse(responseCode = "202", description = "some stored, some not (FailedSOPSequence; Warning says the first "
            + "reason)", content = @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonDataset")))
    @APIResponse(responseCode = "409", description = "none stored (FailedSOPSequence with each reason)", content = @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonDataset")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response store(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, InputStream body)
            throws IOException {
        return stow(contentType, body, null);
    }

    @POST
    @Path("studies/{study}")
    @Consumes("*/*")
    @Operation(summary = "STOW-RS: store instances of one study (uploader role)", description = STORE)
    @RequestBody(required = true, description = "multipart/related; type=\"application/dicom\", one DICOM Part 10 object "
            + "per part", content = @Content(mediaType = ApiDocs.MULTIPART, schema = @Schema(ref = "Binary")))
    @APIResponse(responseCode = "200", description = "every object stored (ReferencedSOPSequence)", content = @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonDataset")))
    @APIResponse(responseCode = "202", description = "some stored, some not (FailedSOPSequence; Warning says the first "
            + "reason)", content = @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonDataset")))
    @APIResponse(responseCode = "409", description = "none stored (FailedSOPSequence with each reason)", content = @Content(mediaType = ApiDocs.DICOM_JSON, schema = @Schema(ref = "DicomJsonDataset")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "415", ref = ApiDocs.UNSUPPORTED_MEDIA_TYPE)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response storeInStudy(@PathParam("study") String study,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, InputStream body) throws IOException {
        return stow(contentType, body, study);
    }

    private Response stow(String contentType, InputStream body, String study) throws IOException {
        Access.require(security, Role.UPLOADER);
        String type = stowAnswerType();
        StowService.Answer answer;
        try (UploadSlots.Slot slot = uploads.admit(headers.getLength())) { // by Content-Length: 503 before any part
            answer = new StowService(ingest, uploadLimits.maxBytes()).store(contentType, body, study, urls(),
                    RequestCaller.of(servletRequest));
        }
        Response.ResponseBuilder r = Response.status(answer.status()).entity(answer.json()).type(type);
        if (answer.firstFailure() != null) {
            r.header("Warning", "299 medjava \"" + answer.firstFailure().replace('"', '\'') + "\"");
        }
        return r.build();
    }

    /**
     * DICOM JSON, or plain JSON when only that is asked; a client that accepts neither (dicom+xml) still gets DICOM
     * JSON rather than a refusal: its objects are stored either way.
     */
    private String stowAnswerType() {
        try {
            return Negotiation.json(accept(), "the STOW-RS answer");
        } catch (StoreException e) {
            return "application/dicom+json";
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private QidoService qido() {
        return new QidoService(search, index);
    }

    private WadoService wado() {
        return new WadoService(search, index, images, dicom.aeTitle(), visibility());
    }

    private ReadyMetadataService ready() {
        return new ReadyMetadataService(wado(), index, visibility());
    }

    /** The studies this caller may see (every one, unless access by project limits them). */
    private org.medjava.store.core.index.Visibility visibility() {
        return org.medjava.store.server.security.StudyAccess.of(servletRequest, security, access.byProject());
    }

    private RenderedImages rendering() {
        return new RenderedImages(images, renderer, thumbnails);
    }

    private QidoParams params(QueryLevel level, Map<String, String> fixed) {
        return QidoParams.parse(level, uri.getQueryParameters(), fixed).visibleTo(visibility());
    }

    /** The URLs of studies, series and instances under the store's public base ({@link PublicBase}). */
    private DicomWebUrls urls() {
        return new DicomWebUrls(PublicBase.of(links, uri, headers).resolve("dicomweb").toString());
    }

    /** The request's Accept header as {@link MediaTypeHeaderFilter} read it. */
    private AcceptHeader accept() {
        Object parsed = request.getProperty(MediaTypeHeaderFilter.ACCEPT);
        return parsed instanceof AcceptHeader a ? a : AcceptHeader.parse(headers.getHeaderString(HttpHeaders.ACCEPT));
    }

    /** The instance named, counted as read (frames, bulk data, rendered). */
    private InstanceSummary one(String study, String series, String instance) {
        return read(wado().select(study, series, instance)).get(0);
    }

    public static int oneFrame(String text) {
        List<Integer> frames = frameList(text);
        if (frames.size() != 1) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "a rendered frame or thumbnail is of one "
                    + "frame, not " + text);
        }
        return frames.get(0);
    }

    public static List<Integer> frameList(String text) {
        List<Integer> frames = new ArrayList<>();
        for (String n : text.split(",")) {
            try {
                frames.add(Integer.parseInt(n.trim()));
            } catch (NumberFormatException e) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "frames: \"" + n
                        + "\" is not a frame number (frames are 1, 2, ... separated by commas)");
            }
        }
        return frames;
    }

    private Response metadata(List<InstanceSummary> instances) {
        String type = Negotiation.json(accept(), "metadata");
        return Response.ok(wado().metadata(instances, urls()), type).build();
    }

    /**
     * Metadata made ready ({@link ReadyMetadataService}): its gzip bytes as they are kept when the client accepts
     * gzip, else decompressed as they are sent; 304 to a current If-None-Match (each encoding has its own tag).
     */
    private Response ready(ReadyMetadata made, String type) {
        read(made.studyUid(), made.patientId(), made.instances());
        boolean gzip = AcceptEncoding.gzip(headers.getHeaderString(HttpHeaders.ACCEPT_ENCODING));
        EntityTag tag = new EntityTag(ReadyMetadataService.etag(made, urls()) + (gzip ? "-gzip" : ""));
        Response.ResponseBuilder answer = httpRequest.evaluatePreconditions(tag);
        if (answer == null) {
            answer = gzip ? Response.ok(made.gzip(), type).header(HttpHeaders.CONTENT_ENCODING, "gzip")
                    : Response.ok((StreamingOutput) out -> {
                        try (InputStream json = ReadyMetadataService.json(made)) {
                            json.transferTo(out);
                        }
                    }, type).header(HttpHeaders.CONTENT_LENGTH, made.jsonLength());
        }
        return answer.tag(tag).cacheControl(CACHE).header(HttpHeaders.VARY, HttpHeaders.ACCEPT + ", "
                + HttpHeaders.ACCEPT_ENCODING).build();
    }

    /** A QIDO-RS answer: the media type negotiated before the query runs; the query counted for the audit trail. */
    private Response json(String what, java.util.function.Supplier<String> query) {
        String type = Negotiation.json(accept(), what);
        Response answer = Response.ok(query.get(), type).build();
        jakarta.ws.rs.core.MultivaluedMap<String, String> keys = uri.getQueryParameters();
        Map<String, String> path = uri.getPathParameters().entrySet().stream().collect(java.util.stream.Collectors
                .toMap(Map.Entry::getKey, e -> e.getValue().get(0)));
        audit.query(RequestCaller.of(servletRequest), DOOR, "/" + uri.getPath(), uri.getRequestUri().getRawQuery(),
                path.getOrDefault("study", keys.getFirst("StudyInstanceUID")), keys.getFirst("PatientID"));
        return answer;
    }

    /** The audit trail's name for the DICOMweb reads the container answers. */
    static final String DOOR = "dicomweb";

    /** Instances read, counted for the audit trail (by study: a selection is of one study). */
    private List<InstanceSummary> read(List<InstanceSummary> instances) {
        return read(instances, instances.size());
    }

    /** {@code count} instances of a study read, counted for the audit trail. */
    private void read(String study, String patientId, int count) {
        audit.read(RequestCaller.of(servletRequest), DOOR, study, patientId, count);
    }

    /** {@code read} of the selected instances read (a thumbnail: its one representative instance). */
    private List<InstanceSummary> read(List<InstanceSummary> instances, int read) {
        if (!instances.isEmpty()) {
            InstanceSummary first = instances.get(0);
            audit.read(RequestCaller.of(servletRequest), DOOR, first.studyInstanceUid(), first.patientId(), read);
        }
        return instances;
    }

    private static Response body(WadoService.Body body) {
        StreamingOutput output = out -> body.output().write(out);
        return Response.ok(output, body.contentType()).header(HttpHeaders.VARY, HttpHeaders.ACCEPT).build();
    }

    /** A rendered image or thumbnail: 304 when the client's copy is current, else rendered now. */
    private Response image(RenderedImages.Image image) {
        EntityTag tag = new EntityTag(image.etag());
        Response.ResponseBuilder notModified = httpRequest.evaluatePreconditions(tag);
        if (notModified != null) {
            return notModified.header(HttpHeaders.VARY, HttpHeaders.ACCEPT).cacheControl(CACHE).build();
        }
        byte[] made;
        try {
            made = FilterRuns.run(servletRequest, hangups, uri.getQueryParameters(), renderLimits,
                    control -> image.maker().make(control));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return Response.ok(made, image.contentType()).tag(tag).cacheControl(CACHE)
                .header(HttpHeaders.VARY, HttpHeaders.ACCEPT).build();
    }
}
