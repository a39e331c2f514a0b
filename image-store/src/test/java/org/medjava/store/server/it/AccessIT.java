package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/** Authentication and roles: reads need a login by default, writes need uploader, administration admin. */
@ExtendWith(SharedStore.class)
class AccessIT {

    static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));
    static StoreClient admin;
    static StoreClient reader;
    static StoreClient uploader;
    static StoreClient anonymous;

    @BeforeAll
    static void accounts() throws Exception {
        PayaraStore store = SharedStore.store();
        admin = StoreClient.admin(store);
        assertThat(admin.sendText(admin.request("/admin/users/rita").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"reader-pass-1\",\"role\":\"reader\"}")))
                .statusCode()).isIn(201, 204);
        assertThat(admin.sendText(admin.request("/admin/users/ulf").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"uploader-pass-1\",\"role\":\"uploader\"}")))
                .statusCode()).isIn(201, 204);
        reader = new StoreClient(store, PayaraStore.basic("rita", "reader-pass-1"));
        uploader = new StoreClient(store, PayaraStore.basic("ulf", "uploader-pass-1"));
        anonymous = new StoreClient(store, null);
        admin.put("/images/it/access/ct.gif", GIF);
    }

    @Test
    void readsNeedALoginByDefault() throws Exception {
        HttpResponse<byte[]> r = anonymous.get("/images/it/access/ct.gif");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Basic realm=");
        assertThat(anonymous.get("/filters").statusCode()).isEqualTo(401);
        assertThat(anonymous.getJson("/images/").statusCode()).isEqualTo(401);
    }

    @Test
    void wrongPasswordsAreRefused() throws Exception {
        StoreClient wrong = new StoreClient(SharedStore.store(), PayaraStore.basic("admin", "not-the-password"));
        assertThat(wrong.get("/images/it/access/ct.gif").statusCode()).isEqualTo(401);
        StoreClient nobody = new StoreClient(SharedStore.store(), PayaraStore.basic("nobody", "whatever-1"));
        assertThat(nobody.get("/images/it/access/ct.gif").statusCode()).isEqualTo(401);
        StoreClient garbage = new StoreClient(SharedStore.store(), "Basic %%%not-base64");
        assertThat(garbage.get("/images/it/access/ct.gif").statusCode()).isEqualTo(401);
    }

    @Test
    void readersReadButDoNotWrite() throws Exception {
        assertThat(reader.get("/images/it/access/ct.gif").body()).isEqualTo(GIF);
        assertThat(reader.get("/filters").statusCode()).isEqualTo(200);
        HttpResponse<String> put = reader.put("/images/it/access/by-reader.gif", GIF);
        assertThat(put.statusCode()).isEqualTo(403);
        assertThat(put.body()).contains("uploader");
        assertThat(reader.delete("/images/it/access/ct.gif").statusCode()).isEqualTo(403);
        assertThat(admin.get("/images/it/access/by-reader.gif").statusCode()).isEqualTo(404);
    }

    @Test
    void uploadersWriteButDoNotAdminister() throws Exception {
        assertThat(uploader.put("/images/it/access/by-uploader.gif", GIF).statusCode()).isEqualTo(201);
        assertThat(uploader.delete("/images/it/access/by-uploader.gif").statusCode()).isEqualTo(204);
        assertThat(uploader.sendText(uploader.request("/filters/blur/suspend")
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(403);
        assertThat(uploader.sendText(uploader.request("/admin/index/rebuild")
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(403);
        assertThat(uploader.getJson("/admin/users").statusCode()).isEqualTo(403);
    }

    @Test
    void adminsManageAccountsWhosePasswordsAreStoredHashed() throws Exception {
        assertThat(admin.getJson("/admin/users").body()).contains("\"rita\":\"reader\"", "\"admin\":\"admin\"");
        String file = java.nio.file.Files.readString(SharedStore.store().dataDir().resolve("users.properties"));
        assertThat(file).doesNotContain("reader-pass-1", PayaraStore.ADMIN_PASSWORD).contains("pbkdf2-sha256$");

        HttpResponse<String> weak = admin.sendText(admin.request("/admin/users/weak")
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"short\",\"role\":\"reader\"}")));
        assertThat(weak.statusCode()).isEqualTo(400);

        admin.sendText(admin.request("/admin/users/temp").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"temporary-1\",\"role\":\"reader\"}")));
        StoreClient temp = new StoreClient(SharedStore.store(), PayaraStore.basic("temp", "temporary-1"));
        assertThat(temp.get("/images/it/access/ct.gif").statusCode()).isEqualTo(200);
        assertThat(admin.delete("/admin/users/temp").statusCode()).isEqualTo(204);
        assertThat(temp.get("/images/it/access/ct.gif").statusCode()).isEqualTo(401);
    }

    @Test
    void eachUserSeesOnlyTheJobsTheySubmittedAndAnAdministratorSeesAll() throws Exception {
        java.nio.file.Path target = java.nio.file.Files.createTempDirectory("access-backup").resolve("snapshot");
        HttpResponse<String> backup = admin.postJson("/admin/backup", "{\"directory\":\"" + target + "\"}");
        assertThat(backup.statusCode()).as(backup.body()).isEqualTo(202);
        String adminJob = SeriesJobs.json(backup.body()).getString("id");
        String series = "1.2.826.0.1.3680043.10.1234.40.8";
        SeriesJobs.upload(uploader, "it/access/series", series, 1);
        HttpResponse<String> derive = SeriesJobs.submit(uploader, series, "blur:n=3", "");
        assertThat(derive.statusCode()).as(derive.body()).isEqualTo(202);
        String uploaderJob = SeriesJobs.json(derive.body()).getString("id");
        assertThat(SeriesJobs.json(derive.body()).getString("owner")).isEqualTo("ulf");

        assertThat(reader.getJson("/jobs").body()).doesNotContain(adminJob, uploaderJob, target.toString());
        assertThat(reader.getJson("/jobs/" + adminJob).statusCode()).isEqualTo(404);
        assertThat(reader.getJson("/jobs/" + uploaderJob).statusCode()).isEqualTo(404);
        HttpResponse<String> own = uploader.getJson("/jobs");
        assertThat(own.body()).contains(uploaderJob).doesNotContain(adminJob, target.toString());
        assertThat(uploader.getJson("/jobs/" + adminJob).statusCode()).isEqualTo(404);
        assertThat(uploader.delete("/jobs/" + adminJob).statusCode()).isEqualTo(404);
        assertThat(uploader.getJson("/jobs/" + uploaderJob).statusCode()).isEqualTo(200);
        assertThat(admin.getJson("/jobs").body()).contains(adminJob, uploaderJob);
        assertThat(admin.getJson("/jobs/" + uploaderJob).statusCode()).isEqualTo(200);
        SeriesJobs.await(admin, adminJob, java.time.Duration.ofMinutes(2), j -> false);
    }

    @Test
    void healthMetricsAndOpenApiAreServed() throws Exception {
        HttpResponse<String> health = anonymous.sendText(anonymous.request("/health/ready"));
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("image-store", "UP");
        HttpResponse<String> metrics = anonymous.sendText(anonymous.request("/metrics"));
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("uploads");
        HttpResponse<String> openapi = anonymous.sendText(anonymous.request("/openapi"));
        assertThat(openapi.statusCode()).isEqualTo(200);
        assertThat(openapi.body()).contains("MedJava image store", "/images", "/filters/{id}.jar", "/index/studies");
    }
}
