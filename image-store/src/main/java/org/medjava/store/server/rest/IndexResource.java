package org.medjava.store.server.rest;

import org.medjava.store.core.index.DicomIndex;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.index.DicomQuery;
import org.medjava.store.core.index.InstanceQuery;
import org.medjava.store.core.index.Labels;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.PatientQuery;
import org.medjava.store.core.index.PatientSummary;
import org.medjava.store.core.index.SeriesQuery;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.server.config.AccessSettings;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.security.StudyAccess;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The DICOM index as JSON: patients, studies, their series and instances. Query parameters are DICOM keywords
 * with PS3.4 matching (wildcards, date ranges, UID lists), plus {@code limit}, {@code offset} and
 * {@code fuzzymatching=true} (case-insensitive names).
 */
@RequestScoped
@Path("index")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.INDEX)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class IndexResource {

    private static final String KEYS = "Any DICOM keyword of this level is a matching key (a wrong one is a 400 "
            + "that lists them) with PS3.4 matching: wildcards * and ?, date ranges, UID lists separated by commas; "
            + "plus limit, offset and fuzzymatching=true (case-insensitive names).";

    @Inject
    DicomIndex index;

    @Inject
    AccessSettings access;

    @Context
    UriInfo uri;

    @Context
    SecurityContext security;

    @Context
    HttpServletRequest request;

    @GET
    @Path("patients")
    @Operation(summary = "Patients in the index", description = KEYS)
    @Parameter(ref = "PatientID")
    @Parameter(ref = "PatientName")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @APIResponse(responseCode = "200", description = "the matches",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "PatientList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public List<PatientSummary> patients() {
        return index.patients(query(PatientQuery.all()));
    }

    @GET
    @Path("studies")
    @Operation(summary = "Studies in the index, with their patient", description = KEYS)
    @Parameter(ref = "PatientID")
    @Parameter(ref = "PatientName")
    @Parameter(ref = "StudyDate")
    @Parameter(ref = "AccessionNumber")
    @Parameter(ref = "ModalitiesInStudy")
    @Parameter(ref = "StudyInstanceUID")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @Parameter(ref = "fuzzymatching")
    @APIResponse(responseCode = "200", description = "the matches",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "StudyList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public List<StudySummary> studies() {
        return index.studies(query(StudyQuery.all()));
    }

    @GET
    @Path("studies/{study}/labels")
    @Operation(summary = "A study's labels (what access by project matches)")
    @Parameter(name = "study", in = ParameterIn.PATH, required = true, description = "its StudyInstanceUID")
    @APIResponse(responseCode = "200", description = "its labels, sorted",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(type = SchemaType.ARRAY,
                    implementation = String.class)))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public java.util.Set<String> labels(@PathParam("study") String studyUid) {
        visibleStudy(studyUid);
        return index.labels(studyUid);
    }

    @PUT
    @Path("studies/{study}/labels/{label}")
    @Operation(summary = "Puts a label on a study (administrators): the projects of that name see it")
    @Parameter(name = "study", in = ParameterIn.PATH, required = true, description = "its StudyInstanceUID")
    @Parameter(name = "label", in = ParameterIn.PATH, required = true,
            description = "1 to 64 letters, digits, _ or -")
    @APIResponse(responseCode = "201", description = "labelled")
    @APIResponse(responseCode = "204", description = "it carried the label already")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response addLabel(@PathParam("study") String studyUid, @PathParam("label") String label) {
        Access.require(security, Role.ADMIN);
        checkLabel(label);
        visibleStudy(studyUid);
        return index.addLabel(studyUid, label) ? Response.status(Response.Status.CREATED).build()
                : Response.noContent().build();
    }

    @DELETE
    @Path("studies/{study}/labels/{label}")
    @Operation(summary = "Takes a label off a study (administrators)")
    @Parameter(name = "study", in = ParameterIn.PATH, required = true, description = "its StudyInstanceUID")
    @Parameter(name = "label", in = ParameterIn.PATH, required = true, description = "the label")
    @APIResponse(responseCode = "204", description = "removed")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response removeLabel(@PathParam("study") String studyUid, @PathParam("label") String label) {
        Access.require(security, Role.ADMIN);
        if (!index.removeLabel(studyUid, label)) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "study " + studyUid + " has no label " + label);
        }
        return Response.noContent().build();
    }

    @GET
    @Path("labels")
    @Operation(summary = "Every label in use, with its number of studies (administrators)")
    @APIResponse(responseCode = "200", description = "label: number of studies",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(type = SchemaType.OBJECT,
                    additionalProperties = Schema.True.class)))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Map<String, Long> allLabels() {
        Access.require(security, Role.ADMIN);
        return index.labelCounts();
    }

    /** 404 unless the study is in the index and this caller may see it: the same answer either way. */
    private void visibleStudy(String studyUid) {
        if (!studyUid.matches("[0-9.]{1,64}") || index.studies(StudyQuery.all().studyInstanceUid(studyUid).limit(1)
                .visibleTo(visibility())).isEmpty()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no study " + studyUid + " in the store");
        }
    }

    /** The studies this caller may see (every one, unless access by project limits them). */
    private org.medjava.store.core.index.Visibility visibility() {
        return StudyAccess.of(request, security, access.byProject());
    }

    private static void checkLabel(String label) {
        if (!Labels.valid(label)) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "a label is 1 to " + Labels.MAX_LENGTH
                    + " letters, digits, _ or -");
        }
    }

    @GET
    @Path("studies/{study}/series")
    @Operation(summary = "The series of a study", description = KEYS)
    @Parameter(name = "study", in = ParameterIn.PATH, required = true, description = "its StudyInstanceUID")
    @Parameter(ref = "Modality")
    @Parameter(ref = "SeriesInstanceUID")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @APIResponse(responseCode = "200", description = "the matches",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "SeriesList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public List<SeriesSummary> series(@PathParam("study") String studyUid) {
        return index.series(studyUid, query(SeriesQuery.all()));
    }

    @GET
    @Path("series/{series}/instances")
    @Operation(summary = "The instances of a series, with their store paths", description = KEYS)
    @Parameter(name = "series", in = ParameterIn.PATH, required = true, description = "its SeriesInstanceUID")
    @Parameter(ref = "SOPInstanceUID")
    @Parameter(ref = "limit")
    @Parameter(ref = "offset")
    @APIResponse(responseCode = "200", description = "the matches",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "InstanceList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public List<InstanceSummary> instances(@PathParam("series") String seriesUid) {
        return index.instances(seriesUid, query(InstanceQuery.all()));
    }

    private <Q extends DicomQuery<Q>> Q query(Q query) {
        Q q = query.visibleTo(visibility());
        try {
            for (Map.Entry<String, List<String>> p : uri.getQueryParameters().entrySet()) {
                String value = p.getValue().isEmpty() ? "" : p.getValue().get(0);
                q = switch (p.getKey()) {
                    case "limit" -> q.limit(count("limit", p.getValue()));
                    case "offset" -> q.offset(count("offset", p.getValue()));
                    case "fuzzymatching" -> q.fuzzyNames(ArchiveQuery.fuzzyMatching(value));
                    default -> q.with(p.getKey(), value);
                };
            }
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage() + "; keys at this level: "
                    + String.join(", ", new java.util.TreeSet<>(q.supportedKeywords()))
                    + ", and limit, offset, fuzzymatching");
        }
        return q;
    }

    /** A limit or offset: one whole number, 0 or more (not a Java parser's message). */
    private static int count(String name, List<String> values) {
        if (values.size() > 1) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, name + " is given " + values.size() + " times");
        }
        String value = values.isEmpty() ? "" : values.get(0).trim();
        if (!value.matches("[0-9]{1,9}")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, name + "=" + value
                    + " is not a whole number (0 or more, for example " + name + "=50)");
        }
        return Integer.parseInt(value);
    }
}
