package org.medjava.store.web;

import org.medjava.store.query.ArchiveSearch;
import org.medjava.store.render.RenderService;
import org.medjava.store.ingest.Ingest;
import org.medjava.store.index.DicomIndex;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.config.StoreConfig;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.core.UriInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.medjava.store.dicomweb.DicomWebUrls;
import org.medjava.store.dicomweb.QidoParams;
import org.medjava.store.dicomweb.QidoService;
import org.medjava.store.dicomweb.StowService;
import org.medjava.store.dicomweb.Uids;
import org.medjava.store.dicomweb.WadoService;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.query.QueryLevel;
import org.medjava.store.StoreException;
import org.medjava.store.security.Access;
import org.medjava.store.security.Role;

/**
 * DICOMweb under {@code /dicomweb}: QIDO-RS, WADO-RS and STOW-RS (PS3.18). Authentication is the store's: reads
 * need a login unless anonymous reads are on, STOW needs the uploader role.
 */
@RequestScoped
@Path("dicomweb")
public class DicomWebResource {

    static final String DICOM_JSON = "application/dicom+json";

    @Inject
    StoreConfig config;

    @Inject
    ImageRepository images;

    @Inject
    DicomIndex index;

    @Inject
    Ingest ingest;

    @Inject
    RenderService renderer;

    @Inject
    ArchiveSearch search;

    @Context
    UriInfo uri;

    @Context
    SecurityContext security;

    // ------------------------------------------------------------------------------------------------ QIDO-RS

    @GET
    @Path("studies")
    @Produces({DICOM_JSON, "application/json"})
    public Response studies() {
        return json(qido().studies(params(QueryLevel.STUDY, Map.of()), urls()));
    }

    @GET
    @Path("series")
    @Produces({DICOM_JSON, "application/json"})
    public Response allSeries() {
        return json(qido().series(params(QueryLevel.SERIES, Map.of()), urls()));
    }

    @GET
    @Path("studies/{study}/series")
    @Produces({DICOM_JSON, "application/json"})
    public Response series(@PathParam("study") String study) {
        return json(qido().series(params(QueryLevel.SERIES, Map.of("StudyInstanceUID",
                Uids.check(study, "study"))), urls()));
    }

    @GET
    @Path("instances")
    @Produces({DICOM_JSON, "application/json"})
    public Response allInstances() {
        return json(qido().instances(params(QueryLevel.IMAGE, Map.of()), urls()));
    }

    @GET
    @Path("studies/{study}/instances")
    @Produces({DICOM_JSON, "application/json"})
    public Response studyInstances(@PathParam("study") String study) {
        return json(qido().instances(params(QueryLevel.IMAGE, Map.of("StudyInstanceUID",
                Uids.check(study, "study"))), urls()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances")
    @Produces({DICOM_JSON, "application/json"})
    public Response instances(@PathParam("study") String study, @PathParam("series") String series) {
        return json(qido().instances(params(QueryLevel.IMAGE, Map.of("StudyInstanceUID", Uids.check(study, "study"),
                "SeriesInstanceUID", Uids.check(series, "series"))), urls()));
    }

    // ------------------------------------------------------------------------------------------------ WADO-RS

    @GET
    @Path("studies/{study}")
    public Response retrieveStudy(@PathParam("study") String study, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return body(wado().retrieve(wado().select(study, null, null), accept));
    }

    @GET
    @Path("studies/{study}/series/{series}")
    public Response retrieveSeries(@PathParam("study") String study, @PathParam("series") String series,
            @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return body(wado().retrieve(wado().select(study, series, null), accept));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}")
    public Response retrieveInstance(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return body(wado().retrieve(wado().select(study, series, instance), accept));
    }

    @GET
    @Path("studies/{study}/metadata")
    @Produces({DICOM_JSON, "application/json"})
    public Response studyMetadata(@PathParam("study") String study) {
        return json(wado().metadata(wado().select(study, null, null), urls()));
    }

    @GET
    @Path("studies/{study}/series/{series}/metadata")
    @Produces({DICOM_JSON, "application/json"})
    public Response seriesMetadata(@PathParam("study") String study, @PathParam("series") String series) {
        return json(wado().metadata(wado().select(study, series, null), urls()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/metadata")
    @Produces({DICOM_JSON, "application/json"})
    public Response instanceMetadata(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance) {
        return json(wado().metadata(wado().select(study, series, instance), urls()));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/frames/{frames}")
    public Response frames(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @PathParam("frames") String frames,
            @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return body(wado().frames(one(study, series, instance), frameList(frames), accept));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/bulk/{tag}")
    public Response bulk(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @PathParam("tag") String tag,
            @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return body(wado().bulk(one(study, series, instance), tag, accept));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/rendered")
    public Response rendered(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        return body(wado().rendered(one(study, series, instance), 1, uri.getQueryParameters(), accept));
    }

    @GET
    @Path("studies/{study}/series/{series}/instances/{instance}/frames/{frame}/rendered")
    public Response renderedFrame(@PathParam("study") String study, @PathParam("series") String series,
            @PathParam("instance") String instance, @PathParam("frame") String frame,
            @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        List<Integer> frames = frameList(frame);
        if (frames.size() != 1) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "a rendered frame is one frame number");
        }
        return body(wado().rendered(one(study, series, instance), frames.get(0), uri.getQueryParameters(), accept));
    }

    // ------------------------------------------------------------------------------------------------ STOW-RS

    @POST
    @Path("studies")
    @Consumes("*/*")
    @Produces({DICOM_JSON, "application/json"})
    public Response store(@HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, InputStream body)
            throws IOException {
        return stow(contentType, body, null);
    }

    @POST
    @Path("studies/{study}")
    @Consumes("*/*")
    @Produces({DICOM_JSON, "application/json"})
    public Response storeInStudy(@PathParam("study") String study,
            @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType, InputStream body) throws IOException {
        return stow(contentType, body, study);
    }

    private Response stow(String contentType, InputStream body, String study) throws IOException {
        Access.require(security, Role.UPLOADER);
        StowService.Answer answer = new StowService(ingest, config.maxUploadBytes())
                .store(contentType, body, study, urls());
        Response.ResponseBuilder r = Response.status(answer.status()).entity(answer.json()).type(DICOM_JSON);
        if (answer.firstFailure() != null) {
            r.header("Warning", "299 medjava \"" + answer.firstFailure().replace('"', '\'') + "\"");
        }
        return r.build();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private QidoService qido() {
        return new QidoService(search, index);
    }

    private WadoService wado() {
        return new WadoService(search, index, images, renderer,
                config.dicomAeTitle());
    }

    private QidoParams params(QueryLevel level, Map<String, String> fixed) {
        return QidoParams.parse(level, uri.getQueryParameters(), fixed);
    }

    private DicomWebUrls urls() {
        return new DicomWebUrls(uri.getBaseUri().toString() + "dicomweb");
    }

    private InstanceSummary one(String study, String series, String instance) {
        return wado().select(study, series, instance).get(0);
    }

    private static List<Integer> frameList(String text) {
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

    private static Response json(String json) {
        return Response.ok(json, DICOM_JSON).build();
    }

    private static Response body(WadoService.Body body) {
        StreamingOutput output = out -> body.output().write(out);
        return Response.ok(output, body.contentType()).build();
    }
}
