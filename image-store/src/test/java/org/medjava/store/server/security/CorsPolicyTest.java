package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link CorsPolicy}: listed origins with credentials, {@code *} for anonymous reads only, nothing for the rest. */
class CorsPolicyTest {

    private final CorsPolicy cors = CorsPolicy.parse(" https://viewer.example.org , http://localhost:3000/ ");

    @Test
    void listedOriginsAreNormalizedAndMalformedOnesStopTheStart() {
        assertThat(cors.origins()).containsExactlyInAnyOrder("https://viewer.example.org", "http://localhost:3000");
        assertThat(cors.isListed("https://VIEWER.example.org:443")).isTrue();
        assertThat(cors.isListed("https://viewer.example.org:8443")).isFalse();
        assertThat(cors.isListed("http://viewer.example.org")).isFalse();
        assertThat(cors.isListed("null")).isFalse();
        assertThat(CorsPolicy.parse("").off()).isTrue();
        assertThat(CorsPolicy.parse(null).off()).isTrue();
        for (String bad : new String[] {"viewer.example.org", "https://viewer.example.org/app", "ftp://x.org",
                "https://user@x.org", "https://x.org?q"}) {
            assertThatThrownBy(() -> CorsPolicy.parse(bad)).as(bad).hasMessageContaining(CorsPolicy.SETTING);
        }
    }

    @Test
    void aPreflightFromAListedOriginIsAllowedWithCredentials() {
        Map<String, String> h = cors.preflight("https://viewer.example.org", "PUT", false);
        assertThat(h).containsEntry("Access-Control-Allow-Origin", "https://viewer.example.org")
                .containsEntry("Access-Control-Allow-Credentials", "true")
                .containsEntry("Access-Control-Max-Age", "600");
        assertThat(h.get("Access-Control-Allow-Methods")).contains("GET", "PUT", "DELETE", "POST");
        assertThat(h.get("Access-Control-Allow-Headers")).contains("Authorization", "Content-Type", "If-Match",
                "If-None-Match", "Range", "X-Requested-With");
        assertThat(h.get("Vary")).contains("Origin");
        assertThat(CorsPolicy.isPreflight("OPTIONS", "https://viewer.example.org", "PUT")).isTrue();
        assertThat(CorsPolicy.isPreflight("OPTIONS", "https://viewer.example.org", null)).isFalse();
        assertThat(CorsPolicy.isPreflight("GET", "https://viewer.example.org", "PUT")).isFalse();
    }

    @Test
    void anUnlistedOriginGetsNoCorsHeader() {
        assertThat(cors.preflight("https://evil.example.com", "GET", true)).doesNotContainKeys(
                "Access-Control-Allow-Origin", "Access-Control-Allow-Credentials", "Access-Control-Allow-Methods");
        assertThat(cors.actual("https://evil.example.com", "GET", true)).doesNotContainKey(
                "Access-Control-Allow-Origin");
        assertThat(CorsPolicy.parse("").actual("https://viewer.example.org", "GET", true)).isEmpty();
    }

    @Test
    void actualResponsesToAListedOriginExposeTheHeadersAViewerNeeds() {
        Map<String, String> h = cors.actual("http://localhost:3000", "GET", false);
        assertThat(h).containsEntry("Access-Control-Allow-Origin", "http://localhost:3000")
                .containsEntry("Access-Control-Allow-Credentials", "true").containsEntry("Vary", "Origin");
        assertThat(h.get("Access-Control-Expose-Headers")).contains("ETag", "Location", "Content-Range",
                "Content-Length", "Content-Disposition", "Warning");
        assertThat(cors.actual(null, "GET", false)).isEmpty();
    }

    @Test
    void aStarAllowsAnyOriginOnlyForAnonymousReadsAndNeverWithCredentials() {
        CorsPolicy star = CorsPolicy.parse("*, https://viewer.example.org");
        Map<String, String> read = star.actual("https://anyone.example.net", "GET", true);
        assertThat(read).containsEntry("Access-Control-Allow-Origin", "*")
                .doesNotContainKey("Access-Control-Allow-Credentials");
        assertThat(star.actual("https://anyone.example.net", "GET", false))
                .as("a resource that needs a login").doesNotContainKey("Access-Control-Allow-Origin");
        assertThat(star.actual("https://anyone.example.net", "PUT", true)).doesNotContainKey(
                "Access-Control-Allow-Origin");
        Map<String, String> pre = star.preflight("https://anyone.example.net", "GET", true);
        assertThat(pre).containsEntry("Access-Control-Allow-Origin", "*")
                .doesNotContainKey("Access-Control-Allow-Credentials");
        assertThat(pre.get("Access-Control-Allow-Headers")).doesNotContain("Authorization");
        assertThat(star.preflight("https://anyone.example.net", "DELETE", true)).doesNotContainKey(
                "Access-Control-Allow-Origin");
        assertThat(star.actual("https://viewer.example.org", "GET", false))
                .as("listed origins keep their credentials").containsEntry("Access-Control-Allow-Credentials",
                        "true");
    }
}
