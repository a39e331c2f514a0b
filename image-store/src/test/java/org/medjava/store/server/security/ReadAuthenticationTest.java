package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.testsupport.MovableClock;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * {@link ReadAuthentication}: the direct read path decides only what needs no password hashing, no audit record and
 * no answer of its own; everything else is left (null) to the full mechanism.
 */
class ReadAuthenticationTest {
    private static final String ADDRESS = "198.51.100.7";
    private static final String PASSWORD = "alice-password";

    @TempDir
    Path dir;

    private UserStore users;
    private LoginThrottle throttle;

    @BeforeEach
    void alice() throws Exception {
        users = new UserStore(dir.resolve("users.properties"));
        users.put("alice", PASSWORD.toCharArray(), Role.READER, TestCallers.USER);
        throttle = new LoginThrottle(2, 10, Duration.ofMinutes(5), 100, 1, Duration.ofMillis(50),
                new MovableClock(Instant.parse("2026-01-01T00:00:00Z")));
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aRememberedBasicLoginIsTheCaller() {
        ReadAuthentication reads = new ReadAuthentication(users, throttle, false, null);
        assertThat(reads.caller(basic("alice", PASSWORD), null, ADDRESS)).as("not checked yet: hashing").isNull();
        assertThat(users.authenticate("alice", PASSWORD.toCharArray())).isPresent(); // the container's check
        StoreAuthenticationMechanism.Verdict verdict = reads.caller(basic("alice", PASSWORD), null, ADDRESS);
        assertThat(verdict.answered()).isFalse();
        assertThat(verdict.caller()).isEqualTo("alice");
        assertThat(verdict.groups()).isEqualTo(Role.READER.groups());
        assertThat(reads.caller(basic("alice", "wrong"), null, ADDRESS)).isNull();
        assertThat(reads.caller("basic " + basic("alice", PASSWORD).substring(6), null, ADDRESS)).isNotNull();
    }

    @Test
    void sessionsTokensBrokenHeadersAndThrottledAddressesGoToTheMechanism() {
        users.authenticate("alice", PASSWORD.toCharArray());
        ReadAuthentication reads = new ReadAuthentication(users, throttle, true, null);
        assertThat(reads.caller(basic("alice", PASSWORD), "a=1; medjava_session=x", ADDRESS)).isNull();
        assertThat(reads.caller("Bearer abc", null, ADDRESS)).isNull();
        assertThat(reads.caller("Basic !!!", null, ADDRESS)).isNull();
        assertThat(reads.caller("Basic " + Base64.getEncoder().encodeToString("no-colon".getBytes()), null,
                ADDRESS)).isNull();
        throttle.failed(ADDRESS, "alice");
        throttle.failed(ADDRESS, "alice"); // locked for a second
        assertThat(reads.caller(basic("alice", PASSWORD), null, ADDRESS)).isNull();
        assertThat(reads.caller(basic("alice", PASSWORD), null, "203.0.113.9")).isNotNull();
    }

    @Test
    void aConnectionsRememberedLoginHoldsUntilTheAccountChangesAndTheThrottleStillDecides() throws Exception {
        users.authenticate("alice", PASSWORD.toCharArray());
        ReadAuthentication reads = new ReadAuthentication(users, throttle, false, null);
        ReadAuthentication.Remembered connection = new ReadAuthentication.Remembered();
        assertThat(reads.caller(basic("alice", PASSWORD), null, ADDRESS, connection).caller()).isEqualTo("alice");
        assertThat(reads.caller(basic("alice", PASSWORD), null, ADDRESS, connection).caller()).isEqualTo("alice");
        assertThat(reads.caller(basic("alice", "wrong"), null, ADDRESS, connection)).as("another header").isNull();

        throttle.failed(ADDRESS, "alice");
        throttle.failed(ADDRESS, "alice"); // locked for a second
        assertThat(reads.caller(basic("alice", PASSWORD), null, ADDRESS, connection)).as("held back").isNull();
        assertThat(reads.caller(basic("alice", PASSWORD), null, "203.0.113.9", connection)).isNotNull();

        users.put("alice", "new-password".toCharArray(), Role.READER,
                TestCallers.USER); // a password change: a new account record
        assertThat(reads.caller(basic("alice", PASSWORD), null, "203.0.113.9", connection))
                .as("the old password on the same connection").isNull();
        users.authenticate("alice", "new-password".toCharArray());
        assertThat(reads.caller(basic("alice", "new-password"), null, "203.0.113.9", connection).caller())
                .isEqualTo("alice");
        users.remove("alice", TestCallers.USER);
        assertThat(reads.caller(basic("alice", "new-password"), null, "203.0.113.9", connection))
                .as("a removed account").isNull();
    }

    @Test
    void withoutCredentialsOnlyAnonymousReadsPass() {
        assertThat(new ReadAuthentication(users, throttle, true, null).caller(null, null, ADDRESS).caller()).isNull();
        assertThat(new ReadAuthentication(users, throttle, true, null).caller(null, "theme=dark", ADDRESS)).isNotNull();
        assertThat(new ReadAuthentication(users, throttle, false, null).caller(null, null, ADDRESS)).isNull();
    }

    @Test
    void anOpenIdTokenIsTheCallerOnlyOnceVerifiedAndOnlyWithARole() throws Exception {
        try (TestProvider provider = new TestProvider()) {
            OidcTokens oidc = new OidcTokens(OidcTokensTest.settings(provider.issuer(), java.util.Map.of()),
                    java.time.Clock.systemUTC());
            ReadAuthentication reads = new ReadAuthentication(users, throttle, false, oidc);
            String reader = provider.sign(provider.claims("olga", "medjava")
                    .claim("realm_access", java.util.Map.of("roles", java.util.List.of("reader"))).build());
            String roleless = provider.sign(provider.claims("nina", "medjava").build());

            assertThat(reads.caller("Bearer " + reader, null, ADDRESS)).as("not verified yet: audit").isNull();
            assertThat(oidc.verify(reader).valid()).isTrue(); // the container's check
            assertThat(reads.caller("Bearer " + reader, null, ADDRESS).caller()).isEqualTo("olga");
            assertThat(reads.caller("Bearer " + reader, null, ADDRESS).groups()).isEqualTo(Role.READER.groups());

            assertThat(oidc.verify(roleless).valid()).isTrue();
            assertThat(reads.caller("Bearer " + roleless, null, ADDRESS)).as("the container answers 403").isNull();
        }
    }
}
