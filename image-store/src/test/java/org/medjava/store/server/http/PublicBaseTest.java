package org.medjava.store.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.StoreException;

/** The one rule for the base of the store's absolute URIs. */
class PublicBaseTest {

    private static final URI REQUEST = URI.create("http://10.0.0.5:8080/");
    private static final Map<String, String> PROXY = Map.of("X-Forwarded-Proto", "https",
            "X-Forwarded-Host", "pacs.example.org", "X-Forwarded-Prefix", "/medjava");

    /** The request's host, 10.0.0.5, is one of "this server's" names here. */
    private static final AllowedHosts HOSTS = new AllowedHosts(java.util.Set.of("10.0.0.5", "store", "localhost"));

    private static URI base(Optional<URI> configured, boolean trust, Map<String, String> headers) {
        return PublicBase.resolve(configured, trust, h -> HOSTS.accepts(h, null), REQUEST, headers::get);
    }

    private static URI base(URI request) {
        return PublicBase.resolve(Optional.empty(), false, h -> HOSTS.accepts(h, "192.0.2.7"), request, h -> null);
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
        assertThat(base(URI.create("http://store:8080"))).hasToString("http://store:8080/");
    }

    @Test
    void withoutAPublicUrlLinksNeverComeFromAnUncheckedHost() {
        assertThatThrownBy(() -> base(URI.create("http://evil.example:1234/")))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind())
                        .isEqualTo(StoreException.Kind.BAD_REQUEST)).hasMessageStartingWith("unknown host");
        assertThat(base(URI.create("http://localhost:1234/"))).hasToString("http://localhost:1234/");
        assertThat(base(URI.create("http://192.0.2.7:8080/"))).as("the address the connection arrived on")
                .hasToString("http://192.0.2.7:8080/");
        // a configured public URL is used whatever the Host says
        URI configured = URI.create("https://pacs.example.org/");
        assertThat(PublicBase.resolve(Optional.of(configured), false, h -> false,
                URI.create("http://evil.example:1234/"), h -> null)).isEqualTo(configured);
    }

    @Test
    void theHostNamesThisServerAccepts() {
        AllowedHosts hosts = AllowedHosts.of(java.util.List.of("pacs.example.org", "[2001:db8::5]"));
        assertThat(hosts.accepts("localhost:8080", null)).isTrue();
        assertThat(hosts.accepts("LOCALHOST", null)).isTrue();
        assertThat(hosts.accepts("viewer.localhost:8080", null)).as("RFC 6761: *.localhost is loopback").isTrue();
        assertThat(hosts.accepts("127.0.0.1:9", null)).isTrue();
        assertThat(hosts.accepts("[::1]:8080", null)).isTrue();
        assertThat(hosts.accepts("[0:0:0:0:0:0:0:1]", null)).isTrue();
        assertThat(hosts.accepts("pacs.example.org:443", null)).as("configured").isTrue();
        assertThat(hosts.accepts("pacs.example.org.", null)).as("with the root's dot").isTrue();
        assertThat(hosts.accepts("[2001:db8:0::5]:80", null)).as("configured IPv6, another spelling").isTrue();
        assertThat(hosts.accepts("198.51.100.9:8080", "198.51.100.9")).as("the connection's own address").isTrue();
        assertThat(hosts.accepts("evil.example:1234", null)).isFalse();
        assertThat(hosts.accepts("localhost.evil.example", null)).isFalse();
        assertThat(hosts.accepts("localhost@evil.example", null)).isFalse();
        assertThat(hosts.accepts("", null)).isFalse();
        assertThat(hosts.accepts(null, null)).isFalse();
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
