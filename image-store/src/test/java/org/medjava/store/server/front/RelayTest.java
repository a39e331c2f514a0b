package org.medjava.store.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.Test;

/** What of a request's or answer's headers the front passes on to the next hop (RFC 9110 §7.6.1). */
class RelayTest {

    @Test
    void hopByHopHeadersAndThoseConnectionNamesStayOnTheirHop() {
        HttpHeaders from = new DefaultHttpHeaders().add("Connection", "keep-alive, X-Secret-Hop")
                .add("X-Secret-Hop", "1").add("Keep-Alive", "timeout=5").add("TE", "trailers")
                .add("Upgrade", "h2c").add("HTTP2-Settings", "AAMAAABkAAQCAAAAAAIAAAAA")
                .add("Proxy-Authorization", "Basic eDp5").add("Content-Type", "application/dicom")
                .add("Content-Length", "12").add("Authorization", "Basic YTpi").add("Accept", "a").add("Accept", "b");
        HttpHeaders to = new DefaultHttpHeaders();
        Relay.copyHeaders(from, to, false);
        assertThat(to.names()).containsExactlyInAnyOrder("Content-Type", "Content-Length", "Authorization", "Accept");
        assertThat(to.getAll("Accept")).containsExactly("a", "b");
    }

    @Test
    void aClientsOwnFrontHeadersAndHttp2ExtensionsAreDropped() {
        HttpHeaders from = new DefaultHttpHeaders().add("X-MedJava-Front", "guessed")
                .add("x-medjava-peer", "203.0.113.9").add("X-MedJava-Secure", "1")
                .add("x-http2-stream-id", "3").add("x-http2-scheme", "http").add("Host", "store");
        HttpHeaders to = new DefaultHttpHeaders();
        Relay.copyHeaders(from, to, true);
        assertThat(to.names()).containsExactly("Host");
        HttpHeaders fromHttp1 = new DefaultHttpHeaders().add("x-http2-scheme", "http");
        HttpHeaders kept = new DefaultHttpHeaders();
        Relay.copyHeaders(fromHttp1, kept, false);
        assertThat(kept.names()).as("an HTTP/1.1 client's header of that name is its own").containsExactly("x-http2-scheme");
    }
}
