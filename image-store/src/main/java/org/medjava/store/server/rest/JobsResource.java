package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import org.medjava.store.server.config.AccessSettings;
import org.medjava.store.server.config.LinkSettings;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.jobs.JobQueue;
import org.medjava.store.core.jobs.JobStatus;
import org.medjava.store.core.jobs.JobWorkers;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.security.StudyAccess;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code /jobs}: long work run in the background by whichever node has a free worker (on several nodes, the
 * cluster's queue), surviving the loss of the node that accepted it, with its progress visible from any node.
 *
 * <ul>
 * <li>{@code POST /jobs} with {@code {"kind": "...", "params": {...}}}: 202 and the job's URL. Kinds:
 *     {@code index-rebuild} and {@code backup} (admin; see {@code POST /admin/backup}); {@code render-series} (8-bit PNG renderings of a series under
 *     {@code derived/}), {@code derive-series}, {@code deidentify}, {@code correct}, {@code retrieve} and {@code send}
 *     (uploader); {@code merge-patients} (admin; docs/pacs.md, Corrections). {@code derive-series} takes
 *     {@code SeriesInstanceUID}, {@code filter} ({@code "blur:n=3|sharpen:p=50"}) and optionally {@code window},
 *     {@code region}, {@code impl}, and keeps the filtered series as one derived DICOM series (16-bit grey stays
 *     16-bit, with provenance); it is checked before it is queued: 400 for a bad chain (the filter or the parameter
 *     rule named), 404 for an unknown series, 413 for a series of more instances than
 *     {@code medjava.jobs.max-series-instances} (5000), 422 for data no filter serves or multi-frame instances.
 *     Its result: {@code {"SeriesInstanceUID", "StudyInstanceUID", "derived", "first", "directory", "replaced"}}.
 *     {@code deidentify} (uploader; docs/deidentification.md) takes {@code StudyInstanceUID} and optionally
 *     {@code SeriesInstanceUID}, {@code options} (comma-separated option names), {@code dateShiftDays},
 *     {@code patientName}, {@code patientId}, and writes a de-identified copy as a new study (PS3.15 Annex E); checked
 *     before it is queued: 400 for a bad parameter or option name, 404 for an unknown study or series, 413 over
 *     {@code medjava.jobs.max-series-instances}. Its result: {@code {"StudyInstanceUID", "PatientID", "stored",
 *     "refused", "needsReview", "refusals", "review", ...}}.</li>
 * <li>{@code GET /jobs}, {@code GET /jobs/{id}}: state ({@code QUEUED, RUNNING, DONE, FAILED, CANCELLED}), node,
 *     progress ({@code done} of {@code total}), attempts, {@code cancelRequested}, {@code owner}, result (a FAILED or
 *     CANCELLED job's says how far it got and what it removed or left). An administrator sees every job, anyone
 *     else their own.</li>
 * <li>{@code DELETE /jobs/{id}} (its submitter or an administrator, if they may submit that kind): cancels. 200 with the job when it was queued (now
 *     CANCELLED); 202 when it is running (it stops at its next progress report, undoing what it wrote, and ends
 *     CANCELLED; follow {@code GET /jobs/{id}}); 409 when it had ended; 404 for an unknown job.</li>
 * </ul>
 */

@RequestScoped
@Path("jobs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.JOBS)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class JobsResource {

    private static final String KINDS = "Kinds: index-rebuild (admin; no parameters), render-series (uploader: "
            + "SeriesInstanceUID and the rendering parameters of GET /images/{path}?render=: render, filter (steps "
            + "separated by |), window, region, impl; 8-bit renderings that go to derived/{SeriesInstanceUID}/), "
            + "derive-series (uploader: SeriesInstanceUID, filter, window, region, impl; one derived DICOM series at "
            + "the source's depth; checked before queueing: 400 bad chain, 404 unknown series, 413 more instances "
            + "than medjava.jobs.max-series-instances, 422 data no filter serves), deidentify (uploader: StudyInstanceUID, "
            + "optionally SeriesInstanceUID, options (comma-separated: retain-safe-private, retain-device-identity, "
            + "retain-institution-identity, retain-patient-characteristics, retain-longitudinal-full-dates, "
            + "retain-longitudinal-modified-dates, clean-descriptors, clean-structured-content, clean-graphics), "
            + "dateShiftDays (implies retain-longitudinal-modified-dates), patientName and patientId (the pseudonym; "
            + "ANONYMOUS and a generated ANON-... by default); a de-identified copy (PS3.15 Annex E Basic Profile) "
            + "stored as a new study, the source untouched; checked before queueing: 400 bad parameter or option, 404 "
            + "unknown study or series, 413 more instances than medjava.jobs.max-series-instances; its result gives the "
            + "new StudyInstanceUID, stored, refused (with reasons), needsReview (burned-in text possible)), correct "
            + "(uploader: StudyInstanceUID, reason and new values of PatientID, PatientName, IssuerOfPatientID, "
            + "PatientBirthDate, PatientSex, AccessionNumber, StudyDescription, StudyDate, StudyTime, "
            + "ReferringPhysicianName, StudyID; every instance rewritten with its UIDs and pixel data kept, the previous "
            + "versions in the trash until its grace period ends (restoring them undoes the correction), audited with "
            + "the old and new values; checked before queueing: 400 an attribute that may not be corrected (any UID) "
            + "or a bad value, 404 unknown study, 409 a study in the trash or being corrected, 413 more instances "
            + "than medjava.jobs.max-series-instances; its result gives corrected, new, and per study old and "
            + "trashId), merge-patients (admin: sourcePatientID, optionally sourceIssuerOfPatientID, and the target's "
            + "PatientID, IssuerOfPatientID, PatientName, PatientBirthDate, PatientSex, the last three from the store's "
            + "record of the target when absent; every study of the source corrected to the target), backup "
            + "(admin: directory; see "
            + "POST /admin/backup), retrieve "
            + "(uploader: ae, StudyInstanceUID, SeriesInstanceUID, SOPInstanceUID, method move|get, as POST "
            + "/pacs/remotes/{ae}/retrieve; progress by instance, the result as that endpoint's answer), send "
            + "(uploader: ae and the UIDs, as POST /pacs/remotes/{ae}/send). Poll the job's URL for its state.";

    /** The kinds that act on a stored study or series named by its UID (retrieve names a remote one). */
    private static final java.util.Set<String> ON_STORED_STUDIES = java.util.Set.of(
            org.medjava.store.core.jobs.RenderSeriesJob.KIND, org.medjava.store.core.jobs.DeriveSeriesJob.KIND,
            org.medjava.store.core.jobs.DeidentifyJob.KIND, org.medjava.store.core.jobs.CorrectJob.KIND, "send");

    /** The body of {@code POST /jobs}. */
    @Schema(name = "Submission", description = "A job to run: its kind and its parameters (strings).", example = "{\"kind\": \"render-series\", \"params\": {\"SeriesInstanceUID\": \"1.3.6.1.4.1.5962.1.3.1.1.20040119072730.12322\", \"render\": \"png\", \"filter\": \"blur:n=3\", \"window\": \"40,400\"}}")
    public record Submission(String kind, Map<String, String> params) {
    }

    @Inject
    JobWorkers jobs;

    @Inject
    org.medjava.store.core.index.DicomIndex index;

    @Context
    jakarta.servlet.http.HttpServletRequest request;

    @Context
    SecurityContext security;

    @Inject
    AccessSettings access;

    @Inject
    LinkSettings links;

    @Context
    UriInfo uri;

    @Context
    jakarta.ws.rs.core.HttpHeaders headers;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Submit a job", description = KINDS)
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "Submission")))
    @APIResponse(responseCode = "202", description = "queued; Location is the job's URL to poll",
            headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobStatus")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    @APIResponse(responseCode = "413", ref = ApiDocs.TOO_LARGE)
    @APIResponse(responseCode = "422", ref = ApiDocs.UNPROCESSABLE)
    @APIResponse(responseCode = "507", ref = ApiDocs.INSUFFICIENT_STORAGE)
    public Response submit(Submission body) {
        if (body == null || body.kind() == null || body.kind().isBlank()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "send {\"kind\": \"...\", \"params\": {...}}");
        }
        Access.require(security, submitter(body.kind()));
        Map<String, String> params = body.params() == null ? Map.of() : new TreeMap<>(body.params());
        if (ON_STORED_STUDIES.contains(body.kind())) { // under access by project: a study the caller may see
            StudyAccess.requireVisible(index, StudyAccess.of(request, security, access.byProject()),
                    params.get("StudyInstanceUID"), params.get("SeriesInstanceUID"));
        }
        JobStatus job = jobs.submit(body.kind(), params, security.getUserPrincipal().getName());
        return Response.accepted(job).location(PublicBase.resolve(links, uri, headers, "jobs/" + job.id())).build();
    }

    /**
     * Who may submit (and cancel) a job of {@code kind}. A merge of patients is an administrator's: it changes the
     * identity of every study of a patient at once (as the trash's guard holds large deletions for one); correcting
     * one study is an uploader's, as deleting it is (its previous versions are kept in the trash).
     */
    private static Role submitter(String kind) {
        return kind.equals("index-rebuild") || kind.equals(org.medjava.store.core.backup.StoreBackup.JOB_KIND)
                || kind.equals(org.medjava.store.core.jobs.CorrectJob.MERGE) ? Role.ADMIN : Role.UPLOADER;
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Cancel a job", description = "The job's submitter (or an administrator) may cancel it, if they may submit its kind. A queued job "
            + "ends CANCELLED at once (200); a running one stops at its next progress report, undoing what it wrote, "
            + "and ends CANCELLED (202: follow GET /jobs/{id}).")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the id POST /jobs answered")
    @APIResponse(responseCode = "200", description = "it was queued: cancelled",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobStatus")))
    @APIResponse(responseCode = "202", description = "it is running: it stops at its next progress report",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobStatus")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    public Response cancel(@PathParam("id") String id) {
        Access.require(security, Role.UPLOADER);
        JobStatus job = get(id);
        Access.require(security, submitter(job.kind()));
        JobQueue.Cancellation c = jobs.queue().cancel(id).orElseThrow(() -> new StoreException(
                StoreException.Kind.NOT_FOUND, "no job " + id));
        return switch (c.outcome()) {
            case CANCELLED -> Response.ok(c.job()).build();
            case REQUESTED -> Response.accepted(c.job()).build();
            case ALREADY_FINISHED -> throw new StoreException(StoreException.Kind.CONFLICT, "job " + id + " has ended ("
                    + c.job().state() + "): there is nothing to cancel");
        };
    }

    @GET
    @Operation(summary = "The latest jobs, newest first", description = "An administrator sees every job; anyone "
            + "else the jobs they submitted.")
    @Parameter(name = "limit", in = ParameterIn.QUERY, description = "how many (1 to 1000)",
            schema = @Schema(type = SchemaType.INTEGER, defaultValue = "50", minimum = "1", maximum = "1000"))
    @APIResponse(responseCode = "200", description = "the jobs",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobList")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    public List<JobStatus> list(@QueryParam("limit") @DefaultValue("50") int limit) {
        Access.require(security, Role.READER);
        return jobs.queue().list(Math.max(1, Math.min(limit, 1000)), ownerSeen());
    }

    /**
     * Whose jobs the caller sees: an administrator every job, anyone else only the jobs it submitted (a job's
     * parameters and result can name directories, storage paths and nodes, and other users' studies).
     */
    private String ownerSeen() {
        return security.isUserInRole(Role.ADMIN.id()) ? null : security.getUserPrincipal().getName();
    }

    @GET
    @Path("{id}")
    @Operation(summary = "A job's state and progress", description = "Another user's job is 404 to anyone but an "
            + "administrator.")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the id POST /jobs answered")
    @APIResponse(responseCode = "200", description = "the job",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobStatus")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public JobStatus get(@PathParam("id") String id) {
        Access.require(security, Role.READER);
        String owner = ownerSeen();
        return jobs.queue().get(id).filter(job -> owner == null || owner.equals(job.owner()))
                .orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND, "no job " + id));
    }
}
