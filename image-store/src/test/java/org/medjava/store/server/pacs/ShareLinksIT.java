package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Share links on a real store: an uploader shares one study; the link, opened without an account, gives a session
 * that reads that study alone — through the index and DICOMweb, counts included — and nothing else (no other study,
 * no file door, no write); every read is audited under the link; revoked, the link answers 410 and its sessions end;
 * a forged or unknown link is 404; bad requests are 400; who may make, list and revoke links.
 */
@ExtendWith(PacsStore.class)
class ShareLinksIT {

    @TempDir
    static Path work;
    static StoreClient admin;
    static StoreClient uploader;
    static StoreClient otherUploader;
    static StoreClient reader;
    static StoreClient anonymous;
    static TestStudy shared;
    static TestStudy other;

    @BeforeAll
    static void setUp() throws Exception {
        PayaraStore store = PacsStore.store();
        admin = StoreClient.admin(store);
        uploader = admin.account("shareuploader", "uploader");
        otherUploader = admin.account("shareuploader2", "uploader");
        reader = admin.account("sharereader", "reader");
        anonymous = new StoreClient(store, null);
        String tag = UUID.randomUUID().toString().substring(0, 8);
        shared = TestStudy.create(work.resolve("a"), "SHARED-" + tag, "CT_small.dcm", "CT_small.dcm");
        other = TestStudy.create(work.resolve("b"), "SHARED-" + tag, "CT_small.dcm"); // same patient, not shared
        for (TestStudy s : List.of(shared, other)) {
            for (TestStudy.Instance i : s.instances()) {
                assertThat(admin.put("/images/share-links/" + i.sopInstanceUid() + ".dcm", i.file()).statusCode())
                        .isEqualTo(201);
            }
        }
    }

    static JsonObject share(StoreClient by, String body) throws Exception {
        HttpResponse<String> made = by.postJson("/shares", body);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        return json(made.body());
    }

    /** Opens a link as a browser would, without following the redirect: the session cookie it sets. */
    static String open(String url) throws Exception {
        HttpResponse<String> landing = anonymous.sendText(anonymous.request(pathOf(url)));
        assertThat(landing.statusCode()).as(landing.body()).isEqualTo(303);
        assertThat(landing.headers().firstValue("Location").orElseThrow())
                .endsWith("/viewer/#/view?study=" + shared.studyUid());
        assertThat(landing.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        String setCookie = landing.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(setCookie).startsWith("medjava_session=").contains("HttpOnly", "SameSite=Strict");
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    static HttpResponse<String> as(String cookie, String path) throws Exception {
        return anonymous.sendText(anonymous.request(path).header("Cookie", cookie).header("Accept",
                "application/json"));
    }

    static String pathOf(String url) {
        return java.net.URI.create(url).getRawPath();
    }

    static JsonObject json(String body) {
        return Json.createReader(new StringReader(body)).readObject();
    }

    static JsonArray array(String body) {
        return Json.createReader(new StringReader(body)).readArray();
    }

    @Test
    void aLinkOpensItsOneStudyReadOnlyAndEverythingReadThroughItIsAudited() throws Exception {
        JsonObject link = share(uploader, "{\"study\": \"" + shared.studyUid() + "\", \"hours\": 48, "
                + "\"note\": \"second opinion\"}");
        assertThat(link.getString("study")).isEqualTo(shared.studyUid());
        assertThat(link.getString("createdBy")).isEqualTo("shareuploader");
        assertThat(link.getBoolean("live")).isTrue();
        assertThat(java.time.Duration.between(java.time.Instant.parse(link.getString("created")),
                java.time.Instant.parse(link.getString("expires")))).hasHours(48);
        String cookie = open(link.getString("url"));

        JsonObject me = json(as(cookie, "/auth/me").body());
        assertThat(me.getString("via")).isEqualTo("share");
        assertThat(me.getString("role")).isEqualTo("reader");
        assertThat(me.getString("sharedStudy")).isEqualTo(shared.studyUid());
        assertThat(me.getString("user")).isEqualTo("share:" + link.getString("id"));

        // the study, and nothing of the patient's other study: not listed, not counted, not found by its UID
        JsonArray qido = array(as(cookie, "/dicomweb/studies?PatientID=" + shared.patientId()).body());
        assertThat(qido).hasSize(1);
        assertThat(qido.getJsonObject(0).getJsonObject("0020000D").getJsonArray("Value").getString(0))
                .isEqualTo(shared.studyUid());
        assertThat(array(as(cookie, "/dicomweb/studies?StudyInstanceUID=" + other.studyUid()).body())).isEmpty();
        assertThat(as(cookie, "/dicomweb/studies/" + other.studyUid() + "/metadata").statusCode()).isEqualTo(404);
        assertThat(as(cookie, "/dicomweb/studies/" + shared.studyUid() + "/metadata").statusCode()).isEqualTo(200);
        HttpResponse<String> patients = as(cookie, "/index/patients?PatientID=" + shared.patientId());
        assertThat(patients.body()).contains("\"NumberOfPatientRelatedStudies\":1");
        assertThat(array(as(cookie, "/index/studies").body())).hasSize(1);
        HttpResponse<byte[]> rendered = anonymous.send(anonymous.request("/dicomweb/studies/" + shared.studyUid()
                + "/series/" + shared.instances().get(0).seriesUid() + "/instances/"
                + shared.instances().get(0).sopInstanceUid() + "/rendered").header("Cookie", cookie)
                .header("Accept", "image/jpeg"));
        assertThat(rendered.statusCode()).isEqualTo(200);

        // read only, and only the doors that serve a study: its files, one at a time
        String file = "/images/share-links/" + shared.instances().get(0).sopInstanceUid() + ".dcm";
        assertThat(as(cookie, file).statusCode()).isEqualTo(200);
        assertThat(as(cookie, "/images/share-links/" + other.instances().get(0).sopInstanceUid() + ".dcm")
                .statusCode()).as("a file of another study, as if absent").isEqualTo(404);
        assertThat(as(cookie, "/images/share-links/").statusCode()).as("a listing").isEqualTo(403);
        assertThat(as(cookie, "/changes").statusCode()).isEqualTo(403);
        assertThat(as(cookie, "/shares").statusCode()).isEqualTo(403);
        assertThat(as(cookie, "/audit/events").statusCode()).isEqualTo(403);
        HttpResponse<String> put = anonymous.sendText(anonymous.request("/images/share-links/x.gif")
                .header("Cookie", cookie).header("Origin", PacsStore.store().uri("/").toString().replaceAll("/$", ""))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[] {1})));
        assertThat(put.statusCode()).isEqualTo(403);
        assertThat(put.body()).contains("share link opens one study, read only");

        // audited: the link made, opened, and the reads under its name
        String user = "share:" + link.getString("id");
        List<JsonObject> events = array(admin.getJson("/audit/events?study=" + shared.studyUid()).body())
                .getValuesAs(JsonObject.class);
        assertThat(events).anySatisfy(e -> {
            assertThat(e.getString("eventId")).isEqualTo("110113");
            assertThat(e.getString("user")).isEqualTo("shareuploader");
            assertThat(e.getString("description")).contains("share link " + link.getString("id") + " made");
        });
        assertThat(events).filteredOn(e -> user.equals(e.getString("user", null)))
                .extracting(e -> e.getString("door")).contains("dicomweb");
        assertThat(array(admin.getJson("/audit/events?user=" + user + "&type=login").body())).isNotEmpty();
        assertThat(array(admin.getJson("/audit/events?user=" + user + "&type=read").body())
                .getValuesAs(JsonObject.class)).as("nothing of the other study was read")
                .noneMatch(e -> other.studyUid().equals(e.getString("StudyInstanceUID", null)));
    }

    @Test
    void aRevokedLinkIsGoneAndItsSessionsEndAtOnce() throws Exception {
        JsonObject link = share(uploader, "{\"study\": \"" + shared.studyUid() + "\"}");
        String cookie = open(link.getString("url"));
        assertThat(as(cookie, "/dicomweb/studies").statusCode()).isEqualTo(200);

        assertThat(otherUploader.delete("/shares/" + link.getString("id")).statusCode())
                .as("another uploader's link").isEqualTo(404);
        assertThat(uploader.delete("/shares/" + link.getString("id")).statusCode()).isEqualTo(204);
        assertThat(uploader.delete("/shares/" + link.getString("id")).statusCode()).as("again").isEqualTo(204);

        assertThat(as(cookie, "/dicomweb/studies").statusCode()).isEqualTo(401);
        HttpResponse<String> again = anonymous.sendText(anonymous.request(pathOf(link.getString("url"))));
        assertThat(again.statusCode()).isEqualTo(410);
        assertThat(json(again.body()).getString("message")).contains("revoked");
        HttpResponse<String> page = anonymous.sendText(anonymous.request(pathOf(link.getString("url")))
                .header("Accept", "text/html"));
        assertThat(page.statusCode()).isEqualTo(410);
        assertThat(page.body()).contains("<h1>This link does not open anything now</h1>", "was revoked");

        String list = uploader.getJson("/shares?study=" + shared.studyUid()).body();
        JsonObject listed = array(list).getValuesAs(JsonObject.class).stream()
                .filter(s -> link.getString("id").equals(s.getString("id", null))).findFirst()
                .orElseThrow(() -> new AssertionError(list));
        assertThat(listed.getBoolean("live")).isFalse();
        assertThat(listed.getString("revokedBy")).isEqualTo("shareuploader");
        assertThat(listed.get("url")).as("no link once revoked").isIn(null, javax.json.JsonValue.NULL);
        assertThat(listed.getInt("opens")).isEqualTo(1);
        assertThat(array(admin.getJson("/audit/events?user=share:" + link.getString("id") + "&type=login").body())
                .getValuesAs(JsonObject.class)).anySatisfy(e -> assertThat(e.getString("description", ""))
                        .contains("revoked"));
    }

    @Test
    void aForgedOrUnknownLinkOpensNothing() throws Exception {
        JsonObject link = share(uploader, "{\"study\": \"" + shared.studyUid() + "\"}");
        String token = pathOf(link.getString("url")).replaceAll(".*/share/", "");
        String forged = token.substring(0, token.indexOf('.') + 1) + "A".repeat(22);
        for (String bad : List.of(forged, "A".repeat(24) + "." + "A".repeat(22), "nothing", token + "x")) {
            HttpResponse<String> r = anonymous.sendText(anonymous.request("/share/" + bad));
            assertThat(r.statusCode()).as(bad).isEqualTo(404);
            assertThat(r.headers().firstValue("Set-Cookie")).isEmpty();
        }
    }

    @Test
    void whoMayMakeListAndRevokeLinks() throws Exception {
        assertThat(reader.postJson("/shares", "{\"study\": \"" + shared.studyUid() + "\"}").statusCode())
                .isEqualTo(403);
        assertThat(anonymous.postJson("/shares", "{\"study\": \"" + shared.studyUid() + "\"}").statusCode())
                .isEqualTo(401);
        JsonObject mine = share(uploader, "{\"study\": \"" + shared.studyUid() + "\"}");
        JsonObject theirs = share(otherUploader, "{\"study\": \"" + other.studyUid() + "\"}");
        assertThat(uploader.getJson("/shares").body()).contains(mine.getString("id"))
                .doesNotContain(theirs.getString("id"));
        assertThat(admin.getJson("/shares").body()).contains(mine.getString("id"), theirs.getString("id"));
        assertThat(reader.getJson("/shares").statusCode()).isEqualTo(403);
        assertThat(admin.delete("/shares/" + theirs.getString("id")).statusCode()).isEqualTo(204);
        assertThat(admin.delete("/shares/nothing").statusCode()).isEqualTo(404);
    }

    @Test
    void badRequestsAreRefusedWithTheirReason() throws Exception {
        for (String body : List.of("{}", "{\"study\": \"1.2.3\", \"hours\": 0}", "{\"study\": \"not a uid\"}",
                "{\"study\": \"" + shared.studyUid() + "\", \"hours\": 100000}",
                "{\"study\": \"" + shared.studyUid() + "\", \"note\": \"" + "x".repeat(300) + "\"}")) {
            HttpResponse<String> r = uploader.postJson("/shares", body);
            assertThat(r.statusCode()).as(body + " → " + r.body()).isEqualTo(400);
            assertThat(json(r.body()).getString("message")).isNotBlank();
        }
        HttpResponse<String> unknown = uploader.postJson("/shares", "{\"study\": \"1.2.826.0.1.99999\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
    }
}
