package org.medjava.store.server.rest;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonObjectBuilder;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.index.Visibility;
import org.medjava.store.server.http.FrontHeaders;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.config.AccessSettings;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.security.BrowserRequests;
import org.medjava.store.server.security.LoginThrottle;
import org.medjava.store.server.security.Role;
import org.medjava.store.server.security.SessionCookie;
import org.medjava.store.server.security.SessionToken;
import org.medjava.store.server.security.Sessions;
import org.medjava.store.server.security.StoreAuthenticationMechanism;
import org.medjava.store.server.security.StudyAccess;
import org.medjava.store.server.security.UserStore;
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
 * Browser sessions: log in with the store's accounts (the same names, passwords and roles as HTTP Basic) and get a
 * session cookie; log out; who am I. The cookie is HttpOnly and SameSite=Strict; a non-browser client may ask for
 * the token itself ({@code ?token=true}) and send it as {@code Authorization: Bearer}.
 */
@RequestScoped
@Path("auth")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = ApiDocs.SESSIONS)
public class SessionResource {

    /** The body of {@code POST /auth/login} as JSON. */
    @Schema(name = "Login", description = "A store account's name and password.",
            example = "{\"username\": \"admin\", \"password\": \"your-password\"}")
    public record Login(String username, String password) {
    }

    private static final CacheControl NO_STORE = CacheControl.valueOf("no-store");
    /** Made once (Json.createObjectBuilder() looks the provider up on every call; see LivenessFilter). */
    private static final JsonBuilderFactory JSON = Json.createBuilderFactory(Map.of());

    @Inject
    Sessions sessions;

    @Inject
    AccessSettings access;

    @Inject
    LinkSettings links;

    @Inject
    AuditTrail audit;

    @Inject
    LoginThrottle throttle;

    @Inject
    UserStore users;

    /** Null without single sign-on. */
    @Inject
    org.medjava.store.server.security.OidcLogin oidc;

    @Context
    jakarta.ws.rs.core.UriInfo uri;

    @Context
    jakarta.ws.rs.core.HttpHeaders headers;

    @Context
    HttpServletRequest request;

    @Context
    SecurityContext security;

    @POST
    @Path("login")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response login(Login login, @QueryParam("token") boolean token) {
        if (login == null) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST,
                    "send {\"username\": \"...\", \"password\": \"...\"}");
        }
        return login(login.username(), login.password(), token);
    }

    @POST
    @Path("login")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    // with login() above, one operation in OpenAPI (one path and method): documented here, its two body types in
    // META-INF/openapi.yaml (requestBodies/Login, set by ApiDocumentFilter)
    @Operation(summary = "Log in: a session cookie (and, with token=true, the token for Authorization: Bearer)",
            description = "The cookie is HttpOnly and SameSite=Strict, valid for medjava.session.idle-minutes and "
                    + "renewed while used. Takes JSON or a form (username, password). Refused from another site's "
                    + "page.")
    @Parameter(name = "token", in = ParameterIn.QUERY, description = "true: the answer carries the token too",
            schema = @Schema(type = SchemaType.BOOLEAN, defaultValue = "false"))
    @APIResponse(responseCode = "200", description = "logged in; Set-Cookie carries the session",
            headers = @Header(name = "Set-Cookie", schema = @Schema(type = SchemaType.STRING)),
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Session")))
    @APIResponse(responseCode = "400", ref = ApiDocs.BAD_REQUEST)
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    @APIResponse(responseCode = "403", ref = ApiDocs.FORBIDDEN)
    @APIResponse(responseCode = "429", description = "too many failed logins from this address (for this account "
            + "or any): wait Retry-After seconds",
            headers = @Header(name = "Retry-After", schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    @APIResponse(responseCode = "503", description = "too many password checks at once: wait Retry-After seconds",
            headers = @Header(name = "Retry-After", schema = @Schema(type = SchemaType.INTEGER)),
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Refusal")))
    public Response loginForm(@FormParam("username") String username, @FormParam("password") String password,
                              @QueryParam("token") boolean token) {
        return login(username, password, token);
    }

    private Response login(String username, String password, boolean token) {
        if (username == null || username.isEmpty() || password == null) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "send a username and a password");
        }
        char[] secret = password.toCharArray();
        String address = PublicBase.clientAddress(links, request);
        LoginThrottle.Attempt<Sessions.Issued> attempt = throttle.attempt(address, username,
                users.remembers(username, secret), () -> sessions.login(username, secret));
        if (attempt.outcome() == LoginThrottle.Outcome.THROTTLED || attempt.outcome() == LoginThrottle.Outcome.BUSY) {
            boolean throttled = attempt.outcome() == LoginThrottle.Outcome.THROTTLED;
            if (throttled) {
                audit.record(AuditEvents.login(Caller.account(username, address), false, "throttled"));
            }
            int status = throttled ? 429 : 503;
            return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).cacheControl(NO_STORE)
                    .header("Retry-After", attempt.retryAfterSeconds())
                    .entity(JSON.createObjectBuilder().add("status", status)
                            .add("error", throttled ? "Too Many Requests" : "Service Unavailable")
                            .add("message", throttled ? StoreAuthenticationMechanism.THROTTLED_MESSAGE
                                    : StoreAuthenticationMechanism.BUSY_MESSAGE).build())
                    .build();
        }
        Optional<Sessions.Issued> issued = Optional.ofNullable(attempt.value());
        audit.record(AuditEvents.login(Caller.account(username, address),
                issued.isPresent(), "session login: wrong user name or password"));
        if (issued.isEmpty()) {
            return Response.status(Response.Status.UNAUTHORIZED).type(MediaType.APPLICATION_JSON_TYPE)
                    .header("WWW-Authenticate", BrowserRequests.SESSION_CHALLENGE).cacheControl(NO_STORE)
                    .entity(JSON.createObjectBuilder().add("status", 401).add("error", "Unauthorized")
                            .add("message", "wrong user name or password").build())
                    .build();
        }
        SessionToken t = issued.get().token();
        JsonObjectBuilder body = describe(t.user(), issued.get().role(), t.expires(), "session");
        if (token) {
            body.add("token", issued.get().text());
        }
        return Response.ok(body.build()).cacheControl(NO_STORE)
                .header("Set-Cookie", SessionCookie.set(issued.get().text(), t.expires(), t.issued(),
                        request.getContextPath(), secure()))
                .build();
    }

    /**
     * Ends the session of the cookie (or Bearer token) on every node and removes the cookie: 204, or 200 with where
     * the browser ends its session at the OpenID provider too when single sign-on made this one.
     */
    @POST
    @Path("logout")
    @Operation(summary = "Log out: ends the session on every node and removes the cookie")
    @APIResponse(responseCode = "200", description = "logged out of a single sign-on: providerLogout is where the "
            + "browser goes to end its session at the OpenID provider too",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "ProviderLogout")))
    @APIResponse(responseCode = "204", description = "logged out (also when no session was sent)")
    public Response logout() {
        String token = SessionCookie.read(request);
        String authorization = request.getHeader("Authorization");
        if (token == null && authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            token = authorization.substring(7).trim();
        }
        Sessions.Checked session = token == null ? null : sessions.check(token, false);
        if (sessions.logout(token) && session != null && session.valid()) { // the logout path is open: the token names the user
            audit.record(AuditEvents.logout(Caller.account(session.token().user(),
                    PublicBase.clientAddress(links, request))));
        }
        String clear = SessionCookie.clear(request.getContextPath(), secure());
        Optional<java.net.URI> atProvider = session != null && session.valid() && session.token().singleSignOn()
                && oidc != null ? oidc.providerLogout(PublicBase.resolve(links, uri, headers, "")) : Optional.empty();
        if (atProvider.isPresent()) {
            return Response.ok(JSON.createObjectBuilder().add("providerLogout", atProvider.get().toString()).build())
                    .type(MediaType.APPLICATION_JSON_TYPE).cacheControl(NO_STORE).header("Set-Cookie", clear).build();
        }
        return Response.noContent().cacheControl(NO_STORE).header("Set-Cookie", clear).build();
    }

    /** Who is logged in, with which role, and until when (null for HTTP Basic, which has no session). */
    @GET
    @Path("me")
    @Operation(summary = "Who is logged in, with which role, until when")
    @SecurityRequirement(name = ApiDocs.BASIC)
    @SecurityRequirement(name = ApiDocs.BEARER)
    @SecurityRequirement(name = ApiDocs.SESSION)
    @APIResponse(responseCode = "200", description = "the caller",
            content = @Content(mediaType = ApiDocs.JSON, schema = @Schema(ref = "Session",
                    example = "{\"user\": \"admin\", \"role\": \"admin\", \"expires\": null, \"via\": \"basic\"}")))
    @APIResponse(responseCode = "401", ref = ApiDocs.UNAUTHORIZED)
    public Response me() {
        if (security.getUserPrincipal() == null) {
            throw new StoreException(StoreException.Kind.UNAUTHORIZED, "not logged in");
        }
        Object attribute = request.getAttribute(StoreAuthenticationMechanism.SESSION_ATTRIBUTE);
        SessionToken session = attribute instanceof SessionToken t ? t : null;
        Role role = Role.READER;
        for (Role r : Role.values()) {
            if (security.isUserInRole(r.id())) {
                role = r;
            }
        }
        Object via = request.getAttribute(StoreAuthenticationMechanism.VIA_ATTRIBUTE);
        boolean shared = session != null && session.share() != null;
        JsonObjectBuilder body = describe(security.getUserPrincipal().getName(), role,
                session == null ? null : session.expires(), shared ? "share" : via == null ? "basic" : via.toString());
        if (shared) { // the web viewer shows this study alone, read only
            body.add("sharedStudy", request.getAttribute(StudyAccess.SHARED_STUDY_ATTRIBUTE).toString());
        } else {
            // access by project: the web application leaves out the sections such a caller may not read (Files, Trash)
            Visibility visibility = StudyAccess.of(request, security, access.byProject());
            if (!visibility.all()) {
                body.add("projects", JSON.createArrayBuilder(new java.util.TreeSet<>(visibility.labelSet())));
            }
        }
        return Response.ok(body.build()).cacheControl(NO_STORE).build();
    }

    private static JsonObjectBuilder describe(String user, Role role, Instant expires, String via) {
        JsonObjectBuilder b = JSON.createObjectBuilder().add("user", user).add("role", role.id());
        if (expires == null) {
            b.addNull("expires");
        } else {
            b.add("expires", expires.toString());
        }
        return b.add("via", via);
    }

    private boolean secure() {
        return SessionCookie.secure(FrontHeaders.secure(request), links.publicUrl());
    }
}
