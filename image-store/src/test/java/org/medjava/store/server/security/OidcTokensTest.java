package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class OidcTokensTest {
    private TestProvider provider;
    private OidcTokens tokens;

    @BeforeEach
    void start() throws Exception {
        provider = new TestProvider();
        tokens = new OidcTokens(settings(provider.issuer(), Map.of("pacs-admins", Role.ADMIN)), Clock.systemUTC());
    }

    @AfterEach
    void stop() {
        provider.close();
    }

    static OidcTokens.Settings settings(URI issuer, Map<String, Role> roleMap) {
        return new OidcTokens.Settings(issuer, "medjava", "preferred_username", "realm_access.roles", roleMap,
                "groups", Duration.ofSeconds(30), Duration.ofSeconds(2));
    }

    @Test
    void aSignedTokenForTheStoreNamesTheUserTheHighestRoleAndTheProjects() throws Exception {
        String token = provider.sign(provider.claims("alice", "medjava")
                .claim("realm_access", Map.of("roles", List.of("offline_access", "reader", "uploader")))
                .claim("groups", List.of("/cardiology", "research")).build());

        OidcTokens.Verified verified = tokens.verify(token);

        assertThat(verified.problem()).isNull();
        assertThat(verified.identity().user()).isEqualTo("alice");
        assertThat(verified.identity().role()).contains(Role.UPLOADER);
        assertThat(verified.identity().projects()).containsExactly("cardiology", "research");
    }

    @Test
    void theRoleMapTranslatesTheProvidersRoleNames() throws Exception {
        String token = provider.sign(provider.claims("bob", "medjava")
                .claim("realm_access", Map.of("roles", List.of("reader", "pacs-admins"))).build());

        assertThat(tokens.verify(token).identity().role()).contains(Role.ADMIN);
    }

    @Test
    void aTokenGrantingNoStoreRoleIsValidButRoleless() throws Exception {
        String token = provider.sign(provider.claims("carol", "medjava")
                .claim("realm_access", Map.of("roles", List.of("offline_access"))).build());

        OidcTokens.Verified verified = tokens.verify(token);

        assertThat(verified.valid()).isTrue();
        assertThat(verified.identity().role()).isEmpty();
        assertThat(verified.identity().projects()).isEmpty();
    }

    @Test
    void withoutAUsernameClaimTheSubjectNamesTheCaller() throws Exception {
        String token = provider.sign(provider.claims("x", "medjava").claim("preferred_username", null).build());

        assertThat(tokens.verify(token).identity().user()).isEqualTo("sub-x");
    }

    @Test
    void anExpiredTokenIsRefused() throws Exception {
        Instant past = Instant.now().minus(Duration.ofMinutes(5));
        String token = provider.sign(provider.claims("alice", "medjava").issueTime(Date.from(past.minusSeconds(60)))
                .expirationTime(Date.from(past)).build());

        assertThat(tokens.verify(token).problem()).containsIgnoringCase("expired");
    }

    @Test
    void aTokenExpiredWithinTheClockSkewIsStillAccepted() throws Exception {
        String token = provider.sign(provider.claims("alice", "medjava")
                .expirationTime(Date.from(Instant.now().minusSeconds(5))).build());

        assertThat(tokens.verify(token).valid()).isTrue();
    }

    @Test
    void aTokenForAnotherAudienceIsRefused() throws Exception {
        String token = provider.sign(provider.claims("alice", "another-app").build());

        assertThat(tokens.verify(token).problem()).containsIgnoringCase("audience");
    }

    @Test
    void aTokenFromAnotherIssuerIsRefused() throws Exception {
        String token = provider.sign(provider.claims("alice", "medjava").issuer("http://elsewhere.example").build());

        assertThat(tokens.verify(token).problem()).containsIgnoringCase("iss");
    }

    @Test
    void aTokenSignedByAnotherKeyUnderTheProvidersKeyIdIsRefused() throws Exception {
        String forged = TestProvider.sign(provider.claims("mallory", "medjava").build(),
                TestProvider.newKey(provider.key().getKeyID()), h -> h);

        assertThat(tokens.verify(forged).problem()).containsIgnoringCase("signature");
    }

    @Test
    void aTamperedPayloadIsRefused() throws Exception {
        String token = provider.sign(provider.claims("alice", "medjava")
                .claim("realm_access", Map.of("roles", List.of("reader"))).build());
        String[] parts = token.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"reader\"", "\"admin\"");
        String tampered = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];

        assertThat(tokens.verify(tampered).valid()).isFalse();
    }

    @Test
    void anUnsignedTokenIsRefused() throws Exception {
        String none = new PlainJWT(provider.claims("mallory", "medjava").build()).serialize();

        OidcTokens.Verified verified = tokens.verify(none);

        assertThat(verified.valid()).isFalse();
        assertThat(verified.problem()).isNotBlank();
    }

    @Test
    void anHmacTokenKeyedWithThePublicKeyIsRefused() throws Exception {
        byte[] publicKey = provider.key().toRSAPublicKey().getEncoded();
        byte[] secret = java.util.Arrays.copyOf(publicKey, Math.max(64, publicKey.length));
        JWSObject hmac = new JWSObject(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(provider.key().getKeyID())
                .build(), new Payload(provider.claims("mallory", "medjava").build().toJSONObject()));
        hmac.sign(new MACSigner(secret));

        assertThat(tokens.verify(hmac.serialize()).valid()).isFalse();
    }

    @Test
    void garbageIsRefusedWithoutAnException() {
        for (String junk : List.of("a.b.c", "eyJ.eyJ.x", "..", "eyJhbGciOiJSUzI1NiJ9.bm90IGpzb24.c2ln")) {
            assertThat(tokens.verify(junk).valid()).as(junk).isFalse();
        }
    }

    @Test
    void aRotatedKeyIsFetchedWhenATokenNamesIt() throws Exception {
        assertThat(tokens.verify(provider.sign(provider.claims("alice", "medjava").build())).valid()).isTrue();

        provider.rotate("k2");

        assertThat(tokens.verify(provider.sign(provider.claims("alice", "medjava").build())).problem()).isNull();
    }

    @Test
    void anUnreachableProviderAcceptsNothing() throws Exception {
        String token = provider.sign(provider.claims("alice", "medjava").build());
        provider.close();

        OidcTokens.Verified verified = tokens.verify(token);

        assertThat(verified.valid()).isFalse();
        assertThat(verified.problem()).contains("cannot be reached");
    }

    @Test
    void jwtsAreToldFromTheStoresOwnSessionTokens() {
        assertThat(OidcTokens.isJwt("aGVhZGVy.cGF5bG9hZA.c2ln")).isTrue();
        assertThat(OidcTokens.isJwt("cGF5bG9hZA.c2ln")).isFalse();
        assertThat(OidcTokens.isJwt("a.b.c.d")).isFalse();
        assertThat(OidcTokens.isJwt(".b.c")).isFalse();
    }

    @Test
    void theRoleMapIsReadFromItsTextForm() {
        assertThat(OidcTokens.parseRoleMap(" pacs-admins = admin , radiologists=reader"))
                .isEqualTo(Map.of("pacs-admins", Role.ADMIN, "radiologists", Role.READER));
        assertThat(OidcTokens.parseRoleMap("")).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OidcTokens.parseRoleMap("admins"))
                .hasMessageContaining("token-role=store-role");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OidcTokens.parseRoleMap("x=superuser"))
                .hasMessageContaining("unknown role");
    }

    @Test
    void aSpaceSeparatedClaimCountsAsAList() throws Exception {
        JWTClaimsSet claims = new JWTClaimsSet.Builder().subject("s").claim("scope", "openid reader  admin")
                .expirationTime(new Date()).build();

        assertThat(OidcTokens.values(claims, "scope")).containsExactly("openid", "reader", "admin");
        assertThat(OidcTokens.values(claims, "missing.path")).isEmpty();
        assertThat(Set.copyOf(OidcTokens.values(claims, "scope"))).contains("admin");
        assertThat(Optional.of(1)).isPresent();
    }
}
