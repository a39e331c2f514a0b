package org.medjava.store.server.config;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Single sign-on with an OpenID provider: on when {@code medjava.oidc.issuer} is set.
 *
 * @param audience the {@code aud} a token must carry: {@code medjava.oidc.audience}, else the client id
 * @param roleMap  {@code provider-role=store-role} pairs, trimmed (security.OidcTokens parses them)
 */
public record OidcSettings(Optional<URI> issuer, String clientId, String nativeClientId,
                           Optional<String> clientSecret, String audience, String usernameClaim, String rolesClaim,
                           String roleMap, String projectsClaim, String scopes, Duration clockSkew,
                           String displayName) {

    /**
     * The OpenID provider's issuer URL (Keycloak: {@code https://host/realms/NAME}): its JWT access tokens are then
     * accepted as {@code Authorization: Bearer} on every API, and the login page offers single sign-on. The provider's
     * discovery document and keys are read from it. Unset: no single sign-on; local accounts only.
     */
    static final Key ISSUER = Key.of("medjava.oidc.issuer");

    /** The store's client id at the OpenID provider (the browser login's {@code client_id}). */
    static final Key CLIENT_ID = Key.of("medjava.oidc.client-id", "medjava");

    /**
     * The client id of native applications (the desktop viewer) at the OpenID provider: a public client, without a
     * secret, allowed the authorization code flow with PKCE and loopback redirect URIs ({@code http://127.0.0.1}
     * with any port and path, RFC 8252). {@code GET /auth/oidc} tells it to the viewer with the issuer. Its tokens
     * must carry the store's audience ({@code medjava.oidc.audience}): at Keycloak, an audience mapper on that client.
     */
    static final Key NATIVE_CLIENT_ID = Key.of("medjava.oidc.native-client-id", "medjava-viewer");

    /**
     * The client's secret, for a confidential client (sent with HTTP Basic to the token endpoint). Unset: a public
     * client; the login is protected by PKCE either way.
     */
    static final Key CLIENT_SECRET = Key.of("medjava.oidc.client-secret");

    /** The {@code aud} value a token must carry to be accepted. Unset: the client id. */
    static final Key AUDIENCE = Key.of("medjava.oidc.audience");

    /** The claim naming the user (audit trail, {@code /auth/me}); the subject ({@code sub}) when a token lacks it. */
    static final Key USERNAME_CLAIM = Key.of("medjava.oidc.username-claim", "preferred_username");

    /**
     * The claim listing the caller's roles, a dotted path into nested objects (Keycloak's realm roles:
     * {@code realm_access.roles}; a client's: {@code resource_access.CLIENT.roles}; Entra ID: {@code roles}). Its
     * values {@code reader}, {@code uploader}, {@code admin}, or names mapped by {@code medjava.oidc.role-map}, give
     * the store's role (the highest one); a token with none is refused with 403.
     */
    static final Key ROLES_CLAIM = Key.of("medjava.oidc.roles-claim", "realm_access.roles");

    /**
     * The provider's role names for the store's roles: {@code provider-role=store-role} pairs, comma-separated
     * ({@code pacs-admins=admin,radiologists=reader}). The store's own role names need no entry.
     */
    static final Key ROLE_MAP = Key.of("medjava.oidc.role-map", " ");

    /** The claim listing the caller's projects (groups), a dotted path; Keycloak's group paths lose their slash. */
    static final Key PROJECTS_CLAIM = Key.of("medjava.oidc.projects-claim", "groups");

    /** The scopes the browser login asks for, space-separated ({@code openid} is always asked for). */
    static final Key SCOPES = Key.of("medjava.oidc.scopes", "openid profile");

    /** Seconds by which the provider's clock may differ from the store's when expiry and issue times are checked. */
    static final Key CLOCK_SKEW = Key.of("medjava.oidc.clock-skew-seconds", "60");

    /** The label of the login page's single sign-on button. */
    static final Key DISPLAY_NAME = Key.of("medjava.oidc.display-name", "Single sign-on");

    public static OidcSettings from(SettingsSource source) {
        String clientId = source.string(CLIENT_ID);
        return new OidcSettings(issuer(source), clientId, source.string(NATIVE_CLIENT_ID),
                source.text(CLIENT_SECRET).filter(s -> !s.isBlank()),
                source.text(AUDIENCE).filter(a -> !a.isBlank()).orElse(clientId), source.string(USERNAME_CLAIM),
                source.string(ROLES_CLAIM), source.string(ROLE_MAP).trim(), source.string(PROJECTS_CLAIM),
                source.string(SCOPES),
                Duration.ofSeconds(SettingsSource.atLeast(CLOCK_SKEW, source.integer(CLOCK_SKEW), 0)),
                source.string(DISPLAY_NAME));
    }

    private static Optional<URI> issuer(SettingsSource source) {
        return source.parsed(ISSUER, s -> s.isBlank() ? Optional.<URI>empty() : Optional.of(URI.create(s.trim())),
                "write the provider's issuer URL, e.g. https://keycloak.example.org/realms/medjava");
    }

    @Override
    public String toString() { // never the client secret
        return "OidcSettings[issuer=" + issuer.map(URI::toString).orElse("(none)") + ", clientId=" + clientId
                + ", audience=" + audience + "]";
    }
}
