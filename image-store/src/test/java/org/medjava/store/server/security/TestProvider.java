package org.medjava.store.server.security;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.function.UnaryOperator;

/**
 * A minimal OpenID provider for unit tests: a discovery document and a JWKS served over loopback HTTP, and tokens
 * signed with its current key. The integration tests use a real provider (Keycloak); this one lets a test make the
 * tokens no real provider issues (expired, forged, unsigned).
 */
final class TestProvider implements AutoCloseable {
    private final HttpServer server;
    private volatile RSAKey key;
    private volatile JWKSet published;

    TestProvider() throws IOException, JOSEException {
        key = newKey("k1");
        published = new JWKSet(key.toPublicJWK());
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/.well-known/openid-configuration", exchange -> answer(exchange, """
                {"issuer": "%1$s", "jwks_uri": "%1$s/jwks", "authorization_endpoint": "%1$s/auth",
                 "token_endpoint": "%1$s/token", "response_types_supported": ["code"],
                 "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["RS256"]}
                """.formatted(issuer())));
        server.createContext("/jwks", exchange -> answer(exchange, published.toString()));
        server.start();
    }

    static RSAKey newKey(String id) throws JOSEException {
        return new RSAKeyGenerator(2048).keyID(id).generate();
    }

    private static void answer(com.sun.net.httpserver.HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    URI issuer() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Publishes a new key and signs with it from now on (the old one is no longer published). */
    void rotate(String id) throws JOSEException {
        key = newKey(id);
        published = new JWKSet(key.toPublicJWK());
    }

    /** Claims a valid access token for {@code audience} would carry, for the test to change. */
    JWTClaimsSet.Builder claims(String user, String audience) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(issuer().toString()).subject("sub-" + user).audience(audience)
                .claim("preferred_username", user).issueTime(Date.from(now))
                .expirationTime(Date.from(now.plusSeconds(300)));
    }

    String sign(JWTClaimsSet claims) throws JOSEException {
        return sign(claims, key, h -> h);
    }

    static String sign(JWTClaimsSet claims, RSAKey with, UnaryOperator<JWSHeader.Builder> header)
            throws JOSEException {
        SignedJWT jwt = new SignedJWT(header.apply(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(with.getKeyID())
                .type(com.nimbusds.jose.JOSEObjectType.JWT)).build(), claims);
        jwt.sign(new RSASSASigner(with));
        return jwt.serialize();
    }

    RSAKey key() {
        return key;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
