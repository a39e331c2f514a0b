package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.RouteTask;
import org.medjava.store.core.route.RouteRule;
import org.medjava.store.core.route.Routing;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;

/**
 * {@code /routes} (admin role): routing rules that forward what the store receives to a remote AE (C-STORE) or a
 * STOW-RS endpoint, optionally de-identified or transcoded; the queue they fill, its dead-letter list, and each
 * study's routing history. A rule that matches everything is refused unless {@code confirm=true}.
 */
@RequestScoped
@Path("routes")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.PACS)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class RoutesResource {
    /** How a listed rule shows its destination's credentials ({@link RouteRule.Destination#masked()}). */
    static final String MASKED = "(set)";

    /** The body of {@code PUT /routes/rules/{name}}. */
    @Schema(name = "RouteDraft", description = "A routing rule: what it matches, where it sends, how.",
            example = "{\"match\": {\"SourceAE\": \"CT_*\", \"Modality\": \"CT\"}, \"destination\": {\"kind\":"
                    + " \"dimse\", \"ae\": \"ARCHIVE\"}, \"deidentify\": null, \"transcode\": null, \"enabled\": true}")
    public record RouteDraft(Map<String, String> match, Destination destination, List<String> deidentify,
            String transcode, Boolean enabled) {
    }

    /** A destination as sent: kind dimse with ae, or kind stow with url and optionally auth. */
    public record Destination(String kind, String ae, String url, String auth) {
    }

    /** The queue: counts by state, and the tasks asked for. */
    public record Queue(Map<String, Long> counts, List<RouteTask> tasks) {
    }

    /** What a run on demand queued. */
    public record Queued(String rule, String studyInstanceUid, int queued) {
    }

    @Inject
    Routing routing;

    @Context
    SecurityContext security;

    @GET
    @Path("rules")
    @Operation(summary = "The routing rules (admin role)", description = "Credentials of STOW-RS destinations are"
            + " shown as (set).")
    @APIResponse(responseCode = "200", description = "the rules", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RouteRuleList")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public List<RouteRule> rules() {
        Access.require(security, Role.ADMIN);
        return routing.rules().stream().map(RouteRule::masked).toList();
    }

    @GET
    @Path("rules/{name}")
    @Operation(summary = "One routing rule (admin role)")
    @APIResponse(responseCode = "200", description = "the rule", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RouteRule")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public RouteRule rule(@PathParam("name") String name) {
        Access.require(security, Role.ADMIN);
        return routing.rule(name).masked();
    }

    @PUT
    @Path("rules/{name}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Make or replace a routing rule (admin role)", description = "match: DICOM keyword (or"
            + " SourceAE: the calling AE title or account of the sender) to a pattern with * and ?, compared without"
            + " regard to case; destination: {kind: dimse, ae} (a remote of medjava.dicom.remotes) or {kind: stow,"
            + " url, auth} (auth \"(set)\", as listed, keeps the rule's credentials for the same url); deidentify:"
            + " de-identification option names ([] for the Basic Profile alone, null: sent as stored); transcode: a"
            + " transfer syntax UID or null. A rule matching everything needs confirm=true.")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "RouteDraft")))
    @APIResponse(responseCode = "200", description = "made or replaced", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "RouteRule")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public RouteRule put(@PathParam("name") String name, RouteDraft draft,
            @Parameter(description = "accept a rule that matches everything") @QueryParam("confirm") boolean confirm) {
        Access.require(security, Role.ADMIN);
        if (draft == null || draft.destination() == null) {
            throw bad("a rule needs a destination: {\"kind\": \"dimse\", \"ae\": ...} or {\"kind\": \"stow\","
                    + " \"url\": ...}");
        }
        Destination d = draft.destination();
        String auth = d.auth();
        if (MASKED.equals(auth)) {
            // the rule sent back as it was listed (the console's edit, enable, disable): keep what the mark stands for
            // to the same URL, never to another host
            RouteRule.Destination before = routing.rules().stream().filter(r -> r.name().equals(name))
                    .map(RouteRule::destination).findFirst().orElse(null);
            if (before == null || before.auth() == null || !Objects.equals(before.url(), d.url())) {
                throw bad("destination.auth: " + MASKED + " keeps the credentials of the rule's destination, which"
                        + " has none or another URL; give them again");
            }
            auth = before.auth();
        }
        RouteRule.Destination destination;
        try {
            destination = new RouteRule.Destination(d.kind() == null ? null : d.kind().trim().toLowerCase(
                    Locale.ROOT), d.ae(), d.url(), auth);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        return routing.put(name, draft.match(), destination, draft.deidentify(), draft.transcode(),
                draft.enabled() == null || draft.enabled(), confirm, security.getUserPrincipal().getName()).masked();
    }

    @DELETE
    @Path("rules/{name}")
    @Operation(summary = "Remove a routing rule (admin role)", description = "Its tasks still queued are given up"
            + " when their turn comes (dead, reason: the rule was removed).")
    @APIResponse(responseCode = "204", description = "removed")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Response remove(@PathParam("name") String name) {
        Access.require(security, Role.ADMIN);
        routing.remove(name);
        return Response.noContent().build();
    }

    @POST
    @Path("rules/{name}/run")
    @Operation(summary = "Route a study by a rule now (admin role)", description = "Every instance of the study is"
            + " queued for the rule's destination, whether the rule would match it or is enabled; instances still"
            + " waiting for that rule are not queued twice.")
    @APIResponse(responseCode = "202", description = "queued", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RouteQueued")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Response run(@PathParam("name") String name, @Parameter(description = "the StudyInstanceUID",
            required = true) @QueryParam("study") String study) {
        Access.require(security, Role.ADMIN);
        String uid = uid(study);
        return Response.accepted(new Queued(name, uid, routing.run(name, uid))).build();
    }

    @GET
    @Path("queue")
    @Operation(summary = "The routing queue (admin role)", description = "Counts by state, and the tasks in one"
            + " state (queued, sending, sent, failed: waiting for a retry, dead: the dead-letter list), or all, the"
            + " most recently changed first.")
    @APIResponse(responseCode = "200", description = "the queue", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RouteQueue")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public Queue queue(@QueryParam("state") String state, @QueryParam("limit") @DefaultValue("100") int limit) {
        Access.require(security, Role.ADMIN);
        if (limit < 1) {
            throw bad("limit: 1 to " + Routing.MAX_LISTED + ", not " + limit);
        }
        return new Queue(routing.counts(), routing.tasks(state == null || state.isBlank() ? null
                : state.trim().toLowerCase(Locale.ROOT), limit));
    }

    @GET
    @Path("tasks/{id}")
    @Operation(summary = "One routing task (admin role)")
    @APIResponse(responseCode = "200", description = "the task", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RouteTask")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public RouteTask task(@PathParam("id") long id) {
        Access.require(security, Role.ADMIN);
        return routing.task(id);
    }

    @POST
    @Path("tasks/{id}/retry")
    @Operation(summary = "Send a dead or failed task again now (admin role)", description = "It goes back to the"
            + " queue with a fresh count of tries.")
    @APIResponse(responseCode = "200", description = "queued again", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RouteTask")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    public RouteTask retry(@PathParam("id") long id) {
        Access.require(security, Role.ADMIN);
        return routing.retry(id);
    }

    @DELETE
    @Path("tasks/{id}")
    @Operation(summary = "Remove a routing task (admin role)", description = "From the queue (it is not sent), the"
            + " dead-letter list or the history.")
    @APIResponse(responseCode = "204", description = "removed")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Response delete(@PathParam("id") long id) {
        Access.require(security, Role.ADMIN);
        routing.delete(id);
        return Response.noContent().build();
    }

    @GET
    @Path("history")
    @Operation(summary = "A study's routing history (admin role)", description = "Each instance and destination:"
            + " its state, tries, last error and times, oldest first.")
    @APIResponse(responseCode = "200", description = "the history", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RouteTaskList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public List<RouteTask> history(@Parameter(description = "the StudyInstanceUID", required = true)
            @QueryParam("study") String study) {
        Access.require(security, Role.ADMIN);
        return routing.history(uid(study));
    }

    private static String uid(String study) {
        if (study == null || !study.strip().matches("[0-9]+(\\.[0-9]+)*") || study.strip().length() > 64) {
            throw bad("study: a StudyInstanceUID, not " + study);
        }
        return study.strip();
    }

    private static StoreException bad(String message) {
        return new StoreException(StoreException.Kind.BAD_REQUEST, message);
    }
}
