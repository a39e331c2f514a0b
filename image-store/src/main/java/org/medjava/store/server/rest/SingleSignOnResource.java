package org.medjava.store.server.rest;

import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.config.OidcSettings;
import org.medjava.store.server.http.FrontHeaders;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.security.OidcLogin;
import org.medjava.store.server.security.OidcTokens;
import org.medjava.store.server.security.SessionCookie;
import org.medjava.store.server.security.Sessions;

/**
 * Single sign-on for the browser: {@code /auth/oidc} says whether it is configured, {@code /auth/oidc/login} sends
 * the browser to the OpenID provider, {@code /auth/oidc/callback} comes back from it with the store's ordinary
 * session cookie (the same as {@code POST /auth/login} gives). The flow itself is {@link OidcLogin}'s.
 */
@Path("auth/oidc")
@Tag(name = ApiDocs.SESSIONS)
public class SingleSignOnResource {

    private static final CacheControl NO_STORE = CacheControl.valueOf("no-store");
    private static final JsonBuilderFactory JSON = Json.createBuilderFactory(Map.of());

    /** Null when no provider is configured. */
    @Inject
    OidcLogin login;

    @Inject
    Sessions sessions;

    @Inject
    LinkSettings links;

    @Inject
    OidcSettings oidcSettings;

    @Inject
    AuditTrail audit;

    @Context
    HttpServletRequest request;

    @Context
    UriInfo uri;

    @Context
    HttpHeaders headers;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Whether single sign-on through an OpenID provider is offered, and where it starts",
            description = "For native applications too: the provider's issuer and their client id (a public client "
                    + "with PKCE and a loopback redirect, RFC 8252)")
    @APIResponse(responseCode = "200", description = "whether it is offered, its label, where it starts, the issuer "
            + "and the native client id",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "SingleSignOn")))
    public Response describe() {
        var body = JSON.createObjectBuilder().add("enabled", login != null);
        if (login != null) {
            // native clients (the desktop viewer) run the flow themselves against the provider, as a public client
            body.add("name", oidcSettings.displayName()).add("login", "auth/oidc/login")
                    .add("issuer", oidcSettings.issuer().orElseThrow().toString())
                    .add("nativeClientId", oidcSettings.nativeClientId());
        }
        return Response.ok(body.build()).cacheControl(NO_STORE).build();
    }

    @GET
    @Path("login")
    @Operation(summary = "Log in through the OpenID provider: a redirect to its login page",
            description = "Authorization code flow with PKCE; the login in progress travels in a signed cookie for "
                    + "10 minutes. Back at /auth/oidc/callback, the browser gets the session cookie and goes to next.")
    @Parameter(name = "next", in = ParameterIn.QUERY, description = "a path on this store to go to once logged in",
            schema = @Schema(defaultValue = "/"))
    @APIResponse(responseCode = "303", description = "to the provider's login page")
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    @APIResponse(responseCode = "503", ref = ApiDocs.UNAVAILABLE)
    public Response start(@QueryParam("next") String next) {
        OidcLogin sso = configured();
        OidcLogin.Started started;
        try {
            started = sso.start(callback(), next);
        } catch (java.io.IOException | com.nimbusds.oauth2.sdk.GeneralException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "the OpenID provider cannot be reached ("
                    + OidcTokens.reason(e) + "); log in with a local account or try again later");
        }
        return Response.seeOther(started.redirect()).cacheControl(NO_STORE)
                .header("Set-Cookie", loginCookie(started.cookie(), (int) OidcLogin.PATIENCE_SECONDS)).build();
    }

    @GET
    @Path("callback")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Where the OpenID provider sends the browser back: the session cookie and a redirect")
    @APIResponse(responseCode = "303", description = "logged in: Set-Cookie carries the session; to next")
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "404", ref = ApiDocs.NOT_FOUND)
    public Response callback(@QueryParam("code") String code, @QueryParam("state") String state,
                             @QueryParam("error") String error,
                             @QueryParam("error_description") String errorDescription) {
        OidcLogin sso = configured();
        String address = PublicBase.clientAddress(links, request);
        OidcLogin.Finished finished;
        try {
            finished = sso.finish(callback(), code, state, error, errorDescription, cookie());
        } catch (OidcLogin.Failed e) {
            audit.record(AuditEvents.login(Caller.account(null, address), false, "single sign-on: "
                    + e.getMessage()));
            return refusal(e.status(), e.getMessage());
        }
        String user = finished.identity().user();
        if (finished.identity().role().isEmpty()) {
            audit.record(AuditEvents.login(Caller.account(user, address), false, "single sign-on: no MedJava role"));
            return refusal(403, "user " + user + " has no MedJava role at the OpenID provider: ask an administrator "
                    + "for one of reader, uploader, admin");
        }
        Sessions.Issued issued = sessions.singleSignOn(finished.identity());
        audit.record(AuditEvents.login(Caller.account(user, address), true, null));
        return Response.seeOther(URI.create(finished.next())).cacheControl(NO_STORE)
                .header("Set-Cookie", SessionCookie.set(issued.text(), issued.token().expires(), Instant.now(),
                        request.getContextPath(), secure()))
                .header("Set-Cookie", loginCookie("", 0)).build();
    }

    private OidcLogin configured() {
        if (login == null) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "single sign-on is not configured "
                    + "(medjava.oidc.issuer): log in with a store account");
        }
        return login;
    }

    private Response refusal(int status, String message) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).cacheControl(NO_STORE)
                .header("Set-Cookie", loginCookie("", 0))
                .entity(JSON.createObjectBuilder().add("status", status)
                        .add("error", Response.Status.fromStatusCode(status).getReasonPhrase())
                        .add("message", message).build())
                .build();
    }

    /** The redirect URI registered at the provider: this store's callback as the browser reaches it. */
    private URI callback() {
        return PublicBase.resolve(links, uri, headers, "auth/oidc/callback");
    }

    private String cookie() {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie c : cookies) {
                if (c.getName().equals(OidcLogin.COOKIE)) {
                    return c.getValue();
                }
            }
        }
        return null;
    }

    /**
     * The login in progress, for the callback only. SameSite=Lax, not Strict: the provider's page sends the browser
     * back, a navigation from another site that a Strict cookie would not follow.
     */
    private String loginCookie(String value, int maxAge) {
        String path = request.getContextPath() + "/auth/oidc/callback";
        return OidcLogin.COOKIE + "=" + value + "; Max-Age=" + maxAge + "; Path=" + path + "; HttpOnly; SameSite=Lax"
                + (secure() ? "; Secure" : "");
    }

    private boolean secure() {
        return SessionCookie.secure(FrontHeaders.secure(request), links.publicUrl());
    }
}
