package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import javax.json.Json;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * What an administrator scrapes and probes on a running store (the PACS store: DICOM on, plugins seeded): after an
 * upload, a read, a filtered rendering, a C-STORE and a STOW-RS, {@code /metrics} counts each under its endpoint
 * template, filter, door and outcome (never a path or a UID in a label), the gauges read the index, the disk and the
 * plugins, the JVM's base metrics are there; {@code /health/live} and {@code /health/ready} answer with their checks.
 * Other tests share the store, so counts are compared as at least what this test added.
 */
@ExtendWith(PacsStore.class)
class MetricsIT {

    private static final String BOUNDARY = "metrics-it-boundary";

    @TempDir
    static Path work;
    static StoreClient admin;
    static Scrape before;
    static Scrape after;
    static TestStudy cStored;
    static TestStudy stowed;
    static byte[] png;

    @BeforeAll
    static void exerciseTheStore() throws Exception {
        admin = StoreClient.admin(PacsStore.store());
        cStored = TestStudy.create(work.resolve("c-store"), "METRICS-C", "CT_small.dcm");
        stowed = TestStudy.create(work.resolve("stow"), "METRICS-S", "MR_small.dcm");
        png = GeneratedPng.bytes(48, 32, 7);
        before = Scrape.of(admin);

        assertThat(admin.put("/images/metrics-it/one.png", png).statusCode()).isEqualTo(201);
        assertThat(admin.get("/images/metrics-it/one.png").statusCode()).isEqualTo(200);
        assertThat(admin.get("/images/metrics-it/one.png?render=png&filter=blur").statusCode()).isEqualTo(200);
        assertThat(admin.get("/images/metrics-it/none.png").statusCode()).isEqualTo(404);
        Dcmtk.storeAll(cStored);
        HttpResponse<String> stow = admin.sendText(admin.request("/dicomweb/studies")
                .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + BOUNDARY)
                .header("Accept", "application/dicom+json").POST(HttpRequest.BodyPublishers.ofByteArray(
                        Multipart.dicom(BOUNDARY, List.of(Samples.bytes(stowed.instances().get(0).file()))))));
        assertThat(stow.statusCode()).as(stow.body()).isEqualTo(200);

        Thread.sleep(RegistryMetricsCache.MILLIS); // past the gauges' cache, so they read what was just stored
        after = Scrape.of(admin);
    }

    /** How long the store reuses a gauge's reading of the database ({@code RegistryMetrics.GAUGE_CACHE}), and a bit. */
    private static final class RegistryMetricsCache {
        static final long MILLIS = 6_000;
    }

    private static double added(String name, String... labels) {
        return after.value(name, labels) - before.value(name, labels);
    }

    @Test
    void requestsAreCountedAndTimedByMethodEndpointTemplateAndStatusClass() {
        String requests = "medjava_http_requests_count";
        assertThat(added(requests, "method", "PUT", "endpoint", "/images/{path}", "status", "2xx")).isEqualTo(1);
        assertThat(added(requests, "method", "GET", "endpoint", "/images/{path}", "status", "2xx"))
                .isGreaterThanOrEqualTo(2);
        assertThat(added(requests, "method", "GET", "endpoint", "/images/{path}", "status", "4xx"))
                .isGreaterThanOrEqualTo(1);
        assertThat(added(requests, "method", "POST", "endpoint", "/dicomweb/studies", "status", "2xx"))
                .isGreaterThanOrEqualTo(1);
        assertThat(added(requests, "method", "GET", "endpoint", "/metrics", "status", "2xx"))
                .as("the scrape before").isGreaterThanOrEqualTo(1);
        assertThat(after.value("medjava_http_requests_sum", "method", "PUT", "endpoint", "/images/{path}",
                "status", "2xx")).isPositive();
    }

    @Test
    void noLabelCarriesAPathAUidOrAPatient() {
        List<String> leaks = List.of("metrics-it", "one.png", cStored.studyUid(), stowed.studyUid(), "METRICS-");
        assertThat(after.text()).contains("medjava_http_requests");
        after.text().lines().filter(l -> l.startsWith("medjava_")).forEach(line ->
                assertThat(line).as("a metric label").doesNotContain(leaks));
    }

    @Test
    void renderingAndEachFilterAreTimedByFilterAndImplementation() {
        assertThat(added("medjava_render_count", "format", "png")).isGreaterThanOrEqualTo(1);
        assertThat(added("medjava_filter_count", "filter", "blur", "implementation", "optimized"))
                .isGreaterThanOrEqualTo(1);
        assertThat(after.value("medjava_filter_sum", "filter", "blur", "implementation", "optimized"))
                .isPositive();
    }

    @Test
    void dicomAssociationsAndStoresAreCountedByOutcome() {
        assertThat(added("medjava_dicom_associations_total", "outcome", "accepted")).isGreaterThanOrEqualTo(1);
        assertThat(added("medjava_dicom_stores_total", "service", "c-store", "outcome", "success"))
                .isGreaterThanOrEqualTo(1);
        assertThat(added("medjava_dicom_stores_total", "service", "stow-rs", "outcome", "success"))
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void ingestCountsObjectsAndBytesByDoor() {
        assertThat(added("medjava_ingest_objects_total", "door", "put")).isGreaterThanOrEqualTo(1);
        assertThat(added("medjava_ingest_bytes_total", "door", "put")).isGreaterThanOrEqualTo(png.length);
        assertThat(added("medjava_ingest_objects_total", "door", "receive")).isGreaterThanOrEqualTo(2);
        assertThat(added("medjava_ingest_bytes_total", "door", "receive")).isGreaterThanOrEqualTo(
                Samples.bytes(stowed.instances().get(0).file()).length);
    }

    @Test
    void gaugesReadTheIndexTheDiskThePluginsAndTheJobs() {
        assertThat(after.value("medjava_index_instances")).isGreaterThanOrEqualTo(2);
        assertThat(after.value("medjava_index_studies")).isGreaterThanOrEqualTo(2);
        assertThat(after.value("medjava_index_series")).isGreaterThanOrEqualTo(2);
        assertThat(after.value("medjava_stored_bytes")).isPositive();
        assertThat(after.value("medjava_storage_free_bytes")).isPositive();
        assertThat(after.value("medjava_storage_min_free_bytes")).isEqualTo(1L << 30);
        assertThat(after.value("medjava_storage_writable")).isEqualTo(1);
        assertThat(after.value("medjava_plugins", "state", "active")).isEqualTo(8);
        assertThat(after.value("medjava_plugins", "state", "failed")).isZero();
        assertThat(after.value("medjava_filters", "state", "active")).isGreaterThanOrEqualTo(8);
        assertThat(after.samples("medjava_jobs")).extracting(s -> s.labels().get("state"))
                .contains("queued", "running", "done", "failed");
    }

    @Test
    void theJvmBaseMetricsAreServed() {
        for (String base : List.of("memory_usedHeap_bytes", "memory_maxHeap_bytes", "thread_count",
                "jvm_uptime_seconds", "gc_total", "cpu_availableProcessors")) {
            assertThat(after.has(base)).as(base).isTrue();
        }
        assertThat(after.samples("memory_usedHeap_bytes").get(0).labels()).containsEntry("mp_scope", "base");
        assertThat(after.value("memory_usedHeap_bytes")).isPositive();
    }

    @Test
    void livenessIsUpWithoutTouchingTheDisk() throws Exception {
        HttpResponse<String> live = admin.sendText(admin.request("/health/live"));

        assertThat(live.statusCode()).isEqualTo(200);
        JsonObject check = check(live.body(), "image-store-live");
        assertThat(check.getString("status")).isEqualTo("UP");
    }

    /**
     * {@code /health/live} is answered by the store's {@code LivenessFilter}, not Payara's health servlet: the same
     * MicroProfile Health format as Payara writes it (compact unless {@code ?pretty}, data values as strings), for
     * a probe without credentials, on GET, HEAD and POST; Payara's {@code /health} still carries the same check.
     */
    @Test
    void livenessAnswersInMicroProfileHealthsFormatAsPayaraDid() throws Exception {
        StoreClient anonymous = new StoreClient(PacsStore.store(), null);
        HttpResponse<String> live = anonymous.sendText(anonymous.request("/health/live"));

        assertThat(live.statusCode()).isEqualTo(200);
        assertThat(live.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(live.body()).matches("\\{\"status\":\"UP\",\"checks\":\\[\\{\"name\":\"image-store-live\","
                + "\"status\":\"UP\",\"data\":\\{\"uptimeSeconds\":\"\\d+\"}}]}");
        assertThat(live.headers().firstValue("Content-Length")).hasValue(Integer.toString(live.body().length()));

        HttpResponse<String> pretty = anonymous.sendText(anonymous.request("/health/live?pretty=true"));
        assertThat(pretty.body()).startsWith("{\n    \"status\": \"UP\",\n    \"checks\": [\n");
        assertThat(check(pretty.body(), "image-store-live").getString("status")).isEqualTo("UP");
        assertThat(anonymous.sendText(anonymous.request("/health/live?pretty=false")).body()).doesNotContain("\n");

        HttpResponse<String> head = anonymous.sendText(anonymous.request("/health/live")
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.body()).isEmpty();
        HttpResponse<String> post = anonymous.sendText(anonymous.request("/health/live")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(check(post.body(), "image-store-live").getString("status")).isEqualTo("UP");

        HttpResponse<String> all = anonymous.sendText(anonymous.request("/health"));
        assertThat(all.statusCode()).as(all.body()).isEqualTo(200);
        assertThat(check(all.body(), "image-store-live").getJsonObject("data").containsKey("uptimeSeconds")).isTrue();
        assertThat(check(all.body(), "database").getString("status")).isEqualTo("UP");
    }

    @Test
    void readinessReportsTheDatabaseTheStorageAndTheFreeDisk() throws Exception {
        HttpResponse<String> ready = admin.sendText(admin.request("/health/ready"));

        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        JsonObject database = check(ready.body(), "database");
        assertThat(database.getString("status")).isEqualTo("UP");
        assertThat(Long.parseLong(data(database, "latencyMillis"))).isNotNegative();
        assertThat(data(database, "database")).startsWith("jdbc:h2:");
        JsonObject storage = check(ready.body(), "storage");
        assertThat(storage.getString("status")).isEqualTo("UP");
        assertThat(data(storage, "storage")).startsWith("files in ");
        JsonObject disk = check(ready.body(), "disk-space");
        assertThat(disk.getString("status")).isEqualTo("UP");
        assertThat(data(disk, "writesAccepted")).isEqualTo("true");
        assertThat(Long.parseLong(data(disk, "freeBytes"))).isPositive();
        assertThat(data(disk, "minFreeBytes")).isEqualTo(Long.toString(1L << 30));
        assertThat(check(ready.body(), "image-store").getString("status")).isEqualTo("UP");
    }

    static JsonObject check(String health, String name) {
        JsonObject body = Json.createReader(new StringReader(health)).readObject();
        return body.getJsonArray("checks").getValuesAs(JsonObject.class).stream()
                .filter(c -> c.getString("name").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in " + health));
    }

    /** A check's datum as text (Payara writes numbers and booleans as strings or as JSON values). */
    static String data(JsonObject check, String key) {
        var value = check.getJsonObject("data").get(key);
        assertThat(value).as(key + " in " + check).isNotNull();
        return value instanceof javax.json.JsonString s ? s.getString() : value.toString();
    }
}
