package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditQuery;
import org.medjava.store.core.audit.AuditRecord;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.audit.SearchableTrail;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;

/**
 * {@code /audit/events}: the audit trail as an administrator searches it ("who opened this study"): reads, queries,
 * exports, writes and logins, newest first, by study, patient, user, type and time. The reads of the window still
 * open are recorded first, so the answer holds every read up to the question.
 */
@RequestScoped
@Path("audit")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.ADMIN)
@SecurityRequirement(name = ApiDocs.BASIC)
@SecurityRequirement(name = ApiDocs.BEARER)
@SecurityRequirement(name = ApiDocs.SESSION)
public class AuditResource {

    @Inject
    DicomIndex index;

    @Inject
    ReadAudit reads;

    @Inject
    SearchableTrail trail;

    @Context
    SecurityContext security;

    @GET
    @Path("events")
    @Operation(summary = "Search the audit trail (admin role)", description = "Newest first. Each event: when, its "
            + "type (read, query, export, write, login, admin) and DICOM EventID, who from which address, through which "
            + "door (http, dicomweb, dimse, front), the study and patient, and what (e.g. how many instances a window "
            + "of reads took). audit.log keeps the full DICOM audit messages.")
    @APIResponse(responseCode = "200", description = "the events", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "AuditRecordList")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public List<AuditRecord> events(
            @Parameter(description = "the StudyInstanceUID") @QueryParam("study") String study,
            @Parameter(description = "the PatientID") @QueryParam("patient") String patient,
            @Parameter(description = "the user (an account, an AE title, anonymous)") @QueryParam("user") String user,
            @Parameter(description = "read, query, export, write, login or admin") @QueryParam("type") String type,
            @Parameter(description = "only events at or after this time (ISO 8601, e.g. 2026-12-06T10:00:00Z)")
            @QueryParam("since") String since,
            @Parameter(description = "only events numbered below this seq (the next page)") @QueryParam("before")
            @DefaultValue("0") long before,
            @Parameter(description = "at most this many (1 to 1000)") @QueryParam("limit") @DefaultValue("100")
            int limit) {
        Access.require(security, Role.ADMIN);
        AuditQuery query;
        try {
            query = new AuditQuery(blank(study), blank(patient), blank(user), blank(type), since == null
                    || since.isBlank() ? null : Instant.parse(since.trim()), before, limit);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e instanceof DateTimeParseException
                    ? "since: " + since + " is not a time such as 2026-12-06T10:00:00Z" : e.getMessage());
        }
        reads.flush();
        trail.sync();
        return index.audit(query);
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
