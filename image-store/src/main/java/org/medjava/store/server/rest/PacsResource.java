package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.medjava.store.net.scu.RemotePacs;
import org.medjava.store.net.dimse.RemoteAe;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.StoreException;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
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
 * The store as a DICOM client of the configured remote PACS, over HTTP (for the viewer and for scripts):
 * {@code GET /pacs/remotes}; {@code POST /pacs/remotes/{ae}/echo}; C-FIND as {@code GET .../studies},
 * {@code .../studies/{uid}/series}, {@code .../studies/{uid}/series/{uid}/instances} with DICOM keywords as
 * matching keys (answers: JSON objects by keyword); {@code POST .../retrieve} and {@code POST .../send} with
 * {@code {"StudyInstanceUID": ..., "SeriesInstanceUID": ..., "SOPInstanceUID": ...}} (and {@code "method": "move"}
 * or {@code "get"} for a retrieve). Queries need the reader role, retrieve and send the uploader role.
 */
@RequestScoped
@Path("pacs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.PACS)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class PacsResource {

    private static final String FIND_KEYS = "Query parameters are DICOM keywords sent as C-FIND matching keys "
            + "(wildcards and ranges as the remote supports them); includefield adds return keys.";

    private static final List<String> STUDY_KEYS = List.of("PatientID", "PatientName", "PatientBirthDate",
            "PatientSex", "StudyInstanceUID", "StudyDate", "StudyTime", "AccessionNumber", "StudyID",
            "StudyDescription", "ModalitiesInStudy", "NumberOfStudyRelatedSeries", "NumberOfStudyRelatedInstances");
    private static final List<String> SERIES_KEYS = List.of("StudyInstanceUID", "SeriesInstanceUID", "Modality",
            "SeriesNumber", "SeriesDescription", "NumberOfSeriesRelatedInstances");
    private static final List<String> INSTANCE_KEYS = List.of("StudyInstanceUID", "SeriesInstanceUID",
            "SOPInstanceUID", "SOPClassUID", "InstanceNumber", "Rows", "Columns", "NumberOfFrames");
    private static final Set<String> UID_KEYS = Set.of("StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID");

    @Inject
    RemotePacs remotePacs;

    @Context
    UriInfo uri;

    @Context
    SecurityContext security;

    /** Whose request this is, for the audit trail ({@link RequestCaller}). */
    @Context
    jakarta.servlet.http.HttpServletRequest servletRequest;

    @GET
    @Path("remotes")
    @Operation(summary = "The configured remote PACS")
    @APIResponse(responseCode = "200", description = "AE title, host and port of each",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "RemoteAeList")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    public List<Map<String, Object>> remotes() {
        return pacs().remotes().stream().map(r -> Map.<String, Object>of("aeTitle", r.aeTitle(), "host", r.host(),
                "port", r.port())).toList();
    }

    @POST
    @Path("remotes/{ae}/echo")
    @Operation(summary = "C-ECHO a remote PACS")
    @Parameter(name = "ae", in = ParameterIn.PATH, required = true, description = "the remote's AE title (GET /pacs/remotes)")
    @APIResponse(responseCode = "200", description = "it answered",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "EchoResult")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "502", ref = ApiDocs.BAD_GATEWAY)
    public Map<String, Object> echo(@PathParam("ae") String ae) {
        RemoteAe r = pacs().remote(ae);
        return Map.of("aeTitle", r.aeTitle(), "ok", true, "millis", pacs().echo(r));
    }

    @GET
    @Path("remotes/{ae}/studies")
    @Operation(summary = "C-FIND studies on a remote PACS", description = FIND_KEYS)
    @Parameter(name = "ae", in = ParameterIn.PATH, required = true, description = "the remote's AE title (GET /pacs/remotes)")
    @Parameter(ref = "PatientID")
    @Parameter(ref = "StudyDate")
    @Parameter(name = "includefield", in = ParameterIn.QUERY, description = "more keywords to return, comma-separated")
    @APIResponse(responseCode = "200", description = "the matches, attributes by keyword",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "PacsMatchList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "502", ref = ApiDocs.BAD_GATEWAY)
    public List<Map<String, String>> studies(@PathParam("ae") String ae) {
        return find(ae, QueryLevel.STUDY, Map.of(), STUDY_KEYS);
    }

    @GET
    @Path("remotes/{ae}/studies/{study}/series")
    @Operation(summary = "C-FIND the series of a study on a remote PACS", description = FIND_KEYS)
    @Parameter(name = "ae", in = ParameterIn.PATH, required = true, description = "the remote's AE title (GET /pacs/remotes)")
    @Parameter(name = "study", in = ParameterIn.PATH, required = true, description = "its StudyInstanceUID")
    @Parameter(name = "includefield", in = ParameterIn.QUERY, description = "more keywords to return, comma-separated")
    @APIResponse(responseCode = "200", description = "the matches, attributes by keyword",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "PacsMatchList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "502", ref = ApiDocs.BAD_GATEWAY)
    public List<Map<String, String>> series(@PathParam("ae") String ae, @PathParam("study") String study) {
        return find(ae, QueryLevel.SERIES, Map.of("StudyInstanceUID", study), SERIES_KEYS);
    }

    @GET
    @Path("remotes/{ae}/studies/{study}/series/{series}/instances")
    @Operation(summary = "C-FIND the instances of a series on a remote PACS", description = FIND_KEYS)
    @Parameter(name = "ae", in = ParameterIn.PATH, required = true, description = "the remote's AE title (GET /pacs/remotes)")
    @Parameter(name = "study", in = ParameterIn.PATH, required = true, description = "its StudyInstanceUID")
    @Parameter(name = "series", in = ParameterIn.PATH, required = true, description = "its SeriesInstanceUID")
    @Parameter(name = "includefield", in = ParameterIn.QUERY, description = "more keywords to return, comma-separated")
    @APIResponse(responseCode = "200", description = "the matches, attributes by keyword",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "PacsMatchList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "502", ref = ApiDocs.BAD_GATEWAY)
    public List<Map<String, String>> instances(@PathParam("ae") String ae, @PathParam("study") String study,
            @PathParam("series") String series) {
        return find(ae, QueryLevel.IMAGE, Map.of("StudyInstanceUID", study, "SeriesInstanceUID", series),
                INSTANCE_KEYS);
    }

    @POST
    @Path("remotes/{ae}/retrieve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Retrieve a study, series or instance from a remote PACS into the store (uploader)",
            description = "C-MOVE to the store's own AE (the default) or C-GET; answers when done, with the "
                    + "remote's counts (completed, failed, warning) and every instance not retrieved with the reason,"
                    + " whatever the final status: 200 when everything came, 202 when some did not. For long "
                    + "retrieves use POST /jobs with kind retrieve (progress in GET /jobs/{id}).")
    @Parameter(name = "ae", in = ParameterIn.PATH, required = true, description = "the remote's AE title (GET /pacs/remotes)")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "UidSelection")))
    @APIResponse(responseCode = "200", description = "everything asked for was retrieved and stored",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "RetrieveResult")))
    @APIResponse(responseCode = "202", description = "some or all instances were not retrieved: which, and why",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "RetrieveResult")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "502", ref = ApiDocs.BAD_GATEWAY)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response retrieve(@PathParam("ae") String ae, JsonObject body) {
        Access.require(security, Role.UPLOADER);
        String method = body == null ? "move" : body.getString("method", "move");
        if (!method.equals("move") && !method.equals("get")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "method \"" + method + "\": move or get");
        }
        RemotePacs.RetrieveResult result = pacs().retrieve(pacs().remote(ae), uids(body), method.equals("get"),
                RequestCaller.of(servletRequest));
        return Response.status(result.complete() ? 200 : 202).entity(result).build();
    }

    @POST
    @Path("remotes/{ae}/send")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Send stored objects to a remote PACS with C-STORE (uploader)",
            description = "Answers when done with the counts and every instance not sent with the reason: 200 when "
                    + "all went, 202 when some did not. For long sends use POST /jobs with kind send.")
    @Parameter(name = "ae", in = ParameterIn.PATH, required = true, description = "the remote's AE title (GET /pacs/remotes)")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "UidSelection")))
    @APIResponse(responseCode = "200", description = "everything was sent",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "SendResult")))
    @APIResponse(responseCode = "202", description = "some or all instances were not sent: which, and why",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "SendResult")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "502", ref = ApiDocs.BAD_GATEWAY)
    public Response send(@PathParam("ae") String ae, JsonObject body) {
        Access.require(security, Role.UPLOADER);
        RemotePacs.SendResult result = pacs().send(pacs().remote(ae), uids(body), RequestCaller.of(servletRequest));
        return Response.status(result.complete() ? 200 : 202).entity(result).build();
    }

    private List<Map<String, String>> find(String ae, QueryLevel level, Map<String, String> fixed,
            List<String> returnKeys) {
        RemoteAe r = pacs().remote(ae);
        Map<String, String> matching = new LinkedHashMap<>(fixed);
        Set<String> returns = new LinkedHashSet<>(returnKeys);
        uri.getQueryParameters().forEach((k, v) -> {
            if (k.equals("includefield")) {
                v.forEach(f -> returns.addAll(List.of(f.split(","))));
            } else {
                matching.put(k, v.isEmpty() ? "" : v.get(0));
            }
        });
        returns.removeAll(matching.keySet());
        try {
            return pacs().find(r, level, matching, returns);
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage());
        }
    }

    /** StudyInstanceUID (needed), SeriesInstanceUID, SOPInstanceUID from the request body, checked. */
    private static Map<String, String> uids(JsonObject body) {
        if (body == null || !body.containsKey("StudyInstanceUID")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "the body names at least the "
                    + "StudyInstanceUID: {\"StudyInstanceUID\": \"...\"}");
        }
        Map<String, String> keys = new LinkedHashMap<>();
        for (String k : List.of("StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID")) {
            if (body.containsKey(k)) {
                String v = body.getString(k, "");
                if (!v.matches("[0-9]+(\\.[0-9]+)*") || v.length() > 64) {
                    throw new StoreException(StoreException.Kind.BAD_REQUEST, k + " \"" + v + "\" is not a UID");
                }
                keys.put(k, v);
            }
        }
        if (keys.containsKey("SOPInstanceUID") && !keys.containsKey("SeriesInstanceUID")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "an instance is named with its "
                    + "SeriesInstanceUID too");
        }
        for (String k : body.keySet()) {
            if (!UID_KEYS.contains(k) && !k.equals("method")) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "unknown field " + k);
            }
        }
        return keys;
    }

    private RemotePacs pacs() {
        return remotePacs;
    }
}
