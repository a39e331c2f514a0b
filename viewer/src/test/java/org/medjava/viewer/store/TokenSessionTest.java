package org.medjava.viewer.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.BearerAccessToken;
import com.nimbusds.oauth2.sdk.token.RefreshToken;
import com.nimbusds.oauth2.sdk.token.Tokens;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The tokens' life: refreshed shortly before expiry and once after a 401, through a provider and a store faked here. */
class TokenSessionTest {
    HttpServer server;
    final List<String> grants = new CopyOnWriteArrayList<>();
    final List<String> storeSaw = new CopyOnWriteArrayList<>();
    volatile boolean providerRefuses;
    int issued = 1;
    final MutableClock clock = new MutableClock();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.createContext("/token", this::token);
        server.createContext("/images/", this::store);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    TokenSession session() {
        return new TokenSession("alice", new Tokens(new BearerAccessToken("a1", 300, null), new RefreshToken("r1")),
                uri("/token"), new ClientID("medjava-viewer"), clock);
    }

    synchronized void token(HttpExchange exchange) throws IOException {
        try (exchange) {
            grants.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            String body = providerRefuses ? "{\"error\":\"invalid_grant\",\"error_description\":\"Session not active\"}"
                    : "{\"access_token\":\"a" + (++issued) + "\",\"token_type\":\"Bearer\",\"expires_in\":300,"
                    + "\"refresh_token\":\"r" + issued + "\"}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(providerRefuses ? 400 : 200, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    /** A store that accepts only the second access token. */
    void store(HttpExchange exchange) throws IOException {
        try (exchange) {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            storeSaw.add(authorization);
            byte[] bytes = "{\"entries\":[]}".getBytes(StandardCharsets.UTF_8);
            if (!"Bearer a2".equals(authorization)) {
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
    }

    @Test
    void theAccessTokenIsRefreshedShortlyBeforeItExpires() throws Exception {
        TokenSession session = session();
        assertThat(session.authorization()).isEqualTo("Bearer a1");
        clock.now = clock.now.plusSeconds(260);
        assertThat(session.authorization()).isEqualTo("Bearer a1");
        assertThat(grants).isEmpty();

        clock.now = clock.now.plusSeconds(15); // 25 s left: less than TokenSession.EARLY

        assertThat(session.authorization()).isEqualTo("Bearer a2");
        assertThat(grants).singleElement().satisfies(g -> assertThat(g).contains("grant_type=refresh_token",
                "refresh_token=r1", "client_id=medjava-viewer"));
        clock.now = clock.now.plusSeconds(275);
        assertThat(session.authorization()).isEqualTo("Bearer a3");
        assertThat(grants.get(1)).contains("refresh_token=r2"); // the rotated refresh token
    }

    @Test
    void aStoreRefusalRefreshesOnceAndTheRequestIsSentAgain() throws Exception {
        StoreClient client = new StoreClient(uri(""), session());

        assertThat(client.list("").entries()).isEmpty();

        assertThat(storeSaw).containsExactly("Bearer a1", "Bearer a2");
        assertThat(grants).hasSize(1);
    }

    @Test
    void anEndedSessionAtTheProviderAsksForANewSignIn() {
        providerRefuses = true;
        StoreClient client = new StoreClient(uri(""), session());

        assertThatThrownBy(() -> client.list("")).isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.status()).isEqualTo(401);
            assertThat(e.getMessage()).contains("single sign-on session has ended", "Session not active",
                    "sign in again");
        });
        assertThat(storeSaw).containsExactly("Bearer a1");
    }

    static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-12-06T10:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
