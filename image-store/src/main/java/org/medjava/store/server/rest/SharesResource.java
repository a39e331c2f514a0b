package org.medjava.store.server.rest;

import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.Share;
import org.medjava.store.core.index.StudyQuery;
import org.medjava.store.core.index.StudySummary;
import org.medjava.store.server.config.AccessSettings;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.http.RequestCaller;
import org.medjava.store.server.security.Access;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.security.ShareLinks;
import org.medjava.store.server.security.StudyAccess;

/**
 * Share links, made and revoked: {@code POST /shares} gives a link that opens one study read only, without an
 * account, until it expires ({@code medjava.share.max-days} at most) or is revoked ({@code DELETE /shares/{id}}).
 * Uploaders share the studies they may see and see and revoke their own links; administrators all of them. Each
 * creation and revocation is audited; so is each opening, and every read through a link names it as the user.
 * Opening is {@link ShareLinkResource}'s.
 */
@Path("shares")
@Tag(name = ApiDocs.SESSIONS)
@Produces(MediaType.APPLICATION_JSON)
public class SharesResource {

    /** What a share link is made from. */
    public record NewShare(String study, Integer hours, String note) {
    }

    /** A share link as the API shows it; {@code url} only while it is live. */
    public record ShareView(String id, String study, String url, String createdBy, Instant created, Instant expires,
                            boolean live, Instant revoked, String revokedBy, String note, long opens,
                            Instant lastOpen) {
    }

    private static final int DEFAULT_HOURS = 7 * 24;
    private static final int LIST_LIMIT = 1000;

    @Inject
    ShareLinks shares;

    @Inject
    DicomIndex index;

    @Inject
    AuditTrail audit;

    @Inject
    AccessSettings access;

    @Inject
    LinkSettings links;

    @Context
    SecurityContext security;

    @Context
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders headers;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Makes a share link to one study (uploader role)", description = "The link opens the study "
            + "read only in the web viewer, without an account, for hours (default 168, at most "
            + "medjava.share.max-days); whoever holds it can open it, so send it as you would the images.")
    @RequestBody(required = true, content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "NewShare")))
    @APIResponse(responseCode = "201", description = "the link", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "Share")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response create(NewShare body) {
        Access.require(security, Role.UPLOADER);
        if (body == null || body.study() == null) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "say which study: {\"study\": \"<its "
                    + "StudyInstanceUID>\", \"hours\": 168, \"note\": \"...\"}");
        }
        int hours = body.hours() == null ? DEFAULT_HOURS : body.hours();
        if (hours < 1) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "hours is 1 or more, got " + hours);
        }
        String note = body.note() == null ? "" : body.note().strip();
        if (note.length() > 256 || note.chars().anyMatch(Character::isISOControl)) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "a note is at most 256 characters on one line");
        }
        StudySummary study = visibleStudy(body.study());
        Share share = shares.create(study.studyInstanceUid(), security.getUserPrincipal().getName(),
                Duration.ofHours(hours), note);
        audit.record(AuditEvents.shareChanged(RequestCaller.of(request), "create", share.studyUid(),
                study.patientId(), "share link " + share.id() + " made, valid until " + share.expires()));
        ShareView view = view(share);
        return Response.created(PublicBase.resolve(links, uri, headers, "shares/" + share.id())).entity(view)
                .build();
    }

    @GET
    @Operation(summary = "Share links, newest first (uploader role: your own; administrators: all)")
    @Parameter(name = "study", in = ParameterIn.QUERY, description = "only those of this StudyInstanceUID")
    @APIResponse(responseCode = "200", description = "the links", content = @Content(mediaType = ApiDocs.JSON,
            schema = @Schema(ref = "ShareList")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public List<ShareView> list(@QueryParam("study") String study) {
        Access.require(security, Role.UPLOADER);
        String by = security.isUserInRole(Role.ADMIN.id()) ? null : security.getUserPrincipal().getName();
        return index.shares(study, by, LIST_LIMIT).stream().map(this::view).toList();
    }

    @DELETE
    @Path("{id}")
    @Operation(summary = "Revokes a share link (its maker or an administrator)", description = "At once on this "
            + "node, within a second on the others; the sessions it opened end with it.")
    @Parameter(name = "id", in = ParameterIn.PATH, required = true, description = "the link's id")
    @APIResponse(responseCode = "204", description = "revoked (or it had ended already)")
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response revoke(@PathParam("id") String id) {
        Access.require(security, Role.UPLOADER);
        String user = security.getUserPrincipal().getName();
        Share share = index.share(id).filter(s -> security.isUserInRole(Role.ADMIN.id()) || s.createdBy().equals(user))
                .orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND, "no share link " + id
                        + " of yours"));
        if (shares.revoke(share.id(), user)) {
            String patientId = index.studies(StudyQuery.all().studyInstanceUid(share.studyUid()).limit(1)).stream()
                    .findFirst().map(StudySummary::patientId).orElse(null);
            audit.record(AuditEvents.shareChanged(RequestCaller.of(request), "revoke", share.studyUid(),
                    patientId, "share link " + share.id() + " revoked"));
        }
        return Response.noContent().build();
    }

    /** The study, when it is in the index and this caller may see it: 404 otherwise, the same answer either way. */
    private StudySummary visibleStudy(String studyUid) {
        if (!studyUid.matches("[0-9.]{1,64}")) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "not a StudyInstanceUID: digits and dots, "
                    + "at most 64");
        }
        return index.studies(StudyQuery.all().studyInstanceUid(studyUid).limit(1)
                        .visibleTo(StudyAccess.of(request, security, access.byProject()))).stream().findFirst()
                .orElseThrow(() -> new StoreException(StoreException.Kind.NOT_FOUND, "no study " + studyUid
                        + " in the store"));
    }

    private ShareView view(Share s) {
        boolean live = s.live(Instant.now());
        String url = live ? PublicBase.resolve(links, uri, headers, "share/" + shares.token(s)).toString() : null;
        return new ShareView(s.id(), s.studyUid(), url, s.createdBy(), s.created(), s.expires(), live, s.revoked(),
                s.revokedBy(), s.note(), s.opens(), s.lastOpen());
    }
}
