package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link SessionCookie}: the attributes that keep the cookie from scripts and other sites. */
class SessionCookieTest {

    static final Instant NOW = Instant.parse("2026-03-01T08:00:00Z");

    @Test
    void theCookieIsHttpOnlyStrictForTheStoreAndLivesAsLongAsItsToken() {
        assertThat(SessionCookie.set("abc.def", NOW.plusSeconds(1800), NOW, "", false)).isEqualTo(
                "medjava_session=abc.def; Max-Age=1800; Path=/; HttpOnly; SameSite=Strict");
        assertThat(SessionCookie.set("abc.def", NOW.plusSeconds(60), NOW, "/store", true)).isEqualTo(
                "medjava_session=abc.def; Max-Age=60; Path=/store; HttpOnly; SameSite=Strict; Secure");
        assertThat(SessionCookie.clear("", false)).startsWith("medjava_session=; Max-Age=0; Expires=Thu, 01 Jan 1970")
                .endsWith("; Path=/; HttpOnly; SameSite=Strict");
    }

    @Test
    void itIsSecureOverHttpsOrBehindAnHttpsPublicUrl() {
        assertThat(SessionCookie.secure(true, Optional.empty())).isTrue();
        assertThat(SessionCookie.secure(false, Optional.of("https://pacs.example.org"))).isTrue();
        assertThat(SessionCookie.secure(false, Optional.of("http://127.0.0.1:8080"))).isFalse();
        assertThat(SessionCookie.secure(false, Optional.empty())).isFalse();
    }
}
