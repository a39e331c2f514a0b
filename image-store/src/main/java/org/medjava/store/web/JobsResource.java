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
 * {@code POST /jobs} with {@code {"kind": "...", "params": {...}}}: 202 and the job's URL; kinds
 * {@code index-rebuild} and {@code backup} (admin; see {@code POST /admin/backup}), {@code render-series} and {@code retrieve} (uploader).
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
            + "separated by |), window, region, impl; the results go to derived/{SeriesInstanceUID}/), retrieve "
            + "(uploader: ae, StudyInstanceUID, SeriesInstanceUID, SOPInstanceUID, method move|get, as POST "
            + "/pacs/remotes/{ae}/retrieve). Poll the job's URL for its state.";

    /** The body of {@code POST /jobs}. */
    @Schema(name = "Submission", description = "A job to run: its kind and its parameters (strings).", example = "{\"kind\": \"render-series\", \"params\": {\"SeriesInstanceUID\": \"1.3.6.1.4.1.5962.1.3.1.1.20040119072730.12322\", \"render\": \"png\", \"filter\": \"blur:n=3\", \"window\": \"40,400\"}}")
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
    @Operation(summary = "Submit a job", description = KINDS)
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "Submission")))
    @APIResponse(responseCode = "202", description = "queued; Location is the job's URL to poll",
            headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobStatus")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
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
    @Operation(summary = "The latest jobs, newest first")
    @Parameter(name = "limit", in = ParameterIn.QUERY, description = "how many (1 to 1000)",
            schema = @Schema(type = SchemaType.INTEGER, defaultValue = "50", minimum = "1", maximum = "1000"))
    @APIResponse(responseCode = "200", description = "the jobs",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobList")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    public List<JobStatus> list(@QueryParam("limit") @DefaultValue("50") int limit) {
        Access.require(security, Role.READER);
        return jobs.queue().list(Math.max(1, Math.min(limit, 1000)));
    }

    @GET
    @Path("{id}")
    @Operation(summary = "A job's state and progress")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the id POST /jobs answered")
    @APIResponse(responseCode = "200", description = "the job",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "JobStatus")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public JobStatus get(@PathParam("id") String id) {
        Access.require(security, Role.READER);
        return jobs.queue().get(id).orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND, "no job "
                + id));
    }
}
