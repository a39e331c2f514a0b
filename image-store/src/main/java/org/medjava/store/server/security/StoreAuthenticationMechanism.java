package org.medjava.store.server.security;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.json.Json;
import jakarta.json.JsonBuilderFactory;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.server.config.AccessSettings;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.config.AuthSettings;
import org.medjava.store.server.http.FrontHeaders;
import org.medjava.store.server.http.PathParams;
import org.medjava.store.server.http.PublicBase;
import org.medjava.store.server.logging.AccessLog;
import org.medjava.store.server.logging.AccessLogFilter;

/**
 * Authentication for the whole store, decided once at the start of each request (so a long transfer is never cut
 * by a session expiring meanwhile): HTTP Basic, a browser session's cookie ({@link SessionCookie}, made by
 * {@code POST /auth/login} or the single sign-on {@link OidcLogin}), the same token as {@code Authorization: Bearer},
 * or, as Bearer, a JWT from the site's OpenID provider ({@link OidcTokens}, when configured). Credentials, when sent, are always
 * checked (a wrong password or a dead session is a 401 even where anonymous access would do). Without credentials,
 * only reads pass, and only when {@code medjava.auth.anonymous-read} is on; writes and administration always need a
 * login. What a logged-in caller may do is decided by the resources, by role.
 *
 * <p>Before that: CORS preflights are answered ({@link CorsPolicy}); after it, a cookie-authenticated write must
 * come from the store's own pages or an allowed origin ({@link CsrfGuard}). A caller without a login is answered
 * by kind ({@link BrowserRequests}): a page's script gets a 401 without a Basic challenge, a browser navigating
 * gets sent to the login page, any other client gets the Basic challenge.
 */
@ApplicationScoped
public class StoreAuthenticationMechanism {

    private static final java.util.logging.Logger LOG =
            java.util.logging.Logger.getLogger(StoreAuthenticationMechanism.class.getName());

    /**
     * What the mechanism decided for a request ({@link StoreServerAuthModule} tells the container): go on without a
     * caller, go on as a caller with groups (its roles), or the request is answered already (a refusal, a preflight,
     * a redirect to the login page).
     */
    public record Verdict(boolean answered, String caller, Set<String> groups) {
        static final Verdict ANONYMOUS = new Verdict(false, null, Set.of());
        static final Verdict ANSWERED = new Verdict(true, null, Set.of());

        static Verdict login(String caller, Set<String> groups) {
            return new Verdict(false, caller, groups);
        }
    }

    /** The HTTP Basic challenge (curl, the Swing viewer, DCMTK). */
    public static final String CHALLENGE = BrowserRequests.BASIC_CHALLENGE;
    /** The request attribute holding the request's {@link SessionToken} when a session authenticated it. */
    public static final String SESSION_ATTRIBUTE = SessionToken.class.getName();
    /**
     * The request attribute saying how a session came: {@code session} (the cookie), {@code bearer} (the store's own
     * token) or {@code oidc} (the OpenID provider's token).
     */
    public static final String VIA_ATTRIBUTE = SESSION_ATTRIBUTE + ".via";
    /** The request attribute holding the {@link OidcTokens.Identity} when the provider's token authenticated it. */
    public static final String OIDC_ATTRIBUTE = OidcTokens.Identity.class.getName();

    /**
     * Open without a login: probes and monitoring (MicroProfile health, metrics, OpenAPI), the web applications'
     * static files (their own login page among them; the API browser's calls are authenticated as usual), the
     * store's root, login and logout.
     */
    /** The answers to a throttled or refused-as-busy password check (also those of POST /auth/login). */
    public static final String THROTTLED_MESSAGE = "too many failed logins from this address: try again after "
            + "Retry-After seconds";
    public static final String BUSY_MESSAGE = "too many password checks at once: try again after Retry-After seconds";

    /**
     * Made once, when the first refusal is written: JSON-P's static {@code Json.createObjectBuilder()} looks its
     * provider up through the ServiceLoader on every call, which on a request thread searches every jar of the
     * application (see LivenessFilter); a refusal cost three times the CPU. A holder, so that this class loads
     * where no JSON-P provider is (the unit tests).
     */
    private static final class Bodies {
        static final JsonBuilderFactory JSON = Json.createBuilderFactory(Map.of());
    }

    private static final Pattern DOT_SEGMENT = Pattern.compile(".*/\\.\\.?(/.*)?");
    private static final List<String> OPEN = List.of("/health", "/metrics", "/openapi", "/viewer", "/ohif", "/api",
            "/auth/login", "/auth/logout", "/auth/oidc", "/share", "/favicon.ico");

    @Inject
    AccessSettings access;

    @Inject
    LinkSettings links;

    @Inject
    AuthSettings auth;

    @Inject
    Sessions sessions;

    @Inject
    CorsPolicy cors;

    @Inject
    UserStore users;

    @Inject
    AuditTrail audit;

    @Inject
    LoginThrottle throttle;

    @Inject
    AccessLog accessLog;

    /** Null when no OpenID provider is configured. */
    @Inject
    OidcTokens oidc;

    @Inject
    ShareLinks shares;

    @Inject
    org.medjava.store.core.index.DicomIndex index;

    /**
     * Decides the request ({@link #decide}); one this mechanism answers itself (a refusal, a preflight, a redirect
     * to the login page) never reaches the application's access log filter, so it is logged here.
     */
    public Verdict validateRequest(HttpServletRequest request, HttpServletResponse response) {
        AccessLogFilter.start(request);
        Verdict status = decide(request, response);
        if (!status.answered()) {
            status = studyAccess(request, response, status);
        }
        if (status.answered()) {
            String length = response.getHeader("Content-Length");
            AccessLogFilter.logRefused(accessLog, links, request, response,
                    length != null && length.matches("[0-9]{1,18}") ? Long.parseLong(length) : 0);
        }
        return status;
    }

    /**
     * What a caller limited to some studies — a share link's session, or anyone but an administrator under access
     * by project — may not ask: a door outside the share (403), a door that acts on any study (403), a file of a
     * study it may not see (404, as if absent). Each refusal is audited. The caller's verdict otherwise.
     */
    private Verdict studyAccess(HttpServletRequest request, HttpServletResponse response, Verdict status) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        boolean shared = shareOf(request) != null;
        if (!shared && (!access.byProject() || status.groups().contains(Role.ADMIN.id()))) {
            return status;
        }
        String what = request.getMethod() + " " + request.getRequestURI();
        if (shared && !StudyAccess.sharedRead(request.getMethod(), path)) {
            return refused(request, response, status, HttpServletResponse.SC_FORBIDDEN, what, "a share link opens "
                    + "one study, read only: " + request.getMethod() + " " + path + " is not part of it");
        }
        if (!shared && StudyAccess.administratorsOnly(request.getMethod(), path)) {
            return refused(request, response, status, HttpServletResponse.SC_FORBIDDEN, what, "with access by "
                    + "project (medjava.access.by-project), " + path + " is for administrators only: read studies "
                    + "through DICOMweb (/dicomweb) or the index (/index)");
        }
        if (StudyAccess.fileRequest(path) && hiddenFile(request, path)) {
            String raw = path.substring("/images/".length());
            String name = PathParams.decode(raw);
            audit.record(AuditEvents.readRefused(caller(request, status.caller()), "http", request.getRequestURI(),
                    what + " refused: not a study the caller may see"));
            // the same answer as for a file that is not there: nothing says the study exists
            return finish(response, HttpServletResponse.SC_NOT_FOUND, "no " + (name == null ? raw : name)
                    + " in the store");
        }
        return status;
    }

    private Verdict refused(HttpServletRequest request, HttpServletResponse response, Verdict status, int code,
                            String what, String reason) {
        audit.record(AuditEvents.readRefused(caller(request, status.caller()), "http", request.getRequestURI(),
                what + " refused: " + reason));
        return finish(response, code, reason);
    }

    /**
     * Under access by project, whether the file a request names is hidden from the caller: a read sees only a
     * DICOM file of a study it may see; a write (a PUT over it, a DELETE) may not touch an instance of a study it
     * may not see, and may write any name that holds none.
     */
    private boolean hiddenFile(HttpServletRequest request, String path) {
        Optional<String> study = StudyAccess.fileStudy(index, path);
        boolean seen = study.isPresent() && StudyAccess.visible(index, StudyAccess.of(request, false, true),
                study.get());
        return isRead(request.getMethod()) ? !seen : study.isPresent() && !seen;
    }

    /** The share link behind the request's session, or null. */
    static String shareOf(HttpServletRequest request) {
        return request.getAttribute(SESSION_ATTRIBUTE) instanceof SessionToken t ? t.share() : null;
    }

    /** The decision for plain reads taken in front of the container ({@link ReadAuthentication}). */
    public ReadAuthentication readAuthentication() {
        return new ReadAuthentication(users, throttle, auth.anonymousRead(), oidc);
    }

    private Verdict decide(HttpServletRequest request, HttpServletResponse response) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        String method = request.getMethod();
        String origin = request.getHeader("Origin");
        boolean open = isOpen(path);
        String preflightMethod = request.getHeader("Access-Control-Request-Method");
        if (CorsPolicy.isPreflight(method, origin, preflightMethod)) {
            cors.preflight(origin, preflightMethod, open || (auth.anonymousRead() && isRead(preflightMethod)))
                    .forEach(response::setHeader);
            return finish(response, HttpServletResponse.SC_NO_CONTENT, null);
        }
        cors.actual(origin, method, open || (auth.anonymousRead() && isRead(method))).forEach(response::setHeader);
        if (open) {
            if (path.startsWith("/auth/")) { // no logging in (or out) from another site's page
                Optional<String> refused = CsrfGuard.refusal(method, origin, request.getHeader("Referer"),
                        ownOrigins(request), cors, false);
                if (refused.isPresent()) {
                    return finish(response, HttpServletResponse.SC_FORBIDDEN, refused.get());
                }
            }
            return Verdict.ANONYMOUS;
        }
        String header = request.getHeader("Authorization");
        if (header != null && header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return basic(header.substring(6).trim(), request, response);
        }
        if (header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            String bearer = header.substring(7).trim();
            if (oidc != null && OidcTokens.isJwt(bearer)) {
                return providerToken(bearer, request, response);
            }
            Sessions.Checked checked = sessions.check(bearer, false);
            if (!checked.valid()) {
                audit.record(AuditEvents.login(caller(request, null), false, "Bearer token not accepted: "
                        + checked.problem()));
                return refuse(request, response, "the Bearer token is not accepted: " + checked.problem()
                        + "; log in again (POST /auth/login?token=true)");
            }
            return sessionLogin(checked, request, "bearer");
        }
        String cookie = SessionCookie.read(request);
        if (cookie != null) {
            return session(cookie, request, response);
        }
        if (isRead(method) && auth.anonymousRead()) {
            return Verdict.ANONYMOUS;
        }
        return unauthenticated(request, response, "log in: this needs an account (POST /auth/login, or HTTP Basic)");
    }

    /**
     * A JWT from the OpenID provider: refused with 401 (and an RFC 6750 challenge saying why) when it does not verify,
     * with 403 when it verifies but grants no store role. The first use of a token is audited as a login; every
     * refusal is.
     */
    private Verdict providerToken(String token, HttpServletRequest request, HttpServletResponse response) {
        OidcTokens.Verified verified = oidc.verify(token);
        if (!verified.valid()) {
            LOG.info(() -> "OpenID token refused from " + PublicBase.clientAddress(links, request) + ": "
                    + verified.problem());
            audit.record(AuditEvents.login(caller(request, null), false, "OpenID token not accepted: "
                    + verified.problem()));
            response.setHeader("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\""
                    + verified.problem().replace('"', '\'') + "\"");
            return finish(response, HttpServletResponse.SC_UNAUTHORIZED, "the Bearer token is not accepted: "
                    + verified.problem() + "; get a new one from the OpenID provider");
        }
        OidcTokens.Identity identity = verified.identity();
        if (identity.role().isEmpty()) {
            if (verified.fresh()) {
                audit.record(AuditEvents.login(caller(request, identity.user()), false, "the OpenID token grants "
                        + "no MedJava role"));
            }
            return finish(response, HttpServletResponse.SC_FORBIDDEN, "user " + identity.user() + " has no MedJava "
                    + "role: the OpenID provider's token lists none of reader, uploader, admin (or a name "
                    + "medjava.oidc.role-map maps) in the claim " + oidc.settings().rolesClaim());
        }
        if (verified.fresh()) {
            audit.record(AuditEvents.login(caller(request, identity.user()), true, null));
        }
        request.setAttribute(OIDC_ATTRIBUTE, identity);
        request.setAttribute(VIA_ATTRIBUTE, "oidc");
        request.setAttribute(StudyAccess.PROJECTS_ATTRIBUTE, identity.projects());
        return Verdict.login(identity.user(), identity.role().get().groups());
    }

    private Verdict basic(String base64, HttpServletRequest request, HttpServletResponse response) {
        Credential credential = parse(base64);
        if (credential != null) {
            String name = credential.name();
            char[] password = credential.password().toCharArray();
            Optional<UserStore.User> remembered = users.rememberedUser(name, password); // one fingerprint, not two
            boolean known = remembered.isPresent();
            LoginThrottle.Attempt<UserStore.User> attempt = throttle.attempt(PublicBase.clientAddress(links, request),
                    name, known, () -> known ? remembered : users.authenticatedUser(name, password));
            if (attempt.outcome() == LoginThrottle.Outcome.ACCEPTED) {
                if (!known) { // Basic sends the password with every request: only a fresh check is a login
                    audit.record(AuditEvents.login(caller(request, name), true, null));
                }
                // the account as it is now: its projects are what access by project shows it
                request.setAttribute(StudyAccess.PROJECTS_ATTRIBUTE, attempt.value().projects());
                return Verdict.login(name, attempt.value().role().groups());
            }
            if (attempt.outcome() != LoginThrottle.Outcome.REJECTED) {
                return tooMany(request, response, name, attempt);
            }
        }
        audit.record(AuditEvents.login(caller(request, credential == null ? null : credential.name()), false,
                "HTTP Basic: wrong user name or password"));
        return refuse(request, response, "wrong user name or password");
    }

    /** A password check refused before hashing: 429 (throttled) or 503 (every hashing permit busy), Retry-After. */
    private Verdict tooMany(HttpServletRequest request, HttpServletResponse response, String name,
                                         LoginThrottle.Attempt<?> attempt) {
        response.setHeader("Retry-After", Long.toString(attempt.retryAfterSeconds()));
        if (attempt.outcome() == LoginThrottle.Outcome.THROTTLED) {
            audit.record(AuditEvents.login(caller(request, name), false, "throttled"));
            return finish(response, 429, THROTTLED_MESSAGE);
        }
        return finish(response, HttpServletResponse.SC_SERVICE_UNAVAILABLE, BUSY_MESSAGE);
    }

    /** A request with the session cookie: a dead session is removed, a live one renewed when due. */
    private Verdict session(String cookie, HttpServletRequest request, HttpServletResponse response) {
        boolean secure = secure(request);
        Sessions.Checked checked = sessions.check(cookie, true);
        if (!checked.valid()) {
            response.addHeader("Set-Cookie", SessionCookie.clear(request.getContextPath(), secure));
            return unauthenticated(request, response, "log in again: " + checked.problem());
        }
        Optional<String> forged = CsrfGuard.refusal(request.getMethod(), request.getHeader("Origin"),
                request.getHeader("Referer"), ownOrigins(request), cors, true);
        if (forged.isPresent()) {
            return finish(response, HttpServletResponse.SC_FORBIDDEN, forged.get());
        }
        if (checked.renewed() != null) {
            response.addHeader("Set-Cookie", SessionCookie.set(checked.renewed(), checked.token().expires(),
                    Instant.now(), request.getContextPath(), secure));
        }
        return sessionLogin(checked, request, "session");
    }

    /** A live session of the store's own, from the cookie or as Bearer: what the request may see comes with it. */
    private Verdict sessionLogin(Sessions.Checked checked, HttpServletRequest request, String via) {
        request.setAttribute(SESSION_ATTRIBUTE, checked.token());
        request.setAttribute(VIA_ATTRIBUTE, via);
        request.setAttribute(StudyAccess.PROJECTS_ATTRIBUTE, checked.projects());
        if (checked.token().share() != null) { // Sessions checked it is live: its study is at hand
            request.setAttribute(StudyAccess.SHARED_STUDY_ATTRIBUTE, shares.studyOf(checked.token().share())
                    .orElseThrow());
        }
        return Verdict.login(checked.token().user(), checked.role().groups());
    }

    /** Who is trying to log in, from where (the name as sent: the audit trail escapes it). */
    private Caller caller(HttpServletRequest request, String user) {
        return Caller.account(user, PublicBase.clientAddress(links, request));
    }

    /** Credentials were sent and are wrong: 401 with the challenge that suits the client. */
    private static Verdict refuse(HttpServletRequest request, HttpServletResponse response,
                                               String message) {
        response.setHeader("WWW-Authenticate", BrowserRequests.challenge(request.getHeader("Sec-Fetch-Mode"),
                request.getHeader("X-Requested-With")));
        return finish(response, HttpServletResponse.SC_UNAUTHORIZED, message);
    }

    /** No (live) login: a browser loading a page goes to the login page, others get a 401 and a challenge. */
    private static Verdict unauthenticated(HttpServletRequest request, HttpServletResponse response,
                                                        String message) {
        if (BrowserRequests.isNavigation(request.getMethod(), request.getHeader("Sec-Fetch-Mode"),
                request.getHeader("X-Requested-With"), request.getHeader("Accept"))) {
            response.setHeader("Location", BrowserRequests.loginRedirect(request.getContextPath(),
                    request.getRequestURI().substring(request.getContextPath().length()), request.getQueryString()));
            response.setHeader("Cache-Control", "no-store");
            return finish(response, HttpServletResponse.SC_FOUND, null);
        }
        return refuse(request, response, message);
    }

    /**
     * Answers the request here, without the application: the status, and a JSON body like every refusal of the
     * store's ({@code status}, {@code error}, {@code message}). The response is committed so that nothing after
     * this mechanism changes it.
     */
    static Verdict finish(HttpServletResponse response, int status, String message) {
        response.setStatus(status);
        try {
            if (message != null) {
                byte[] body = Bodies.JSON.createObjectBuilder().add("status", status).add("error", reason(status))
                        .add("message", message).build().toString().getBytes(StandardCharsets.UTF_8);
                response.setContentType("application/json");
                response.setContentLength(body.length);
                response.getOutputStream().write(body);
            } else {
                response.setContentLength(0);
            }
            response.flushBuffer();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // the client went away
        }
        return Verdict.ANSWERED;
    }

    private static String reason(int status) {
        return switch (status) {
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 429 -> "Too Many Requests";
            case 503 -> "Service Unavailable";
            default -> "Error";
        };
    }

    /** The configured public URL's origin and the origin this request was sent to (see {@link CsrfGuard}). */
    java.util.List<String> ownOrigins(HttpServletRequest request) {
        // the front relays HTTPS to Payara as HTTP: the browser's origin is https then
        boolean tls = FrontHeaders.secure(request);
        String sentTo = (tls ? "https" : request.getScheme()) + "://" + request.getHeader("Host");
        return links.publicUrl().map(url -> java.util.List.of(url, sentTo)).orElseGet(() -> java.util.List.of(sentTo));
    }

    boolean secure(HttpServletRequest request) {
        return SessionCookie.secure(FrontHeaders.secure(request), links.publicUrl());
    }

    /**
     * Whether a path is open without a login. Only a plain path qualifies: once percent-decoded, no {@code .} or
     * {@code ..} segment, backslash, {@code ;} or empty segment, so that no spelling of a protected path passes as
     * an open one.
     */
    static boolean isOpen(String rawPath) {
        if (rawPath.isEmpty() || rawPath.equals("/")) {
            return true;
        }
        if (rawPath.startsWith("/images/")) {
            return false; // the common case, decided without decoding: no spelling of it names an open path
        }
        String path;
        try {
            path = java.net.URLDecoder.decode(rawPath.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (path.contains("\\") || path.contains(";") || path.contains("//") || path.chars().anyMatch(c -> c < 0x20)
                || DOT_SEGMENT.matcher(path).matches()) {
            return false;
        }
        return OPEN.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "/"));
    }

    static boolean isRead(String method) {
        return method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS");
    }

    /** An HTTP Basic credential as sent. */
    record Credential(String name, String password) {
    }

    /** An HTTP Basic credential from its Base64 text; null when it is not one. */
    static Credential parse(String base64) {
        try {
            String decoded = new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            return colon <= 0 ? null : new Credential(decoded.substring(0, colon), decoded.substring(colon + 1));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
