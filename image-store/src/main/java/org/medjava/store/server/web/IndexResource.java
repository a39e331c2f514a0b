package org.medjava.store.server.web;

import org.medjava.store.core.index.DicomIndex;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.index.DicomQuery;
import org.medjava.store.core.index.InstanceQuery;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.PatientQuery;
import org.medjava.store.core.index.PatientSummary;
import org.medjava.store.core.index.SeriesQuery;
import org.medjava.store.core.index.SeriesSummary;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.query.ArchiveQuery;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
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

    @Context
    UriInfo uri;

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
        Q q = query;
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
