package org.medjava.viewer.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jwt.JWT;
import com.nimbusds.oauth2.sdk.AuthorizationCode;
import com.nimbusds.oauth2.sdk.AuthorizationCodeGrant;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.http.HTTPRequest;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeChallengeMethod;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.AuthenticationRequest;
import com.nimbusds.openid.connect.sdk.Nonce;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponse;
import com.nimbusds.openid.connect.sdk.OIDCTokenResponseParser;
import com.nimbusds.openid.connect.sdk.claims.IDTokenClaimsSet;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import com.nimbusds.openid.connect.sdk.validators.IDTokenValidator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;

/**
 * The viewer's single sign-on, as a native app (RFC 8252): the store names its OpenID provider and the client id for
 * native apps ({@code GET /auth/oidc}); the provider's discovery document gives its endpoints; the user signs in
 * in the system browser (authorization code with PKCE S256, state and nonce), which comes back to a
 * {@link LoopbackReceiver}; the code is exchanged as a public client, the ID token checked (signature, issuer,
 * audience, nonce), and the tokens kept in a {@link TokenSession}, in memory only.
 */
public final class SingleSignOn {
    /** How long the user has to sign in in the browser. */
    public static final Duration PATIENCE = Duration.ofMinutes(5);
    private static final int TIMEOUT_MS = 10_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the store says of its provider: the button's label, the issuer, the native apps' client id. */
    public record Offer(String name, Issuer issuer, ClientID clientId) {
    }

    private final Offer offer;
    private final SystemBrowser browser;
    private final Duration patience;
    private volatile LoopbackReceiver receiver;

    public SingleSignOn(Offer offer, SystemBrowser browser, Duration patience) {
        this.offer = offer;
        this.browser = browser;
        this.patience = patience;
    }

    /** The store's single sign-on for native apps, or null when it offers none (or is too old to say). */
    public static Offer offer(URI store) throws IOException, InterruptedException {
        String base = store.toString().replaceAll("/+$", "");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/auth/oidc"))
                .timeout(Duration.ofSeconds(10)).header("Accept", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            return null;
        }
        JsonNode json = JSON.readTree(r.body());
        if (!json.path("enabled").asBoolean() || !json.hasNonNull("issuer") || !json.hasNonNull("nativeClientId")) {
            return null;
        }
        return new Offer(json.path("name").asText("single sign-on"), new Issuer(json.get("issuer").asText()),
                new ClientID(json.get("nativeClientId").asText()));
    }

    /** The authorization request the browser is sent to: code flow, PKCE S256, state and nonce. */
    static AuthenticationRequest authorization(OIDCProviderMetadata provider, ClientID client, URI redirect,
                                               State state, Nonce nonce, CodeVerifier verifier) {
        return new AuthenticationRequest.Builder(ResponseType.CODE, new Scope("openid", "profile"), client, redirect)
                .endpointURI(provider.getAuthorizationEndpointURI()).state(state).nonce(nonce)
                .codeChallenge(verifier, CodeChallengeMethod.S256).build();
    }

    /**
     * Signs the user in through the browser; blocks until the browser comes back, at most {@link #PATIENCE}.
     * Worker thread.
     */
    public TokenSession signIn() throws SignInFailed, InterruptedException {
        OIDCProviderMetadata provider;
        try {
            provider = OIDCProviderMetadata.resolve(offer.issuer(), TIMEOUT_MS, TIMEOUT_MS);
        } catch (IOException | GeneralException e) {
            throw new SignInFailed("The sign-in service " + offer.issuer() + " cannot be reached (" + e.getMessage()
                    + "); sign in with a user name and password, or try again later.", e);
        }
        State state = new State();
        Nonce nonce = new Nonce();
        CodeVerifier verifier = new CodeVerifier();
        try (LoopbackReceiver waiting = LoopbackReceiver.start(state)) {
            receiver = waiting;
            URI redirect = waiting.redirectUri();
            try {
                browser.open(authorization(provider, offer.clientId(), redirect, state, nonce, verifier).toURI());
            } catch (IOException e) {
                throw new SignInFailed("The browser could not be opened: " + e.getMessage(), e);
            }
            AuthorizationCode code = waiting.await(patience);
            return exchange(provider, code, redirect, verifier, nonce);
        } catch (IOException e) {
            throw new SignInFailed("The viewer cannot receive the sign-in (" + e.getMessage() + ").", e);
        } finally {
            receiver = null;
        }
    }

    /** Gives up a sign-in in progress (the user closed the dialog). */
    public void cancel() {
        LoopbackReceiver waiting = receiver;
        if (waiting != null) {
            waiting.close();
        }
    }

    private TokenSession exchange(OIDCProviderMetadata provider, AuthorizationCode code, URI redirect,
                                  CodeVerifier verifier, Nonce nonce) throws SignInFailed {
        TokenRequest request = new TokenRequest.Builder(provider.getTokenEndpointURI(), offer.clientId(),
                new AuthorizationCodeGrant(code, redirect, verifier)).build();
        TokenResponse response;
        try {
            HTTPRequest http = request.toHTTPRequest();
            http.setConnectTimeout(TIMEOUT_MS);
            http.setReadTimeout(TIMEOUT_MS);
            response = OIDCTokenResponseParser.parse(http.send());
        } catch (IOException | com.nimbusds.oauth2.sdk.ParseException e) {
            throw new SignInFailed("The sign-in service gave no tokens (" + e.getMessage() + "): sign in again.", e);
        }
        if (!response.indicatesSuccess()) {
            TokenErrorResponse error = response.toErrorResponse();
            throw new SignInFailed("The sign-in service refused the sign-in: " + describe(error) + ".");
        }
        OIDCTokenResponse tokens = (OIDCTokenResponse) response.toSuccessResponse();
        JWT idToken = tokens.getOIDCTokens().getIDToken();
        IDTokenClaimsSet claims;
        JWSAlgorithm algorithm = JWSAlgorithm.parse(idToken.getHeader().getAlgorithm().getName());
        if (!JWSAlgorithm.Family.RSA.contains(algorithm) && !JWSAlgorithm.Family.EC.contains(algorithm)) {
            throw new SignInFailed("The sign-in service's ID token is not signed with a public key (" + algorithm
                    + "): refused.");
        }
        try {
            IDTokenValidator validator = new IDTokenValidator(provider.getIssuer(), offer.clientId(), algorithm,
                    provider.getJWKSetURI().toURL());
            claims = validator.validate(idToken, nonce);
        } catch (com.nimbusds.jose.proc.BadJOSEException | JOSEException | IOException e) {
            throw new SignInFailed("The sign-in service's ID token was not valid (" + e.getMessage() + ").", e);
        }
        String user = claims.getStringClaim("preferred_username");
        return new TokenSession(user == null ? claims.getSubject().getValue() : user,
                tokens.getOIDCTokens(), provider.getTokenEndpointURI(), offer.clientId(), Clock.systemUTC());
    }

    static String describe(TokenErrorResponse error) {
        var e = error.getErrorObject();
        return e == null ? "no reason given" : e.getDescription() != null ? e.getDescription() + " (" + e.getCode()
                + ")" : String.valueOf(e.getCode());
    }
}
