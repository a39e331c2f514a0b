package org.medjava.store.web;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
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
import org.medjava.store.jobs.JobStatus;
import org.medjava.store.jobs.JobWorkers;
import org.medjava.store.security.Access;
import org.medjava.store.security.Role;

/**
 * {@code /jobs}: long work run in the background by whichever node has a free worker (on several nodes, the
 * cluster's queue), surviving the loss of the node that accepted it, with its progress visible from any node.
 * {@code POST /jobs} with {@code {"kind": "...", "params": {...}}}: 202 and the job's URL; kinds
 * {@code index-rebuild} and {@code backup} (admin; see {@code POST /admin/backup}), {@code render-series} and {@code retrieve} (uploader).
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
        boolean adminKind = body.kind().equals("index-rebuild")
                || body.kind().equals(org.medjava.store.backup.StoreBackup.JOB_KIND);
        Access.require(security, adminKind ? Role.ADMIN : Role.UPLOADER);
        JobStatus job = jobs.submit(body.kind(), body.params() == null ? Map.of() : new TreeMap<>(body.params()));
        return Response.accepted(job).location(PublicBase.resolve(config, uri, headers, "jobs/" + job.id())).build();
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
