package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * A store whose disk is "nearly full": started with a free-space floor (medjava.storage.min-free-bytes) far above
 * what any disk has free. Every write is refused before it starts — 507 with how much is free and the floor over
 * HTTP (PUT, STOW-RS, a plugin upload), A700 Out of Resources over DIMSE — while reads go on, and readiness stays UP
 * saying that writes are refused and why. The data directory holds a file put there before the start, to read.
 */
@Timeout(300)
class DiskFullIT {

    /** 1 PiB: more than any test machine has free. */
    private static final long FLOOR = 1L << 50;
    private static PayaraStore store;
    private static StoreClient admin;
    private static int dicomPort;
    private static byte[] kept;

    @BeforeAll
    @Timeout(300)
    static void startOnAFullDisk() throws Exception {
        Path data = Files.createTempDirectory(Path.of(System.getProperty("store.war")).getParent(), "it-data-full-");
        kept = GeneratedPng.bytes(40, 30, 3);
        Files.write(Files.createDirectories(data.resolve("images/kept")).resolve("before.png"), kept);
        dicomPort = Ports.free();
        store = PayaraStore.named("disk-full").dataDir(data)
                .property("medjava.storage.min-free-bytes", Long.toString(FLOOR))
                .property("medjava.dicom.port", Integer.toString(dicomPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.aet", PacsStore.AE)
                .property("medjava.dicom.allowed-aets", "STORESCU")
                .start();
        admin = StoreClient.admin(store);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    private static void assertInsufficientStorage(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(507);
        assertThat(r.body()).contains("Insufficient Storage", "disk nearly full:", "free, floor 1024.0 TiB",
                "free on the disk of", "below the floor of " + FLOOR + " bytes", "medjava.storage.min-free-bytes",
                "reads go on");
    }

    @Test
    void aPutIsRefusedWith507SayingWhatIsFreeAndTheFloorAndNothingIsStored() throws Exception {
        assertInsufficientStorage(admin.put("/images/refused/new.png", GeneratedPng.bytes(8, 8, 1)));
        assertInsufficientStorage(admin.put("/images/kept/before.png", GeneratedPng.bytes(8, 8, 2)));

        assertThat(admin.get("/images/refused/new.png").statusCode()).isEqualTo(404);
        assertThat(admin.get("/images/kept/before.png").body()).isEqualTo(kept);
    }

    @Test
    void readsGoOn() throws Exception {
        HttpResponse<byte[]> file = admin.get("/images/kept/before.png");
        assertThat(file.statusCode()).isEqualTo(200);
        assertThat(file.body()).isEqualTo(kept);
        assertThat(admin.get("/images/kept/before.png?render=jpeg").statusCode()).isEqualTo(200);
        assertThat(admin.getJson("/images/kept/").statusCode()).isEqualTo(200);
    }

    @Test
    void stowRsIsRefusedWith507() throws Exception {
        String boundary = "full-disk";
        byte[] body = Multipart.dicom(boundary, List.of(Samples.bytes(Samples.dicom("CT_small.dcm"))));
        HttpResponse<String> r = admin.sendText(admin.request("/dicomweb/studies")
                .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));

        assertInsufficientStorage(r);
    }

    @Test
    void aPluginUploadIsRefusedWith507() throws Exception {
        HttpResponse<String> r = admin.sendText(admin.request("/filters/full-disk.jar")
                .header("Content-Type", "application/java-archive")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[] {'P', 'K', 3, 4})));

        assertInsufficientStorage(r);
    }

    @Test
    void cStoreIsRefusedWithOutOfResourcesAndTheReason(@org.junit.jupiter.api.io.TempDir Path work)
            throws Exception {
        TestStudy study = TestStudy.create(work, "FULL-DISK", "CT_small.dcm");

        Command.Result r = Dcmtk.store(dicomPort, List.of(), study.instances().get(0).file());

        assertThat(r.output()).contains("Received Store Response").doesNotContain("(Success)");
        assertThat(r.output().toLowerCase(java.util.Locale.ROOT)).containsAnyOf("outofresources", "out of resources",
                "a700");
        assertThat(store.log()).contains("refused: disk nearly full"); // and the same as the Error Comment
        assertThat(admin.getJson("/index/studies?StudyInstanceUID=" + study.studyUid()).body())
                .doesNotContain(study.studyUid());
    }

    @Test
    void readinessStaysUpAndSaysWritesAreRefusedAndWhy() throws Exception {
        HttpResponse<String> ready = admin.sendText(admin.request("/health/ready"));

        assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
        JsonObject disk = MetricsIT.check(ready.body(), "disk-space");
        assertThat(disk.getString("status")).isEqualTo("UP");
        assertThat(MetricsIT.data(disk, "writesAccepted")).isEqualTo("false");
        assertThat(MetricsIT.data(disk, "minFreeBytes")).isEqualTo(Long.toString(FLOOR));
        assertThat(Long.parseLong(MetricsIT.data(disk, "freeBytes"))).isPositive().isLessThan(FLOOR);
        assertThat(MetricsIT.data(disk, "status")).contains("writes are refused, reads go on");
    }

    @Test
    void metricsShowTheDiskBelowTheFloorAndTheRefusals() throws Exception {
        admin.put("/images/refused/counted.png", GeneratedPng.bytes(8, 8, 5));

        Scrape scrape = Scrape.of(admin);

        assertThat(scrape.value("medjava_storage_writable")).isZero();
        assertThat(scrape.value("medjava_storage_min_free_bytes")).isEqualTo((double) FLOOR);
        assertThat(scrape.value("medjava_ingest_refused_total", "door", "put", "reason", "insufficient_storage"))
                .isGreaterThanOrEqualTo(1);
        assertThat(scrape.value("medjava_http_requests_count", "method", "PUT", "endpoint",
                "/images/{path}", "status", "5xx")).isGreaterThanOrEqualTo(1);
    }
}
