package org.medjava.store.web;

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
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.medjava.store.scu.RemotePacs;
import org.medjava.store.dimse.RemoteAe;
import org.medjava.store.query.QueryLevel;
import org.medjava.store.StoreException;
import org.medjava.store.security.Access;
import org.medjava.store.security.Role;

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
public class PacsResource {

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

    @GET
    @Path("remotes")
    public List<Map<String, Object>> remotes() {
        return pacs().remotes().stream().map(r -> Map.<String, Object>of("aeTitle", r.aeTitle(), "host", r.host(),
                "port", r.port())).toList();
    }

    @POST
    @Path("remotes/{ae}/echo")
    public Map<String, Object> echo(@PathParam("ae") String ae) {
        RemoteAe r = pacs().remote(ae);
        return Map.of("aeTitle", r.aeTitle(), "ok", true, "millis", pacs().echo(r));
    }

    @GET
    @Path("remotes/{ae}/studies")
    public List<Map<String, String>> studies(@PathParam("ae") String ae) {
        return find(ae, QueryLevel.STUDY, Map.of(), STUDY_KEYS);
    }

    @GET
    @Path("remotes/{ae}/studies/{study}/series")
    public List<Map<String, String>> series(@PathParam("ae") String ae, @PathParam("study") String study) {
        return find(ae, QueryLevel.SERIES, Map.of("StudyInstanceUID", study), SERIES_KEYS);
    }

    @GET
    @Path("remotes/{ae}/studies/{study}/series/{series}/instances")
    public List<Map<String, String>> instances(@PathParam("ae") String ae, @PathParam("study") String study,
            @PathParam("series") String series) {
        return find(ae, QueryLevel.IMAGE, Map.of("StudyInstanceUID", study, "SeriesInstanceUID", series),
                INSTANCE_KEYS);
    }

    @POST
    @Path("remotes/{ae}/retrieve")
    @Consumes(MediaType.APPLICATION_JSON)
    public RemotePacs.RetrieveResult retrieve(@PathParam("ae") String ae, JsonObject body) {
        Access.require(security, Role.UPLOADER);
        String method = body == null ? "move" : body.getString("method", "move");
        if (!method.equals("move") && !method.equals("get")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "method \"" + method + "\": move or get");
        }
        return pacs().retrieve(pacs().remote(ae), uids(body), method.equals("get"));
    }

    @POST
    @Path("remotes/{ae}/send")
    @Consumes(MediaType.APPLICATION_JSON)
    public RemotePacs.SendResult send(@PathParam("ae") String ae, JsonObject body) {
        Access.require(security, Role.UPLOADER);
        return pacs().send(pacs().remote(ae), uids(body));
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
