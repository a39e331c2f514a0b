package org.medjava.store.web;

import jakarta.enterprise.context.RequestScoped;
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
import org.medjava.store.StoreException;
import org.medjava.store.jobs.JobQueue;
import org.medjava.store.jobs.JobStatus;
import org.medjava.store.jobs.JobWorkers;
import org.medjava.store.security.Access;
import org.medjava.store.security.Role;

/**
 * {@code /jobs}: long work run in the background by whichever node has a free worker (on several nodes, the
 * cluster's queue), surviving the loss of the node that accepted it, with its progress visible from any node.
 *
 * <ul>
 * <li>{@code POST /jobs} with {@code {"kind": "...", "params": {...}}}: 202 and the job's URL. Kinds:
 *     {@code index-rebuild} (admin); {@code render-series} (8-bit PNG renderings of a series under
 *     {@code derived/}), {@code derive-series} and {@code retrieve} (uploader). {@code derive-series} takes
 *     {@code SeriesInstanceUID}, {@code filter} ({@code "blur:n=3|sharpen:p=50"}) and optionally {@code window},
 *     {@code region}, {@code impl}, and keeps the filtered series as one derived DICOM series (16-bit grey stays
 *     16-bit, with provenance); it is checked before it is queued: 400 for a bad chain (the filter or the parameter
 *     rule named), 404 for an unknown series, 413 for a series of more instances than
 *     {@code medjava.jobs.max-series-instances} (5000), 422 for data no filter serves or multi-frame instances.
 *     Its result: {@code {"SeriesInstanceUID", "StudyInstanceUID", "derived", "first", "directory", "replaced"}}.</li>
 * <li>{@code GET /jobs}, {@code GET /jobs/{id}}: state ({@code QUEUED, RUNNING, DONE, FAILED, CANCELLED}), node,
 *     progress ({@code done} of {@code total}), attempts, {@code cancelRequested}, result (a FAILED or CANCELLED
 *     job's says how far it got and what it removed or left).</li>
 * <li>{@code DELETE /jobs/{id}} (whoever may submit that kind): cancels. 200 with the job when it was queued (now
 *     CANCELLED); 202 when it is running (it stops at its next progress report, undoing what it wrote, and ends
 *     CANCELLED; follow {@code GET /jobs/{id}}); 409 when it had ended; 404 for an unknown job.</li>
 * </ul>
 */
@RequestScoped
@Path("jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobsResource {

    /** The body of {@code POST /jobs}. */
    public record Submission(String kind, Map<String, String> params) {
    }

    @Inject
    JobWorkers jobs;

    @Context
    SecurityContext security;

    @Inject
    org.medjava.store.config.StoreConfig config;

    @Context
    UriInfo uri;

    @Context
    jakarta.ws.rs.core.HttpHeaders headers;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response submit(Submission body) {
        if (body == null || body.kind() == null || body.kind().isBlank()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "send {\"kind\": \"...\", \"params\": {...}}");
        }
        Access.require(security, submitter(body.kind()));
        JobStatus job = jobs.submit(body.kind(), body.params() == null ? Map.of() : new TreeMap<>(body.params()));
        return Response.accepted(job).location(PublicBase.resolve(config, uri, headers, "jobs/" + job.id())).build();
    }

    /** Who may submit (and cancel) a job of {@code kind}. */
    private static Role submitter(String kind) {
        return kind.equals("index-rebuild") ? Role.ADMIN : Role.UPLOADER;
    }

    @DELETE
    @Path("{id}")
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
    public List<JobStatus> list(@QueryParam("limit") @DefaultValue("50") int limit) {
        Access.require(security, Role.READER);
        return jobs.queue().list(Math.max(1, Math.min(limit, 1000)));
    }

    @GET
    @Path("{id}")
    public JobStatus get(@PathParam("id") String id) {
        Access.require(security, Role.READER);
        return jobs.queue().get(id).orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND, "no job "
                + id));
    }
}
