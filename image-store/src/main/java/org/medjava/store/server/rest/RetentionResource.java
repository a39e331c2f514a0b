package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
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
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.AgedStudy;
import org.medjava.store.core.retention.Retention;
import org.medjava.store.core.retention.RetentionRule;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;

/**
 * {@code /retention/rules} (admin role): rules that move studies to the trash once they are old enough, by StudyDate
 * or by reception, optionally of one modality, source AE title or label; previewed as a dry run, run hourly in the background (enabled rules)
 * or on request; a rule not made yet is previewed too ({@code POST /retention/rules/preview}), and each rule keeps
 * what its latest run did. A rule that would take more than medjava.delete.guard-share of the store at once is
 * refused unless {@code confirm=true}.
 */
@RequestScoped
@Path("retention/rules")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.TRASH)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class RetentionResource {

    /** The body of {@code POST /retention/rules}. */
    @Schema(name = "RuleDraft", description = "A retention rule to make: basis STUDY_DATE or RECEIVED; modality,"
            + " sourceAe (who sent an instance by DICOM) and label narrow it where given.",
            example = "{\"name\": \"CR after ten years\", \"basis\": \"STUDY_DATE\", \"olderThanDays\": 3652,"
                    + " \"modality\": \"CR\", \"sourceAe\": \"WARD_CR\", \"enabled\": true}")
    public record RuleDraft(String name, String basis, Integer olderThanDays, String modality, String sourceAe,
            String label, Boolean enabled) {
    }

    /** What a rule would take now: the studies (at most 10000), their instances, and the share of the store. */
    public record RulePreview(RetentionRule rule, List<AgedStudy> studies, long instances, long storeInstances,
            double share, boolean overGuard) {
    }

    @Inject
    Retention retention;

    @Context
    SecurityContext security;

    @GET
    @Operation(summary = "The retention rules (admin role)")
    @APIResponse(responseCode = "200", description = "the rules", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RetentionRuleList")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public List<RetentionRule> list() {
        Access.require(security, Role.ADMIN);
        return retention.rules();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Make a retention rule (admin role)", description = "Refused with 409 when it would take"
            + " more than medjava.delete.guard-share of the store's instances now, unless confirm=true.")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "RuleDraft")))
    @APIResponse(responseCode = "201", description = "made", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "RetentionRule")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "409", ref = ApiDocs.CONFLICT)
    public Response add(RuleDraft draft, @Parameter(description = "accept a rule over the guard's share")
            @QueryParam("confirm") boolean confirm) {
        Access.require(security, Role.ADMIN);
        RetentionRule rule = retention.add(draft(draft), confirm, security.getUserPrincipal().getName());
        return Response.status(Response.Status.CREATED).entity(rule).build();
    }

    @POST
    @Path("preview")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "What a rule not made yet would delete now: a dry run before making it (admin role)")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "RuleDraft")))
    @APIResponse(responseCode = "200", description = "the studies it selects (the rule has no id)", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "RulePreview")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    public RulePreview previewDraft(RuleDraft draft) {
        Access.require(security, Role.ADMIN);
        return view(retention.preview(draft(draft)));
    }

    /** The draft as the store's, after checking that it names what every rule needs (blank narrowing: none). */
    private static RetentionRule.Draft draft(RuleDraft draft) {
        if (draft == null || draft.olderThanDays() == null || draft.basis() == null) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "a rule needs name, basis (STUDY_DATE or"
                    + " RECEIVED) and olderThanDays");
        }
        RetentionRule.Basis basis;
        try {
            basis = RetentionRule.Basis.valueOf(draft.basis().trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "basis: STUDY_DATE or RECEIVED, not "
                    + draft.basis());
        }
        return new RetentionRule.Draft(draft.name(), basis, draft.olderThanDays(), given(draft.modality()),
                given(draft.sourceAe()), given(draft.label()), draft.enabled() == null || draft.enabled());
    }

    private static String given(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static RulePreview view(Retention.Preview p) {
        return new RulePreview(p.rule(), p.studies(), p.instances(), p.storeInstances(), p.share(), p.overGuard());
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Remove a retention rule (admin role)")
    @APIResponse(responseCode = "204", description = "removed")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Response remove(@PathParam("id") String id) {
        Access.require(security, Role.ADMIN);
        retention.remove(id);
        return Response.noContent().build();
    }

    @GET
    @Path("{id}/preview")
    @Operation(summary = "What a rule would delete now: a dry run (admin role)")
    @APIResponse(responseCode = "200", description = "the studies it selects", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "RulePreview")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public RulePreview preview(@PathParam("id") String id) {
        Access.require(security, Role.ADMIN);
        return view(retention.preview(id));
    }

    @POST
    @Path("{id}/run")
    @Operation(summary = "Run a rule now (admin role)", description = "Its studies go to the trash; a rule not"
            + " confirmed that now takes more than the guard's share is held (outcome held, with the reason).")
    @APIResponse(responseCode = "200", description = "what the run did", content = @Content(
            mediaType = ApiDocs.JSON, schema = @Schema(ref = "RetentionRun")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Retention.Run run(@PathParam("id") String id) {
        Access.require(security, Role.ADMIN);
        return retention.run(id);
    }
}
