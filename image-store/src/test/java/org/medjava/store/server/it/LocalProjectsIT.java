package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Access by project for local accounts (users.properties, {@code /admin/users}), without an OpenID provider: an
 * administrator gives an account projects; over HTTP Basic, the session cookie and the session as Bearer, the
 * account sees the studies labelled like one of them and nothing of the others (QIDO-RS, the index and its counts,
 * WADO-RS and files 404); an account without a project sees nothing; a change of projects ends the account's
 * sessions and applies to its next Basic request at once.
 */
class LocalProjectsIT {

    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aLocalAccountSeesTheStudiesOfItsProjectsUntilTheyChange() throws Exception {
        try (PayaraStore store = PayaraStore.named("local-projects")
                .property("medjava.access.by-project", "true")
                .start()) {
            StoreClient admin = StoreClient.admin(store);
            assertThat(admin.put("/images/it/p/ct.dcm", Samples.dicom("CT_small.dcm")).statusCode()).isEqualTo(201);
            assertThat(admin.put("/images/it/p/mr.dcm", Samples.dicom("MR_small.dcm")).statusCode()).isEqualTo(201);
            String ct = studyUid(admin, "CT");
            String mr = studyUid(admin, "MR");
            assertThat(admin.sendText(admin.request("/index/studies/" + ct + "/labels/cardiology")
                    .PUT(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(201);

            assertThat(putUser(admin, "rosa", "{\"password\":\"rosa-pass-1\",\"role\":\"reader\","
                    + "\"projects\":[\"cardiology\"]}").statusCode()).isEqualTo(201);
            assertThat(putUser(admin, "nina", "{\"password\":\"nina-pass-1\",\"role\":\"reader\"}").statusCode())
                    .isEqualTo(201);
            HttpResponse<String> bad = putUser(admin, "rosa", "{\"password\":\"rosa-pass-1\",\"role\":\"reader\","
                    + "\"projects\":[\"cardio logy\"]}");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.body()).contains("1 to 64 letters, digits, _ or -");
            assertThat(admin.getJson("/admin/users").body()).as("the answer older clients read")
                    .contains("\"rosa\":\"reader\"", "\"nina\":\"reader\"");
            JsonObject details = json(admin.getJson("/admin/users?details=true"));
            assertThat(details.getJsonObject("rosa").getString("role")).isEqualTo("reader");
            assertThat(details.getJsonObject("rosa").getJsonArray("projects").getValuesAs(JsonString::getString))
                    .containsExactly("cardiology");
            assertThat(details.getJsonObject("nina").getJsonArray("projects")).isEmpty();
            assertThat(details.getJsonObject("admin").getString("role")).isEqualTo("admin");

            Caller rosa = Caller.basic(store, "rosa", "rosa-pass-1");
            seesOnly(rosa, ct, mr);
            assertThat(rosa.getJson("/auth/me").body()).contains("\"projects\":[\"cardiology\"]");
            Caller nina = Caller.basic(store, "nina", "nina-pass-1");
            assertThat(nina.getJson("/dicomweb/studies").body()).doesNotContain(ct).doesNotContain(mr);
            assertThat(nina.getJson("/index/patients").body()).isEqualTo("[]");

            // a password change without projects (an older client) keeps them
            assertThat(putUser(admin, "rosa", "{\"password\":\"rosa-pass-2\",\"role\":\"reader\"}").statusCode())
                    .isEqualTo(204);
            assertThat(json(admin.getJson("/admin/users?details=true")).getJsonObject("rosa").getJsonArray("projects")
                    .getValuesAs(JsonString::getString)).containsExactly("cardiology");
            rosa = Caller.basic(store, "rosa", "rosa-pass-2");
            seesOnly(rosa, ct, mr);

            String cookie = login("rosa", "rosa-pass-2", store);
            Caller session = new Caller(store, "Cookie", "medjava_session=" + cookie);
            seesOnly(session, ct, mr);
            assertThat(session.getJson("/auth/me").body()).contains("\"via\":\"session\"",
                    "\"projects\":[\"cardiology\"]");
            Caller bearer = new Caller(store, "Authorization", "Bearer " + cookie);
            seesOnly(bearer, ct, mr);

            // the projects taken away: the sessions end, Basic sees nothing from the next request on
            assertThat(putUser(admin, "rosa", "{\"password\":\"rosa-pass-2\",\"role\":\"reader\",\"projects\":[]}")
                    .statusCode()).isEqualTo(204);
            HttpResponse<String> ended = session.getJson("/dicomweb/studies");
            assertThat(ended.statusCode()).isEqualTo(401);
            assertThat(ended.body()).contains("the account changed since the login");
            assertThat(bearer.getJson("/dicomweb/studies").statusCode()).isEqualTo(401);
            rosa = Caller.basic(store, "rosa", "rosa-pass-2");
            HttpResponse<String> nothing = rosa.getJson("/dicomweb/studies");
            assertThat(nothing.statusCode()).isIn(200, 204);
            assertThat(nothing.body()).doesNotContain(ct).doesNotContain(mr);
            assertThat(rosa.getJson("/index/patients").body()).isEqualTo("[]");
            assertThat(rosa.getJson("/dicomweb/studies/" + ct + "/metadata").statusCode()).isEqualTo(404);
            assertThat(rosa.getJson("/auth/me").body()).contains("\"projects\":[]");
        }
    }

    /** What a caller of project cardiology sees: the cardiology study, nothing of the other. */
    static void seesOnly(Caller caller, String ct, String mr) throws Exception {
        HttpResponse<String> studies = caller.getJson("/dicomweb/studies");
        assertThat(studies.statusCode()).as(studies.body()).isEqualTo(200);
        assertThat(studies.body()).contains(ct).doesNotContain(mr);
        assertThat(caller.getJson("/dicomweb/studies?StudyInstanceUID=" + mr).body()).doesNotContain(mr);
        assertThat(caller.getJson("/dicomweb/studies/" + mr + "/metadata").statusCode()).isEqualTo(404);
        assertThat(caller.getJson("/dicomweb/studies/" + ct + "/metadata").statusCode()).isEqualTo(200);
        assertThat(caller.get("/dicomweb/studies/" + mr + "/thumbnail").statusCode()).isEqualTo(404);
        assertThat(caller.get("/dicomweb/studies/" + ct + "/thumbnail").statusCode()).isEqualTo(200);
        assertThat(caller.getJson("/index/studies").body()).contains(ct).doesNotContain(mr);
        assertThat(caller.getJson("/index/patients").body()).as("counts of what the caller may see")
                .contains("\"NumberOfPatientRelatedStudies\":1");
        assertThat(caller.get("/images/it/p/mr.dcm").statusCode()).isEqualTo(404);
        assertThat(caller.get("/images/it/p/ct.dcm").statusCode()).isEqualTo(200);
    }

    static HttpResponse<String> putUser(StoreClient admin, String name, String json) throws Exception {
        return admin.sendText(admin.request("/admin/users/" + name).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** A caller that sends one header to say who it is: Authorization (Basic or Bearer) or the session's Cookie. */
    record Caller(PayaraStore store, String header, String value) {
        static Caller basic(PayaraStore store, String user, String password) {
            return new Caller(store, "Authorization", "Basic " + Base64.getEncoder().encodeToString(
                    (user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }

        HttpResponse<String> getJson(String path) throws Exception {
            return HTTP.send(HttpRequest.newBuilder(store.uri(path)).timeout(Duration.ofSeconds(60))
                    .header(header, value).header("Accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<byte[]> get(String path) throws Exception {
            return HTTP.send(HttpRequest.newBuilder(store.uri(path)).timeout(Duration.ofSeconds(60))
                    .header(header, value).build(), HttpResponse.BodyHandlers.ofByteArray());
        }
    }

    static JsonObject json(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return Json.createReader(new StringReader(answer.body())).readObject();
    }

    /** A session cookie's value (the same text is the session's Bearer token). */
    static String login(String user, String password, PayaraStore store) throws Exception {
        HttpResponse<String> login = HTTP.send(HttpRequest.newBuilder(store.uri("/auth/login"))
                .header("Content-Type", "application/json").header("Origin", "http://127.0.0.1:" + store.port())
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"" + user + "\",\"password\":\""
                        + password + "\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        Matcher m = Pattern.compile("medjava_session=([^;]+);").matcher(login.headers().firstValue("Set-Cookie")
                .orElseThrow());
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    static String studyUid(StoreClient admin, String modality) throws Exception {
        String body = admin.getJson("/index/studies?ModalitiesInStudy=" + modality).body();
        Matcher m = Pattern.compile("\"StudyInstanceUID\"\\s*:\\s*\"([0-9.]+)\"").matcher(body);
        assertThat(m.find()).as(body).isTrue();
        return m.group(1);
    }
}
