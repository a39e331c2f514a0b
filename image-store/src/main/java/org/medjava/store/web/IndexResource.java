package org.medjava.store.web;

import org.medjava.store.index.DicomIndex;
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
import org.medjava.store.index.DicomQuery;
import org.medjava.store.index.InstanceQuery;
import org.medjava.store.index.InstanceSummary;
import org.medjava.store.index.PatientQuery;
import org.medjava.store.index.PatientSummary;
import org.medjava.store.index.SeriesQuery;
import org.medjava.store.index.SeriesSummary;
import org.medjava.store.index.StudyQuery;
import org.medjava.store.index.StudySummary;
import org.medjava.store.StoreException;

/**
 * The DICOM index as JSON: patients, studies, their series and instances. Query parameters are DICOM keywords
 * with PS3.4 matching (wildcards, date ranges, UID lists), plus {@code limit}, {@code offset} and
 * {@code fuzzymatching=true} (case-insensitive names).
 */
@RequestScoped
@Path("index")
@Produces(MediaType.APPLICATION_JSON)
public class IndexResource {

    @Inject
    DicomIndex index;

    @Context
    UriInfo uri;

    @GET
    @Path("patients")
    public List<PatientSummary> patients() {
        return index.patients(query(PatientQuery.all()));
    }

    @GET
    @Path("studies")
    public List<StudySummary> studies() {
        return index.studies(query(StudyQuery.all()));
    }

    @GET
    @Path("studies/{study}/series")
    public List<SeriesSummary> series(@PathParam("study") String studyUid) {
        return index.series(studyUid, query(SeriesQuery.all()));
    }

    @GET
    @Path("series/{series}/instances")
    public List<InstanceSummary> instances(@PathParam("series") String seriesUid) {
        return index.instances(seriesUid, query(InstanceQuery.all()));
    }

    private <Q extends DicomQuery<Q>> Q query(Q query) {
        Q q = query;
        try {
            for (Map.Entry<String, List<String>> p : uri.getQueryParameters().entrySet()) {
                String value = p.getValue().isEmpty() ? "" : p.getValue().get(0);
                q = switch (p.getKey()) {
                    case "limit" -> q.limit(Integer.parseInt(value));
                    case "offset" -> q.offset(Integer.parseInt(value));
                    case "fuzzymatching" -> q.fuzzyNames(Boolean.parseBoolean(value));
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
}
