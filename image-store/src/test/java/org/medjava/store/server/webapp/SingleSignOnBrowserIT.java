package org.medjava.store.server.webapp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.json.Json;
import javax.json.JsonObjectBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.peers.Keycloak;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Single sign-on and access by project in a real browser: a real Keycloak (the test realm: alice, a reader of project
 * cardiology; bob, an administrator), a store with {@code medjava.oidc.*} and {@code medjava.access.by-project} on,
 * four studies put in and labelled by the local administrator (two cardiology, one research, one without a label),
 * then the browser tests in {@code web/e2e/sso/}: Chromium logs in through the provider's own login page, sees only
 * its project's studies, logs out at the provider too, and an administrator sees them all.
 */
class SingleSignOnBrowserIT {

    static final String DISPLAY_NAME = "Hospital login";

    @TempDir
    static Path work;
    static Keycloak keycloak;
    static PayaraStore store;
    static Path fixtures;

    @BeforeAll
    @Timeout(value = 8, unit = TimeUnit.MINUTES) // Keycloak's first start builds its server (about a minute alone)
    static void providerAndStore() throws Exception {
        keycloak = Keycloak.start();
        store = PayaraStore.named("sso-browser")
                .property("medjava.oidc.issuer", keycloak.issuer())
                .property("medjava.oidc.client-id", Keycloak.CLIENT)
                .property("medjava.oidc.client-secret", Keycloak.CLIENT_SECRET)
                .property("medjava.oidc.role-map", "pacs-admins=admin")
                .property("medjava.oidc.display-name", DISPLAY_NAME)
                .property("medjava.access.by-project", "true")
                .start();
        StoreClient admin = StoreClient.admin(store);
        // alice's project holds two studies; the research study shares a patient with one of them (a patient's
        // numbers must not count it), and one study carries no label at all
        fixtures = work.resolve("fixtures.json");
        Files.writeString(fixtures, Json.createObjectBuilder()
                .add("url", store.uri("/").toString().replaceAll("/$", ""))
                .add("issuer", keycloak.issuer())
                .add("displayName", DISPLAY_NAME)
                .add("users", Json.createObjectBuilder()
                        .add("alice", Json.createObjectBuilder().add("password", "alice-password"))
                        .add("bob", Json.createObjectBuilder().add("password", "bob-password")))
                .add("cardiology", Json.createArrayBuilder()
                        .add(study(admin, "SSO-E2E-1", "Heart^Anna", "Cardiology CT", 2, "cardiology"))
                        .add(study(admin, "SSO-E2E-3", "Valve^Carl", "Cardiology follow-up", 1, "cardiology")))
                .add("research", study(admin, "SSO-E2E-1", "Heart^Anna", "Research CT", 3, "research"))
                .add("unlabelled", study(admin, "SSO-E2E-2", "Plain^Paul", "No project", 1, null))
                .build().toString());
    }

    /** A CT study of {@code images} images in one series, put in by the administrator and labelled (unless null). */
    static JsonObjectBuilder study(StoreClient admin, String patientId, String name, String description, int images,
                                   String label) throws Exception {
        String studyUid = TestStudy.newUid();
        String seriesUid = TestStudy.newUid();
        for (int n = 1; n <= images; n++) {
            Path file = TestDicom.ct().patient(patientId, name).study(studyUid, "20240301")
                    .set("StudyDescription", description).series(seriesUid, "CT", 1)
                    .instance(TestStudy.newUid(), n).writeTo(work.resolve(studyUid + "-" + n + ".dcm"));
            HttpResponse<String> r = admin.put("/images/e2e/sso/" + studyUid + "/" + n + ".dcm", file);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        }
        if (label != null) {
            HttpResponse<String> r = admin.sendText(admin.request("/index/studies/" + studyUid + "/labels/" + label)
                    .PUT(HttpRequest.BodyPublishers.noBody()));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        }
        return Json.createObjectBuilder().add("studyUid", studyUid).add("seriesUid", seriesUid)
                .add("patientId", patientId).add("images", images);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
        if (keycloak != null) {
            keycloak.close();
        }
    }

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void theSingleSignOnBrowserTestsPass() throws Exception {
        NodeBrowserTests.run(NodeBrowserTests.in("e2e/sso"), fixtures, work, Duration.ofMinutes(5));
    }
}
