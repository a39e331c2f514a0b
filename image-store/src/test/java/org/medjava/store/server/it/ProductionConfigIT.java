package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.http.TrustingTls;
import org.medjava.store.testkit.peers.LocalPostgres;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The store as production runs it: the index in a real PostgreSQL server, a random first admin password printed
 * once, anonymous reads switched on, TLS, and a restart that keeps everything.
 */
class ProductionConfigIT {

    static LocalPostgres postgres;

    @TempDir
    static Path data;

    @BeforeAll
    static void startPostgres() {
        postgres = LocalPostgres.start();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        postgres.close();
    }

    @Test
    void runsOnPostgresWithAGeneratedAdminPasswordAnonymousReadsAndTls() throws Exception {
        PayaraStore.Builder builder = PayaraStore.named("production").dataDir(data)
                .property("medjava.admin.initial-password", "")
                .property("medjava.db.url", postgres.jdbcUrl())
                .property("medjava.db.user", postgres.user())
                .property("medjava.db.password", postgres.password())
                .property("medjava.auth.anonymous-read", "true")
                .property("medjava.seed.images", Samples.dir().toString())
                .tls();
        String password;
        PayaraStore store = builder.start();
        try {
            password = printedAdminPassword(store.log());
            assertThat(password).hasSizeGreaterThanOrEqualTo(20);
            assertThat(Files.readString(data.resolve("users.properties"))).doesNotContain(password);
            StoreClient admin = new StoreClient(store, PayaraStore.basic("admin", password));
            StoreClient anonymous = new StoreClient(store, null);

            // First start: the sample images are seeded through the same validation as any upload.
            assertThat(anonymous.get("/images/samples/gif/ct-small.gif").body())
                    .isEqualTo(Samples.bytes(Samples.gif("ct-small.gif")));
            assertThat(anonymous.getJson("/images/samples/dicom/").body()).contains("\"name\":\"CT_small.dcm\"",
                    "\"name\":\"MR_small_jpeg_ls_lossless.dcm\"").doesNotContain("MR_truncated", "no_meta");
            assertThat(admin.delete("/images/samples/gif/color.gif").statusCode()).isEqualTo(204);

            byte[] ct = Samples.bytes(Samples.dicom("CT_small.dcm"));
            assertThat(admin.put("/images/prod/ct.dcm", ct).statusCode()).isEqualTo(201);
            HttpResponse<String> studies = anonymous.getJson("/index/studies?PatientID=1CT1");
            assertThat(studies.statusCode()).isEqualTo(200);
            assertThat(studies.body()).contains("\"StudyInstanceUID\":\"1.3.6.1.4.1.5962.1.2.1.20040119072730.12322\"");
            assertThat(anonymous.get("/images/prod/ct.dcm").body()).isEqualTo(ct);
            assertThat(anonymous.put("/images/prod/anon.dcm", ct).statusCode()).isEqualTo(401);
            assertThat(new StoreClient(store, PayaraStore.basic("admin", "wrong-password")).get("/images/prod/ct.dcm")
                    .statusCode()).isEqualTo(401);

            javax.net.ssl.HttpsURLConnection tls = (javax.net.ssl.HttpsURLConnection) URI.create("https://127.0.0.1:"
                    + store.httpsPort() + "/images/prod/ct.dcm").toURL().openConnection();
            tls.setSSLSocketFactory(TrustingTls.context().getSocketFactory());
            tls.setHostnameVerifier((host, session) -> true); // the built-in certificate names no host
            assertThat(tls.getResponseCode()).isEqualTo(200);
            try (var in = tls.getInputStream()) {
                assertThat(in.readAllBytes()).isEqualTo(ct);
            }
        } finally {
            store.stop();
        }

        PayaraStore restarted = builder.start();
        try {
            assertThat(restarted.log()).doesNotContain(password)
                    .contains("the admin password was shown on first start");
            StoreClient admin = new StoreClient(restarted, PayaraStore.basic("admin", password));
            // The same CT twice, seeded under samples/ and uploaded under prod/: one instance in two files.
            assertThat(admin.getJson("/index/studies?PatientID=1CT1").body()).contains("1.3.6.1.4.1.5962.1.2.1",
                    "\"NumberOfStudyRelatedInstances\":1");
            assertThat(admin.get("/images/samples/gif/color.gif").statusCode()).as("seeded once only").isEqualTo(404);
            assertThat(admin.delete("/images/prod/ct.dcm").statusCode()).isEqualTo(204);
            assertThat(admin.getJson("/index/studies?PatientID=1CT1").body())
                    .contains("\"NumberOfStudyRelatedInstances\":1"); // the seeded file is left
        } finally {
            restarted.stop();
        }
    }

    private static String printedAdminPassword(String log) {
        Matcher m = Pattern.compile("login: +admin / (\\S+)").matcher(log);
        assertThat(m.find()).as("the banner shows the first admin password").isTrue();
        return m.group(1);
    }
}
