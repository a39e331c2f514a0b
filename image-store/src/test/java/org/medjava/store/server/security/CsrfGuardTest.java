package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link CsrfGuard}: a write with the session cookie must come from the store's own pages or a listed origin. */
class CsrfGuardTest {

    static final String OWN = "https://store.example.org";
    private final CorsPolicy cors = CorsPolicy.parse("https://viewer.example.org");

    @Test
    void readsAreNeverConcerned() {
        for (String method : new String[] {"GET", "HEAD", "OPTIONS"}) {
            assertThat(CsrfGuard.refusal(method, "https://evil.example.com", null, List.of(OWN), cors, true)).isEmpty();
        }
    }

    @Test
    void writesFromTheStoresOwnOriginOrAListedOneGoOn() {
        for (String method : new String[] {"POST", "PUT", "DELETE", "PATCH"}) {
            assertThat(CsrfGuard.refusal(method, "https://store.example.org", null, List.of(OWN), cors, true)).isEmpty();
            assertThat(CsrfGuard.refusal(method, "https://STORE.example.org:443", null, List.of(OWN), cors, true)).isEmpty();
            assertThat(CsrfGuard.refusal(method, "https://viewer.example.org", null, List.of(OWN), cors, true)).isEmpty();
        }
        assertThat(CsrfGuard.refusal("PUT", null, "https://store.example.org/viewer/?study=1", List.of(OWN), cors, true))
                .as("Referer when there is no Origin").isEmpty();
    }

    @Test
    void writesFromElsewhereOrFromNowhereAreRefused() {
        assertThat(CsrfGuard.refusal("PUT", "https://evil.example.com", null, List.of(OWN), cors, true)).hasValueSatisfying(
                r -> assertThat(r).contains("https://evil.example.com", OWN, CorsPolicy.SETTING));
        assertThat(CsrfGuard.refusal("DELETE", "http://store.example.org", null, List.of(OWN), cors, true))
                .as("another scheme is another origin").isPresent();
        assertThat(CsrfGuard.refusal("POST", "https://store.example.org.evil.com", null, List.of(OWN), cors, true))
                .isPresent();
        assertThat(CsrfGuard.refusal("POST", "null", null, List.of(OWN), cors, true)).as("an opaque origin").isPresent();
        assertThat(CsrfGuard.refusal("PUT", null, "https://evil.example.com/page", List.of(OWN), cors, true)).isPresent();
        assertThat(CsrfGuard.refusal("PUT", null, null, List.of(OWN), cors, true)).hasValueSatisfying(
                r -> assertThat(r).contains("Origin"));
        assertThat(CsrfGuard.refusal("PUT", "https://evil.example.com", "https://store.example.org/", List.of(OWN), cors,
                true)).as("Origin wins over Referer").isPresent();
    }

    @Test
    void aLoginWithoutOriginIsAClientOtherThanABrowser() {
        assertThat(CsrfGuard.refusal("POST", null, null, List.of(OWN), cors, false)).isEmpty();
        assertThat(CsrfGuard.refusal("POST", "https://evil.example.com", null, List.of(OWN), cors, false)).isPresent();
    }

    @Test
    void theOriginTheRequestWasSentToIsTheStoresOwnToo() {
        // public URL http://localhost:8080, the browser on http://127.0.0.1:8080: its Host says where it went
        List<String> own = List.of("http://localhost:8080", "http://127.0.0.1:8080");
        CorsPolicy none = CorsPolicy.parse("");
        assertThat(CsrfGuard.refusal("POST", "http://127.0.0.1:8080", null, own, none, true)).isEmpty();
        assertThat(CsrfGuard.refusal("POST", "http://localhost:8080", null, own, none, true)).isEmpty();
        assertThat(CsrfGuard.refusal("POST", "http://127.0.0.1:9999", null, own, none, true)).hasValueSatisfying(
                m -> assertThat(m).contains("http://localhost:8080, http://127.0.0.1:8080"));
    }
}
