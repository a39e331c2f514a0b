package org.medjava.store.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one rule for the base of the store's absolute URIs. */
class PublicBaseTest {

    private static final URI REQUEST = URI.create("http://10.0.0.5:8080/");
    private static final Map<String, String> PROXY = Map.of("X-Forwarded-Proto", "https",
            "X-Forwarded-Host", "pacs.example.org", "X-Forwarded-Prefix", "/medjava");

    private static URI base(Optional<URI> configured, boolean trust, Map<String, String> headers) {
        return PublicBase.resolve(configured, trust, REQUEST, headers::get);
    }

    @Test
    void theConfiguredPublicUrlWinsWhateverTheRequestSays() {
        URI configured = URI.create("https://pacs.example.org/medjava/");
        assertThat(base(Optional.of(configured), true, PROXY)).isEqualTo(configured);
        assertThat(base(Optional.of(configured), false, Map.of("Forwarded", "host=evil.example;proto=http")))
                .isEqualTo(configured);
        assertThat(configured.resolve("dicomweb")).hasToString("https://pacs.example.org/medjava/dicomweb");
    }

    @Test
    void forwardedHeadersAreIgnoredUnlessTrusted() {
        assertThat(base(Optional.empty(), false, PROXY)).isEqualTo(REQUEST);
        assertThat(base(Optional.empty(), false, Map.of("Forwarded", "host=evil.example"))).isEqualTo(REQUEST);
        assertThat(PublicBase.resolve(Optional.empty(), false, URI.create("http://store:8080"), h -> null))
                .hasToString("http://store:8080/");
    }

    @Test
    void aTrustedProxysXForwardedHeaders() {
        assertThat(base(Optional.empty(), true, PROXY)).hasToString("https://pacs.example.org/medjava/");
        assertThat(base(Optional.empty(), true, Map.of("X-Forwarded-Host", "pacs.example.org",
                "X-Forwarded-Port", "8443", "X-Forwarded-Proto", "https"))).hasToString("https://pacs.example.org:8443/");
        assertThat(base(Optional.empty(), true, Map.of("X-Forwarded-Host", "a.example, b.example",
                "X-Forwarded-Proto", "https, http"))).hasToString("https://a.example/");
        assertThat(base(Optional.empty(), true, Map.of("X-Forwarded-Prefix", "/medjava/")))
                .hasToString("http://10.0.0.5:8080/medjava/");
    }

    @Test
    void aTrustedProxysForwardedHeaderBeforeItsXForwardedOnes() {
        assertThat(base(Optional.empty(), true, Map.of("Forwarded",
                "for=192.0.2.60;proto=https;host=\"pacs.example.org:444\", for=10.0.0.1;host=inner",
                "X-Forwarded-Host", "other.example"))).hasToString("https://pacs.example.org:444/");
        assertThat(base(Optional.empty(), true, Map.of("Forwarded", "for=192.0.2.60;host=[2001:db8::1]:8443",
                "X-Forwarded-Prefix", "/a/b"))).hasToString("http://[2001:db8::1]:8443/a/b/");
    }

    @Test
    void malformedForwardedValuesAreIgnored() {
        assertThat(base(Optional.empty(), true, Map.of("X-Forwarded-Host", "evil.example/path?x",
                "X-Forwarded-Proto", "javascript", "X-Forwarded-Prefix", "/../x y"))).isEqualTo(REQUEST);
        assertThat(base(Optional.empty(), true, Map.of("X-Forwarded-Host", "user@evil.example")))
                .isEqualTo(REQUEST);
    }

    @Test
    void theClientAddressComesFromTheProxyOnlyWhenTrusted() {
        Map<String, String> proxied = Map.of("X-Forwarded-For", "203.0.113.7, 10.0.0.2",
                "Forwarded", "for=\"[2001:db8::1]:4711\";proto=https, for=10.0.0.2");
        assertThat(PublicBase.clientAddress(false, "10.0.0.2", proxied::get)).isEqualTo("10.0.0.2");
        assertThat(PublicBase.clientAddress(true, "10.0.0.2", proxied::get)).isEqualTo("2001:db8::1");
        assertThat(PublicBase.clientAddress(true, "10.0.0.2", Map.of("X-Forwarded-For", "203.0.113.7:5555")::get))
                .isEqualTo("203.0.113.7");
        assertThat(PublicBase.clientAddress(true, "10.0.0.2", Map.of("X-Forwarded-For", "<script> x")::get))
                .isEqualTo("10.0.0.2");
        assertThat(PublicBase.clientAddress(true, "10.0.0.2", Map.<String, String>of()::get)).isEqualTo("10.0.0.2");
    }
}
