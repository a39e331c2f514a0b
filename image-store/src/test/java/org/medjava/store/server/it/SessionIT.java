package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.http.TrustingTls;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Browser sessions on a real store: login (JSON and form) with the accounts and roles of HTTP Basic, the cookie's
 * attributes, reading and writing with the cookie, logout, tampered and outdated cookies, a password change ending
 * the sessions, the answers to a page's script and to a browser navigation without a login, cross-site request
 * forgery refused, CORS for a listed origin and none for others, Bearer tokens, the Secure flag over HTTPS, and the
 * signing key surviving a restart; repeated wrong passwords throttled (429, Retry-After).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SessionIT {

    static final String VIEWER = "https://viewer.example.org";
    static final String EVIL = "https://evil.example.com";
    static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));
    static final byte[] COLOR = Samples.bytes(Samples.gif("color.gif"));

    static PayaraStore store;
    static StoreClient admin;
    static String own;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build(); // follows no redirect

    @BeforeAll
    static void start() throws Exception {
        store = PayaraStore.named("session").property("medjava.cors.origins", VIEWER + ", http://localhost:3000")
                .tls().start();
        own = "http://127.0.0.1:" + store.port(); // the harness's medjava.public-url
        admin = StoreClient.admin(store);
        for (String[] user : new String[][] {{"rita", "reader-pass-1", "reader"}, {"ulf", "uploader-pass-1",
                "uploader"}, {"paula", "paula-pass-1", "uploader"}}) {
            assertThat(admin.sendText(admin.request("/admin/users/" + user[0]).header("Content-Type",
                    "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"" + user[1]
                    + "\",\"role\":\"" + user[2] + "\"}"))).statusCode()).isIn(201, 204);
        }
        assertThat(admin.put("/images/it/session/ct.gif", GIF).statusCode()).isEqualTo(201);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    @Test
    @Order(1)
    void aJsonLoginGivesAStrictHttpOnlyCookieThatReadsAndWrites() throws Exception {
        HttpResponse<String> login = loginJson("ulf", "uploader-pass-1", "");
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        assertThat(login.body()).contains("\"user\":\"ulf\"", "\"role\":\"uploader\"", "\"expires\":\"")
                .doesNotContain("token");
        Instant expires = Instant.parse(field(login.body(), "expires"));
        assertThat(Duration.between(Instant.now(), expires)).isBetween(Duration.ofMinutes(29),
                Duration.ofMinutes(31));
        String setCookie = login.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).startsWith("medjava_session=").contains("; HttpOnly", "; SameSite=Strict",
                "; Path=/", "; Max-Age=1800").doesNotContain("Secure");
        assertThat(login.headers().firstValue("Cache-Control")).contains("no-store");
        String cookie = cookieOf(login);

        HttpResponse<byte[]> read = http.send(request("/images/it/session/ct.gif", cookie).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.body()).isEqualTo(GIF);
        HttpResponse<String> me = send(request("/auth/me", cookie));
        assertThat(me.body()).contains("\"user\":\"ulf\"", "\"role\":\"uploader\"", "\"via\":\"session\"",
                "\"expires\":\"" + expires + "\"");

        HttpResponse<String> put = send(request("/images/it/session/by-ulf.gif", cookie).header("Origin", own)
                .header("Content-Type", "image/gif").PUT(HttpRequest.BodyPublishers.ofByteArray(COLOR)));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        assertThat(admin.get("/images/it/session/by-ulf.gif").body()).isEqualTo(COLOR);
        HttpResponse<String> delete = send(request("/images/it/session/by-ulf.gif", cookie)
                .header("Referer", own + "/viewer/?study=1").DELETE());
        assertThat(delete.statusCode()).as("Referer when no Origin: " + delete.body()).isEqualTo(204);
        assertThat(admin.get("/images/it/session/by-ulf.gif").statusCode()).isEqualTo(404);
    }

    @Test
    @Order(2)
    void aFormLoginHasTheAccountsRoleAndTheRolesLimits() throws Exception {
        HttpResponse<String> login = send(HttpRequest.newBuilder(store.uri("/auth/login")).header("Content-Type",
                "application/x-www-form-urlencoded").header("Origin", own).POST(HttpRequest.BodyPublishers.ofString(
                "username=rita&password=reader-pass-1")));
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        assertThat(login.body()).contains("\"user\":\"rita\"", "\"role\":\"reader\"");
        String cookie = cookieOf(login);
        assertThat(http.send(request("/images/it/session/ct.gif", cookie).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body()).isEqualTo(GIF);
        HttpResponse<String> put = send(request("/images/it/session/by-rita.gif", cookie).header("Origin", own)
                .header("Content-Type", "image/gif").PUT(HttpRequest.BodyPublishers.ofByteArray(GIF)));
        assertThat(put.statusCode()).isEqualTo(403);
        assertThat(put.body()).contains("lacks the uploader role");
        assertThat(send(request("/admin/users", cookie)).statusCode()).isEqualTo(403);
    }

    @Test
    @Order(3)
    void wrongCredentialsAre401WithoutSayingWhichWasWrong() throws Exception {
        HttpResponse<String> wrongPassword = loginJson("ulf", "not-the-password", "");
        HttpResponse<String> unknownUser = loginJson("nobody-here", "not-the-password", "");
        for (HttpResponse<String> r : List.of(wrongPassword, unknownUser)) {
            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.headers().firstValue("Set-Cookie")).isEmpty();
            assertThat(r.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Session ");
            assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        }
        assertThat(wrongPassword.body()).isEqualTo(unknownUser.body()).contains("\"error\":\"Unauthorized\"",
                "wrong user name or password");
        HttpResponse<String> empty = send(HttpRequest.newBuilder(store.uri("/auth/login")).header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertThat(empty.statusCode()).isEqualTo(400);
    }

    @Test
    @Order(4)
    void aLogoutEndsTheSessionAndRemovesTheCookie() throws Exception {
        String cookie = cookieOf(loginJson("ulf", "uploader-pass-1", ""));
        assertThat(send(request("/auth/me", cookie)).statusCode()).isEqualTo(200);
        HttpResponse<String> logout = send(request("/auth/logout", cookie).header("Origin", own)
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(logout.statusCode()).isEqualTo(204);
        assertThat(logout.headers().firstValue("Set-Cookie").orElseThrow()).startsWith("medjava_session=;")
                .contains("Max-Age=0", "Path=/", "HttpOnly", "SameSite=Strict");

        HttpResponse<String> after = send(request("/images/it/session/ct.gif", cookie).header("Sec-Fetch-Mode",
                "cors"));
        assertThat(after.statusCode()).isEqualTo(401);
        assertThat(after.body()).contains("the session ended with a logout");
        assertThat(after.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");
        assertThat(send(request("/auth/me", cookie)).statusCode()).isEqualTo(401);

        HttpResponse<String> forged = send(request("/auth/logout", cookieOf(loginJson("ulf", "uploader-pass-1",
                ""))).header("Origin", EVIL).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(forged.statusCode()).as("no logging out from another site's page").isEqualTo(403);
    }

    @Test
    @Order(5)
    void aTamperedOrForeignCookieIs401AndRemoved() throws Exception {
        String cookie = cookieOf(loginJson("rita", "reader-pass-1", ""));
        String payload = new String(java.util.Base64.getUrlDecoder().decode(cookie.substring(0, cookie.indexOf('.'))),
                StandardCharsets.UTF_8);
        String forged = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(payload.replace("rita",
                "admin").getBytes(StandardCharsets.UTF_8)) + cookie.substring(cookie.indexOf('.'));
        for (String bad : List.of(forged, cookie.substring(0, cookie.length() - 2) + "xx", "garbage")) {
            HttpResponse<String> r = send(request("/images/it/session/ct.gif", bad).header("X-Requested-With",
                    "XMLHttpRequest"));
            assertThat(r.statusCode()).as(bad).isEqualTo(401);
            assertThat(r.body()).contains("log in again");
            assertThat(r.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Session ");
            assertThat(r.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");
        }
        assertThat(send(request("/admin/users", forged)).statusCode()).isEqualTo(401);
    }

    @Test
    @Order(6)
    void aPasswordChangeEndsTheAccountsSessions() throws Exception {
        String cookie = cookieOf(loginJson("paula", "paula-pass-1", ""));
        assertThat(send(request("/auth/me", cookie)).statusCode()).isEqualTo(200);
        assertThat(admin.sendText(admin.request("/admin/users/paula").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"paula-pass-2\",\"role\":\"uploader\"}")))
                .statusCode()).isEqualTo(204);
        HttpResponse<String> after = send(request("/auth/me", cookie).header("Sec-Fetch-Mode", "cors"));
        assertThat(after.statusCode()).isEqualTo(401);
        assertThat(after.body()).contains("account changed");
        assertThat(loginJson("paula", "paula-pass-2", "").statusCode()).isEqualTo(200);
    }

    @Test
    @Order(7)
    void aPagesScriptGetsNoBasicChallengeOtherClientsDo() throws Exception {
        for (Map.Entry<String, String> script : Map.of("Sec-Fetch-Mode", "cors", "X-Requested-With",
                "XMLHttpRequest").entrySet()) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(store.uri("/images/it/session/ct.gif"))
                    .header(script.getKey(), script.getValue()));
            assertThat(r.statusCode()).isEqualTo(401);
            assertThat(r.headers().firstValue("WWW-Authenticate")).contains(
                    "Session realm=\"MedJava image store\"");
            assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
            assertThat(r.body()).contains("\"status\":401", "log in");
            HttpResponse<String> wrong = send(HttpRequest.newBuilder(store.uri("/images/it/session/ct.gif"))
                    .header(script.getKey(), script.getValue()).header("Authorization",
                            PayaraStore.basic("ulf", "wrong-password")));
            assertThat(wrong.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Session ");
        }
        HttpResponse<String> curl = send(HttpRequest.newBuilder(store.uri("/images/it/session/ct.gif")));
        assertThat(curl.statusCode()).isEqualTo(401);
        assertThat(curl.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Basic realm=");
    }

    @Test
    @Order(8)
    void aBrowserNavigatingWithoutALoginIsSentToTheLoginPageAndBack() throws Exception {
        HttpResponse<String> r = send(HttpRequest.newBuilder(store.uri("/images/it/session/?sort=name"))
                .header("Sec-Fetch-Mode", "navigate").header("Accept", "text/html,application/xhtml+xml"));
        assertThat(r.statusCode()).isEqualTo(302);
        assertThat(r.headers().firstValue("Location")).contains("/viewer/?next=%2Fimages%2Fit%2Fsession%2F%3Fsort"
                + "%3Dname");
        HttpResponse<String> old = send(HttpRequest.newBuilder(store.uri("/images/it/session/ct.gif"))
                .header("Accept", "text/html"));
        assertThat(old.statusCode()).as("an older browser, without Sec-Fetch-Mode").isEqualTo(302);
        assertThat(old.headers().firstValue("Location")).contains("/viewer/?next=%2Fimages%2Fit%2Fsession%2Fct.gif");
        assertThat(send(HttpRequest.newBuilder(store.uri("/auth/login")).header("Sec-Fetch-Mode", "navigate"))
                .statusCode()).as("the login itself is open").isNotIn(302, 401);
    }

    @Test
    @Order(9)
    void aCookieWriteFromAnotherSiteOrFromNowhereIsRefused() throws Exception {
        String cookie = cookieOf(loginJson("ulf", "uploader-pass-1", ""));
        String etag = admin.get("/images/it/session/ct.gif").headers().firstValue("ETag").orElseThrow();
        for (HttpRequest.Builder forged : List.of(
                request("/images/it/session/ct.gif", cookie).header("Origin", EVIL),
                request("/images/it/session/ct.gif", cookie).header("Referer", EVIL + "/attack.html"),
                request("/images/it/session/ct.gif", cookie).header("Origin", "null"),
                request("/images/it/session/ct.gif", cookie))) {
            HttpResponse<String> r = send(forged.header("Content-Type", "image/gif")
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(COLOR)));
            assertThat(r.statusCode()).isEqualTo(403);
            assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
            assertThat(r.body()).contains("cross-site request forgery");
        }
        assertThat(send(request("/images/it/session/ct.gif", cookie).header("Origin", EVIL).DELETE()).statusCode())
                .isEqualTo(403);
        assertThat(admin.get("/images/it/session/ct.gif").headers().firstValue("ETag")).as("left as it was")
                .contains(etag);
        HttpResponse<String> listed = send(request("/images/it/session/from-viewer.gif", cookie)
                .header("Origin", VIEWER).header("Content-Type", "image/gif")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(COLOR)));
        assertThat(listed.statusCode()).as("a CORS-listed origin: " + listed.body()).isEqualTo(201);
        HttpResponse<String> basic = send(admin.request("/images/it/session/from-basic.gif").header("Origin", EVIL)
                .header("Content-Type", "image/gif").PUT(HttpRequest.BodyPublishers.ofByteArray(COLOR)));
        assertThat(basic.statusCode()).as("Basic is not concerned").isEqualTo(201);
        HttpResponse<String> login = send(HttpRequest.newBuilder(store.uri("/auth/login")).header("Origin", EVIL)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"username\":\"ulf\",\"password\":\"uploader-pass-1\"}")));
        assertThat(login.statusCode()).as("no login from another site's page").isEqualTo(403);
        assertThat(login.headers().firstValue("Set-Cookie")).isEmpty();
    }

    @Test
    @Order(10)
    void corsAnswersAListedOriginAndNoOther() throws Exception {
        HttpResponse<String> preflight = send(HttpRequest.newBuilder(store.uri("/images/it/session/ct.gif"))
                .header("Origin", VIEWER).header("Access-Control-Request-Method", "PUT")
                .header("Access-Control-Request-Headers", "authorization, content-type, if-match")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertThat(preflight.statusCode()).isEqualTo(204);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Origin")).contains(VIEWER);
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Credentials")).contains("true");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Methods").orElse("")).contains("PUT",
                "DELETE", "GET");
        assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers").orElse("")).contains(
                "Authorization", "Content-Type", "If-Match", "Range");
        assertThat(preflight.headers().firstValue("Access-Control-Max-Age")).contains("600");
        assertThat(preflight.headers().firstValue("Vary").orElse("")).contains("Origin");

        HttpResponse<String> unlisted = send(HttpRequest.newBuilder(store.uri("/images/it/session/ct.gif"))
                .header("Origin", EVIL).header("Access-Control-Request-Method", "PUT")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertThat(unlisted.statusCode()).as("never an error page").isEqualTo(204);
        assertThat(unlisted.headers().map().keySet()).noneMatch(h -> h.toLowerCase().startsWith("access-control"));

        String cookie = cookieOf(loginJson("rita", "reader-pass-1", ""));
        HttpResponse<byte[]> actual = http.send(request("/images/it/session/ct.gif", cookie).header("Origin", VIEWER)
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(actual.statusCode()).isEqualTo(200);
        assertThat(actual.body()).isEqualTo(GIF);
        assertThat(actual.headers().firstValue("Access-Control-Allow-Origin")).contains(VIEWER);
        assertThat(actual.headers().firstValue("Access-Control-Allow-Credentials")).contains("true");
        assertThat(actual.headers().firstValue("Access-Control-Expose-Headers").orElse("")).contains("ETag",
                "Location", "Content-Range", "Content-Length", "Content-Disposition", "Warning");
        HttpResponse<byte[]> other = http.send(request("/images/it/session/ct.gif", cookie).header("Origin", EVIL)
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(other.headers().map().keySet()).noneMatch(h -> h.toLowerCase().startsWith("access-control"));
        HttpResponse<String> refused = send(HttpRequest.newBuilder(store.uri("/images/it/session/ct.gif"))
                .header("Origin", VIEWER).header("Sec-Fetch-Mode", "cors"));
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).as("the page may read the 401")
                .contains(VIEWER);

        HttpResponse<String> options = admin.sendText(admin.request("/images/it/session/ct.gif")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertThat(options.statusCode()).isIn(200, 204);
        assertThat(options.headers().firstValue("Allow").orElse("")).contains("GET", "PUT");
        assertThat(options.body()).doesNotContain("wadl", "<application");
        assertThat(admin.get("/application.wadl").statusCode()).isEqualTo(404);
    }

    @Test
    @Order(11)
    void aBearerTokenIsGivenOnlyWhenAskedAndNeedsNoOrigin() throws Exception {
        HttpResponse<String> login = loginJson("ulf", "uploader-pass-1", "?token=true");
        String token = field(login.body(), "token");
        assertThat(token).isEqualTo(cookieOf(login));
        HttpRequest.Builder put = HttpRequest.newBuilder(store.uri("/images/it/session/by-bearer.gif"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "image/gif")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(COLOR));
        assertThat(send(put).statusCode()).isEqualTo(201);
        HttpResponse<String> me = send(HttpRequest.newBuilder(store.uri("/auth/me")).header("Authorization",
                "Bearer " + token));
        assertThat(me.body()).contains("\"user\":\"ulf\"", "\"via\":\"bearer\"");
        HttpResponse<String> bad = send(HttpRequest.newBuilder(store.uri("/auth/me")).header("Authorization",
                "Bearer " + token.substring(1)));
        assertThat(bad.statusCode()).isEqualTo(401);
        assertThat(send(HttpRequest.newBuilder(store.uri("/auth/logout")).header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(204);
        assertThat(send(HttpRequest.newBuilder(store.uri("/auth/me")).header("Authorization", "Bearer " + token))
                .statusCode()).isEqualTo(401);
    }

    @Test
    @Order(12)
    void overHttpsTheCookieIsSecure() throws Exception {
        javax.net.ssl.HttpsURLConnection tls = (javax.net.ssl.HttpsURLConnection) URI.create("https://127.0.0.1:"
                + store.httpsPort() + "/auth/login").toURL().openConnection();
        tls.setSSLSocketFactory(TrustingTls.context().getSocketFactory());
        tls.setHostnameVerifier((host, session) -> true); // the built-in certificate names no host
        tls.setRequestMethod("POST");
        tls.setDoOutput(true);
        tls.setRequestProperty("Content-Type", "application/json");
        tls.getOutputStream().write("{\"username\":\"rita\",\"password\":\"reader-pass-1\"}".getBytes(
                StandardCharsets.UTF_8));
        assertThat(tls.getResponseCode()).isEqualTo(200);
        assertThat(tls.getHeaderField("Set-Cookie")).contains("; HttpOnly", "; SameSite=Strict", "; Secure");
        // browsers are told to keep to HTTPS, over HTTPS only
        assertThat(tls.getHeaderField("Strict-Transport-Security")).isEqualTo("max-age=31536000");
        assertThat(admin.getJson("/auth/me").headers().firstValue("Strict-Transport-Security")).isEmpty();
    }

    @Test
    @Order(13)
    void theKeyIsTheOwnersOnlyAndSessionsSurviveARestart() throws Exception {
        String cookie = cookieOf(loginJson("rita", "reader-pass-1", ""));
        java.nio.file.Path key = store.dataDir().resolve("session.key");
        assertThat(Files.size(key)).isEqualTo(32);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        store = store.restart();
        admin = StoreClient.admin(store);
        HttpResponse<String> me = send(request("/auth/me", cookie));
        assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
        assertThat(me.body()).contains("\"user\":\"rita\"");
    }

    @Test
    @Order(14)
    void repeatedWrongPasswordsAreThrottledWith429EvenForTheRightOneUntilRetryAfter() throws Exception {
        // an account of its own: its throttling must touch no other test's account
        assertThat(admin.sendText(admin.request("/admin/users/throttled").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"throttled-pass-1\",\"role\":"
                        + "\"reader\"}"))).statusCode()).isIn(201, 204);
        for (int i = 1; i <= 5; i++) {
            assertThat(loginJson("throttled", "guess-" + i, "").statusCode()).isEqualTo(401);
        }
        HttpResponse<String> refused = loginJson("throttled", "guess-6", "");
        for (int i = 7; refused.statusCode() == 401 && i <= 9; i++) { // only a very slow machine waits out a delay
            refused = loginJson("throttled", "guess-" + i, "");
        }
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);

        HttpResponse<String> right = loginJson("throttled", "throttled-pass-1", "");
        HttpResponse<String> basic = send(HttpRequest.newBuilder(store.uri("/auth/me")).header("Authorization",
                PayaraStore.basic("throttled", "throttled-pass-1")));
        for (HttpResponse<String> r : List.of(right, basic)) { // both doors share the count, the right password too
            assertThat(r.statusCode()).as(r.body()).isEqualTo(429);
            assertThat(r.headers().firstValue("Retry-After").orElse("")).matches("[1-9][0-9]*");
            assertThat(r.headers().firstValue("Set-Cookie")).isEmpty();
            assertThat(r.body()).contains("\"status\":429", "Too Many Requests");
        }
        // another account from the same address is not held up by this one's failures
        assertThat(loginJson("rita", "reader-pass-1", "").statusCode()).isEqualTo(200);

        Thread.sleep(Long.parseLong(right.headers().firstValue("Retry-After").orElseThrow()) * 1000 + 300);
        HttpResponse<String> later = loginJson("throttled", "throttled-pass-1", "");
        assertThat(later.statusCode()).as(later.body()).isEqualTo(200);
        assertThat(loginJson("throttled", "guess-after-success", "").statusCode()).isEqualTo(401); // count reset
    }

    // --- helpers ------------------------------------------------------------------------------------------------

    static HttpResponse<String> loginJson(String user, String password, String query) throws Exception {
        return send(HttpRequest.newBuilder(store.uri("/auth/login" + query)).header("Content-Type",
                "application/json").header("Origin", own).POST(HttpRequest.BodyPublishers.ofString(
                "{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}")));
    }

    static HttpRequest.Builder request(String path, String cookie) {
        return HttpRequest.newBuilder(store.uri(path)).timeout(Duration.ofSeconds(60))
                .header("Cookie", "medjava_session=" + cookie);
    }

    static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String cookieOf(HttpResponse<?> login) {
        assertThat(login.statusCode()).isEqualTo(200);
        Matcher m = Pattern.compile("medjava_session=([^;]+);").matcher(login.headers().firstValue("Set-Cookie")
                .orElseThrow());
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":\"([^\"]*)\"").matcher(json);
        assertThat(m.find()).as(name + " in " + json).isTrue();
        return m.group(1);
    }
}
