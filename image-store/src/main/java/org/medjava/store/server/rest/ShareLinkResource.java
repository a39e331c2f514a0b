package org.medjava.store.server.rest;

import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.http.FrontHeaders;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.security.SessionCookie;
import org.medjava.store.server.security.Sessions;
import org.medjava.store.server.security.ShareLinks;

/**
 * Opening a share link ({@code /share/<token>}, open without a login): a live link gives the browser a session that
 * reads its one study and sends it to the web viewer on that study; an unknown link is 404, an expired or revoked
 * one 410. A browser is answered with a page, other clients with the store's JSON refusal. Every opening and every
 * refusal is audited, as a login of the user {@code share:<id>}.
 */
@Path("share")
@Tag(name = ApiDocs.SESSIONS)
public class ShareLinkResource {

    private static final CacheControl NO_STORE = CacheControl.valueOf("no-store");

    @Inject
    ShareLinks shares;

    @Inject
    Sessions sessions;

    @Inject
    AuditTrail audit;

    @Inject
    LinkSettings links;

    @Context
    HttpServletRequest request;

    @Context
    HttpHeaders headers;

    @GET
    @Path("{token}")
    @Operation(summary = "Opens a share link: a session for its one study and a redirect to the web viewer")
    @Parameter(name = "token", in = ParameterIn.PATH, required = true, description = "the link's token")
    @APIResponse(responseCode = "303", description = "to the web viewer on the study; Set-Cookie carries a session "
            + "that reads that study alone")
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "410", description = "the link expired or was revoked",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    public Response open(@PathParam("token") String token) {
        ShareLinks.Opened opened = shares.open(token);
        String address = PublicBase.clientAddress(links, request);
        String user = opened.share() == null ? null : "share:" + opened.share().id();
        if (!opened.live()) {
            audit.record(AuditEvents.login(Caller.account(user, address), false, "share link: "
                    + opened.problem()));
            return refusal(opened.status(), opened.problem());
        }
        Sessions.Issued issued = sessions.share(opened.share().id(), opened.share().expires());
        audit.record(AuditEvents.login(Caller.account(user, address), true, null));
        String viewer = request.getContextPath() + "/viewer/#/view?study="
                + URLEncoder.encode(opened.share().studyUid(), StandardCharsets.UTF_8);
        return Response.seeOther(URI.create(viewer)).cacheControl(NO_STORE)
                .header("Referrer-Policy", "no-referrer") // the link is the credential: never sent on
                .header("Set-Cookie", SessionCookie.set(issued.text(), issued.token().expires(), Instant.now(),
                        request.getContextPath(), SessionCookie.secure(FrontHeaders.secure(request),
                                links.publicUrl())))
                .build();
    }

    /** A page for a browser (the link was clicked), the store's JSON refusal for anything else. */
    private Response refusal(int status, String message) {
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        if (accept != null && accept.contains("text/html")) {
            String page = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>MedJava: share link"
                    + "</title></head><body><h1>This link does not open anything now</h1><p>"
                    + (status == 410 ? "It " + message.substring("this share link ".length()) + "." : "There is no "
                    + "such share link on this store.")
                    + " Ask whoever sent it for a new one.</p></body></html>";
            return Response.status(status).type(MediaType.TEXT_HTML_TYPE.withCharset("utf-8")).cacheControl(NO_STORE)
                    .header("Referrer-Policy", "no-referrer").entity(page).build();
        }
        throw new org.medjava.store.core.StoreException(status == 410 ? org.medjava.store.core.StoreException.Kind.GONE
                : org.medjava.store.core.StoreException.Kind.NOT_FOUND, message);
    }
}
