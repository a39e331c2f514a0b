package org.medjava.store.server.security;

import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.token.OIDCTokens;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The browser's single sign-on through the OpenID provider, as an OAuth 2.0 confidential (or public) client with
 * the authorization code flow and PKCE: {@link #start} sends the browser to the provider with a fresh state, nonce and
 * code verifier, which travel in a short-lived signed cookie (no state on the server, so any node of a cluster
 * finishes what another began); {@link #finish} checks the state, exchanges the code, validates the ID token (its
 * signature, issuer, audience, expiry and nonce) and reads the caller's role and projects from the access token
 * (or, when that is not a JWT for this store, from the ID token). The store then makes its ordinary session.
 */
public final class OidcLogin {

    private static final Logger LOG = Logger.getLogger(OidcLogin.class.getName());
    /** The cookie carrying a login in progress; only the callback path ever sees it. */
    public static final String COOKIE = "medjava_oidc";
    /** How long a login at the provider may take, in seconds. */
    public static final long PATIENCE_SECONDS = 600;
    private static final Duration PATIENCE = Duration.ofSeconds(PATIENCE_SECONDS);

    private final OidcTokens tokens;
    private final SessionCodec seal;
    private final ClientID client;
    private final Optional<Secret> secret;
    private final Scope scope;
    private final Clock clock;

    /** Why a login did not finish: {@code status} is the HTTP answer (400 a broken request, 401 refused, 403 no role). */
    public static final class Failed extends Exception {
        private final int status;

        Failed(int status, String message) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    /** Where to send the browser, and the cookie that must come back with it. */
    public record Started(URI redirect, String cookie) {
    }

    /**
     * @param sealKey a key of at least 32 bytes that signs the cookie of a login in progress (the sessions' key)
     */
    public OidcLogin(OidcTokens tokens, byte[] sealKey, String clientId, Optional<String> clientSecret, String scopes,
                     Clock clock) {
        this.tokens = tokens;
        this.seal = new SessionCodec(sealKey);
        this.client = new ClientID(clientId);
        this.secret = clientSecret.map(Secret::new);
        Scope s = Scope.parse(scopes);
        if (s == null) {
            s = new Scope();
        }
        if (!s.contains("openid")) {
            s.add("openid");
        }
        this.scope = s;
        this.clock = clock;
    }

    /**
     * Begins a login.
     *
     * @param callback this store's {@code /auth/oidc/callback} as the browser reaches it (the redirect URI registered
     *                 at the provider)
     * @param next     where the browser goes once logged in: a path on this store
     */
    public Started start(URI callback, String next) throws IOException, GeneralException {
        OIDCProviderMetadata provider = tokens.metadata();
        State state = new State();
        Nonce nonce = new Nonce();
        CodeVerifier verifier = new CodeVerifier();
        URI redirect = new AuthenticationRequest.Builder(new ResponseType(ResponseType.Value.CODE), scope, client,
                callback)
                .endpointURI(provider.getAuthorizationEndpointURI())
                .state(state)
                .nonce(nonce)
                .codeChallenge(verifier, CodeChallengeMethod.S256)
                .build()
                .toURI();
        String payload = String.join("\n", state.getValue(), nonce.getValue(), verifier.getValue(), safeNext(next),
                Long.toString(clock.instant().plus(PATIENCE).getEpochSecond()));
        String body = Base64.getUrlEncoder().withoutPadding().encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return new Started(redirect, body + "." + seal.digest("oidc-login", body));
    }

    /**
     * Where the browser ends its session at the provider too (OpenID RP-initiated logout), coming back to
     * {@code afterwards}; empty when the provider has no end-session endpoint or cannot be reached.
     */
    public Optional<URI> providerLogout(URI afterwards) {
        try {
            URI end = tokens.metadata().getEndSessionEndpointURI();
            if (end == null) {
                return Optional.empty();
            }
            String query = "client_id=" + java.net.URLEncoder.encode(client.getValue(), StandardCharsets.UTF_8)
                    + "&post_logout_redirect_uri=" + java.net.URLEncoder.encode(afterwards.toString(),
                    StandardCharsets.UTF_8);
            return Optional.of(URI.create(end + (end.getRawQuery() == null ? "?" : "&") + query));
        } catch (IOException | GeneralException e) {
            LOG.info(() -> "single sign-on: no logout at the provider (" + OidcTokens.reason(e) + ")");
            return Optional.empty();
        }
    }

    /** A finished login: who logged in and where the browser goes next. */
    public record Finished(OidcTokens.Identity identity, String next) {
    }

    /**
     * Finishes a login at the callback.
     *
     * @param cookie the login cookie the browser sent back, or null
     */
    public Finished finish(URI callback, String code, String state, String error, String errorDescription,
                           String cookie) throws Failed {
        String[] login = unseal(cookie);
        if (state == null || !state.equals(login[0])) {
            throw new Failed(400, "the answer from the OpenID provider is not for the login this browser started "
                    + "(state differs): start again");
        }
        if (error != null) {
            throw new Failed(401, "the OpenID provider refused the login: " + error
                    + (errorDescription == null ? "" : " (" + errorDescription + ")"));
        }
        if (code == null || code.isBlank()) {
            throw new Failed(400, "the OpenID provider's answer has no code");
        }
        OIDCProviderMetadata provider;
        OIDCTokens issued;
        try {
            provider = tokens.metadata();
            TokenRequest request = secret.isPresent()
                    ? new TokenRequest(provider.getTokenEndpointURI(), new ClientSecretBasic(client, secret.get()),
                            new AuthorizationCodeGrant(new AuthorizationCode(code), callback,
                                    new CodeVerifier(login[2])))
                    : new TokenRequest(provider.getTokenEndpointURI(), client,
                            new AuthorizationCodeGrant(new AuthorizationCode(code), callback,
                                    new CodeVerifier(login[2])));
            HTTPRequest http = request.toHTTPRequest();
            int timeout = (int) tokens.settings().timeout().toMillis();
            http.setConnectTimeout(timeout);
            http.setReadTimeout(timeout);
            TokenResponse answer = OIDCTokenResponseParser.parse(http.send());
            if (!answer.indicatesSuccess()) {
                ErrorObject e = answer.toErrorResponse().getErrorObject();
                throw new Failed(401, "the OpenID provider did not exchange the code: " + e.getCode()
                        + (e.getDescription() == null ? "" : " (" + e.getDescription() + ")"));
            }
            issued = answer.toSuccessResponse().getTokens().toOIDCTokens();
        } catch (IOException | GeneralException e) {
            throw new Failed(401, "the OpenID provider " + tokens.settings().issuer() + " cannot be reached to "
                    + "finish the login (" + OidcTokens.reason(e) + ")");
        }
        com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet id = validate(provider, issued.getIDToken(), login[1]);
        OidcTokens.Verified access = tokens.verify(issued.getAccessToken().getValue());
        OidcTokens.Identity identity;
        if (access.valid()) {
            identity = access.identity();
        } else {
            LOG.info(() -> "single sign-on: the access token does not verify for this store (" + access.problem()
                    + "); the roles come from the ID token");
            try {
                identity = OidcTokens.identity(id.toJWTClaimsSet(), tokens.settings());
            } catch (com.nimbusds.oauth2.sdk.ParseException e) {
                throw new Failed(401, "the ID token's claims cannot be read (" + OidcTokens.reason(e) + ")");
            }
        }
        return new Finished(identity, login[3]);
    }

    private com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet validate(OIDCProviderMetadata provider, JWT idToken,
                                                                           String nonce) throws Failed {
        if (idToken == null) {
            throw new Failed(401, "the OpenID provider sent no ID token");
        }
        try {
            IDTokenValidator validator = new IDTokenValidator(provider.getIssuer(), client,
                    new JWSVerificationKeySelector<SecurityContext>(
                            new java.util.HashSet<>(provider.getIDTokenJWSAlgs()), tokens.keys()), null);
            validator.setMaxClockSkew((int) tokens.settings().clockSkew().toSeconds());
            return validator.validate(idToken, new Nonce(nonce));
        } catch (IOException | GeneralException e) {
            throw new Failed(401, "the OpenID provider's keys cannot be read (" + OidcTokens.reason(e) + ")");
        } catch (com.nimbusds.jose.proc.BadJOSEException | com.nimbusds.jose.JOSEException e) {
            throw new Failed(401, "the ID token is not accepted: " + OidcTokens.reason(e));
        }
    }

    /** The login cookie's fields (state, nonce, verifier, next), when its seal is right and it is not too old. */
    private String[] unseal(String cookie) throws Failed {
        int dot = cookie == null ? -1 : cookie.indexOf('.');
        if (dot <= 0 || !java.security.MessageDigest.isEqual(
                seal.digest("oidc-login", cookie.substring(0, dot)).getBytes(StandardCharsets.US_ASCII),
                cookie.substring(dot + 1).getBytes(StandardCharsets.US_ASCII))) {
            throw new Failed(400, "no login in progress in this browser (its cookie is missing or altered): start "
                    + "again");
        }
        String[] f;
        try {
            f = new String(Base64.getUrlDecoder().decode(cookie.substring(0, dot)), StandardCharsets.UTF_8)
                    .split("\n", -1);
        } catch (IllegalArgumentException e) {
            throw new Failed(400, "a malformed login cookie: start again");
        }
        if (f.length != 5 || !clock.instant().isBefore(Instant.ofEpochSecond(Long.parseLong(f[4])))) {
            throw new Failed(400, "the login took longer than " + PATIENCE.toMinutes() + " minutes: start again");
        }
        return f;
    }

    /** A path on this store, never another site (an open redirect): anything else goes to the start page. */
    static String safeNext(String next) {
        if (next == null || !next.startsWith("/") || next.startsWith("//") || next.contains("\\")
                || next.contains("\n") || next.contains("\r") || next.length() > 2000) {
            return "/";
        }
        return next;
    }
}
