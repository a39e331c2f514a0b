package org.medjava.store.server.security;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.oauth2.sdk.GeneralException;
import com.nimbusds.oauth2.sdk.id.Issuer;
import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * OAuth 2.0 bearer tokens from the site's OpenID provider: a JWT is accepted when one of the provider's keys signed
 * it (its JWKS, found through its discovery document and fetched again when a token names a key not seen yet: key
 * rotation), with an asymmetric algorithm (never {@code none}, never a shared secret), from the configured issuer,
 * for this store's audience, not expired (within the allowed clock skew). The store's role and the caller's projects
 * come from configurable claims. A provider that cannot be reached accepts nothing until it answers (fails closed).
 *
 * <p>The parsing and the checks are Nimbus JOSE+JWT's; this class chooses what to require. A verified token is
 * remembered until it expires, so that the front's many reads with one token verify it once.
 */
public final class OidcTokens {

    private static final Logger LOG = Logger.getLogger(OidcTokens.class.getName());
    /** Asymmetric signatures only: an HMAC "signed" with the public key is a known forgery. */
    private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(JWSAlgorithm.RS256, JWSAlgorithm.RS384,
            JWSAlgorithm.RS512, JWSAlgorithm.PS256, JWSAlgorithm.PS384, JWSAlgorithm.PS512, JWSAlgorithm.ES256,
            JWSAlgorithm.ES384, JWSAlgorithm.ES512);
    /** Beyond this many remembered tokens the memory starts afresh: a bound, not an eviction policy. */
    private static final int REMEMBERED_MAX = 10_000;
    /** The shortest wait between two attempts to read an unreachable provider's discovery document. */
    private static final Duration DISCOVERY_RETRY = Duration.ofSeconds(10);

    /**
     * What the store expects of the provider's tokens.
     *
     * @param issuer        the provider's issuer URL, exactly as in its tokens
     * @param audience      the {@code aud} value the tokens must carry (this store's client or resource id)
     * @param usernameClaim the claim naming the user ({@code sub} when absent)
     * @param rolesClaim    the claim listing the caller's roles, a dotted path into nested objects
     * @param roleMap       a role name in the token to the store's role; the store's own role names always map
     * @param projectsClaim the claim listing the caller's projects (groups), a dotted path
     * @param clockSkew     tolerated difference between the provider's clock and this one
     * @param timeout       for each request to the provider (discovery, keys)
     */
    public record Settings(URI issuer, String audience, String usernameClaim, String rolesClaim,
                           Map<String, Role> roleMap, String projectsClaim, Duration clockSkew, Duration timeout) {
    }

    /**
     * Who a token says the caller is.
     *
     * @param user     the name the store knows them by (audit, {@code /auth/me})
     * @param role     the highest store role the token grants, empty when it grants none
     * @param projects the projects (groups) it lists, for access by study
     * @param expires  when the token stops being accepted
     */
    public record Identity(String user, Optional<Role> role, Set<String> projects, Instant expires) {
    }

    /**
     * A verified token's identity, or why the token was refused (a reason fit for the log and the 401's body).
     * {@code fresh}: verified now, not remembered from an earlier request (the first use is the one audited).
     */
    public record Verified(Identity identity, String problem, boolean fresh) {
        public boolean valid() {
            return identity != null;
        }

        static Verified refused(String problem) {
            return new Verified(null, problem == null ? "refused" : problem, true);
        }
    }

    private final Settings settings;
    private final Clock clock;
    private final Map<String, Identity> remembered = new ConcurrentHashMap<>();
    private volatile Provider provider;
    private volatile Instant nextDiscovery = Instant.EPOCH;

    /** The provider as discovered: its metadata and a processor checking tokens against its keys. */
    record Provider(OIDCProviderMetadata metadata, JWKSource<SecurityContext> keys,
                    DefaultJWTProcessor<SecurityContext> processor) {
    }

    public OidcTokens(Settings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Whether a bearer token has the shape of a JWT (three dot-separated parts) rather than of the store's own
     * session token (two): which of the two checks it gets.
     */
    public static boolean isJwt(String token) {
        int first = token.indexOf('.');
        return first > 0 && token.indexOf('.', first + 1) > first && token.indexOf('.', first + 1)
                == token.lastIndexOf('.');
    }

    /** Checks a bearer token; never throws for a bad token or an unreachable provider. */
    public Verified verify(String token) {
        Identity known = remembered(token);
        if (known != null) {
            return new Verified(known, null, false);
        }
        Provider p;
        try {
            p = provider();
        } catch (IOException | GeneralException | RuntimeException e) {
            return Verified.refused("the OpenID provider " + settings.issuer() + " cannot be reached to check "
                    + "tokens (" + reason(e) + ")");
        }
        JWTClaimsSet claims;
        try {
            claims = p.processor().process(token, null);
        } catch (ParseException e) {
            return Verified.refused("not a JWT (" + reason(e) + ")");
        } catch (com.nimbusds.jose.RemoteKeySourceException e) {
            return Verified.refused("the OpenID provider's keys cannot be read (" + reason(e) + ")");
        } catch (com.nimbusds.jose.proc.BadJOSEException | com.nimbusds.jose.JOSEException e) {
            return Verified.refused(reason(e));
        } catch (RuntimeException e) { // a token crafted to upset the parser is still only a bad token
            LOG.log(Level.FINE, "a bearer token upset the JWT parser", e);
            return Verified.refused("a malformed JWT");
        }
        Identity identity = identity(claims, settings);
        if (remembered.size() >= REMEMBERED_MAX) {
            remembered.clear();
        }
        remembered.put(token, identity);
        return new Verified(identity, null, true);
    }

    /** The identity of a token verified before and not expired since, else null: no verification, no I/O. */
    public Identity remembered(String token) {
        Identity known = remembered.get(token);
        if (known != null && !clock.instant().isBefore(known.expires().plus(settings.clockSkew()))) {
            remembered.remove(token);
            return null;
        }
        return known;
    }

    /** An exception's message, or its kind when it has none (a refusal always says something). */
    public static String reason(Exception e) {
        String message = e.getMessage();
        if (message == null && e.getCause() != null) {
            message = e.getCause().getMessage();
        }
        return message == null ? e.getClass().getSimpleName() : message;
    }

    /** The provider's metadata (endpoints for the browser login), discovering it on first use. */
    public OIDCProviderMetadata metadata() throws IOException, GeneralException {
        return provider().metadata();
    }

    /** The provider's keys as this class reads them (the ID token check of the browser login uses the same). */
    JWKSource<SecurityContext> keys() throws IOException, GeneralException {
        return provider().keys();
    }

    private Provider provider() throws IOException, GeneralException {
        Provider p = provider;
        if (p != null) {
            return p;
        }
        synchronized (this) {
            if (provider != null) {
                return provider;
            }
            Instant now = clock.instant();
            if (now.isBefore(nextDiscovery)) {
                throw new IOException("its discovery document could not be read moments ago; trying again after "
                        + nextDiscovery);
            }
            nextDiscovery = now.plus(DISCOVERY_RETRY);
            int timeout = (int) settings.timeout().toMillis();
            OIDCProviderMetadata metadata = OIDCProviderMetadata.resolve(new Issuer(settings.issuer()), timeout,
                    timeout);
            provider = build(metadata, settings);
            LOG.info(() -> "OpenID provider " + settings.issuer() + ": keys at " + metadata.getJWKSetURI());
            return provider;
        }
    }

    static Provider build(OIDCProviderMetadata metadata, Settings settings) throws MalformedURLException {
        int timeout = (int) settings.timeout().toMillis();
        JWKSource<SecurityContext> keys = JWKSourceBuilder.<SecurityContext>create(metadata.getJWKSetURI().toURL(),
                        new DefaultResourceRetriever(timeout, timeout, 512 * 1024))
                .retrying(true)
                .build();
        DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();
        // RFC 9068 access tokens say at+jwt; Keycloak and Entra ID say JWT or nothing
        processor.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(new java.util.HashSet<>(
                java.util.Arrays.asList(JOSEObjectType.JWT, new JOSEObjectType("at+jwt"), null))));
        processor.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
        // mutable sets: Nimbus asks them whether they contain null, which Set.of answers with an exception
        DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
                new java.util.HashSet<>(List.of(settings.audience())),
                new JWTClaimsSet.Builder().issuer(metadata.getIssuer().getValue()).build(),
                new java.util.HashSet<>(List.of("sub", "exp", "iat")), null);
        claims.setMaxClockSkew((int) settings.clockSkew().toSeconds());
        processor.setJWTClaimsSetVerifier(claims);
        return new Provider(metadata, keys, processor);
    }

    /** Who verified claims name: the user, the highest mapped role, the projects. */
    static Identity identity(JWTClaimsSet claims, Settings settings) {
        Object name = claims.getClaim(settings.usernameClaim());
        String user = name instanceof String s && !s.isBlank() ? s : claims.getSubject();
        Role role = null;
        for (String value : values(claims, settings.rolesClaim())) {
            Role mapped = settings.roleMap().get(value);
            if (mapped == null) {
                try {
                    mapped = Role.parse(value);
                } catch (IllegalArgumentException e) {
                    continue; // a role of another application's
                }
            }
            if (role == null || mapped.compareTo(role) > 0) {
                role = mapped;
            }
        }
        Set<String> projects = new TreeSet<>();
        for (String value : values(claims, settings.projectsClaim())) {
            // Keycloak's group mapper gives full paths ("/cardiology"); a project is the group's name
            String project = value.startsWith("/") ? value.substring(1) : value;
            if (!project.isEmpty()) {
                projects.add(project);
            }
        }
        return new Identity(user, Optional.ofNullable(role), projects, claims.getExpirationTime().toInstant());
    }

    /** The strings a dotted claim path leads to: a list of strings, or one string of space-separated values. */
    static List<String> values(JWTClaimsSet claims, String path) {
        if (path == null || path.isBlank()) {
            return List.of();
        }
        Object at = claims.getClaims();
        for (String step : path.split("\\.")) {
            if (!(at instanceof Map<?, ?> map)) {
                return List.of();
            }
            at = map.get(step);
        }
        List<String> values = new ArrayList<>();
        if (at instanceof String s) {
            for (String v : s.trim().split("\\s+")) {
                if (!v.isEmpty()) {
                    values.add(v);
                }
            }
        } else if (at instanceof Collection<?> list) {
            for (Object v : list) {
                if (v instanceof String s) {
                    values.add(s);
                }
            }
        }
        return values;
    }

    /**
     * Parses {@code medjava.oidc.role-map}: {@code token-role=store-role} pairs, comma-separated
     * ({@code pacs-admins=admin,radiologists=reader}).
     */
    public static Map<String, Role> parseRoleMap(String text) {
        Map<String, Role> map = new java.util.HashMap<>();
        if (text == null || text.isBlank()) {
            return map;
        }
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("medjava.oidc.role-map: \"" + pair.trim() + "\" is not "
                        + "token-role=store-role");
            }
            map.put(pair.substring(0, eq).trim(), Role.parse(pair.substring(eq + 1).toLowerCase(Locale.ROOT)));
        }
        return map;
    }
}
