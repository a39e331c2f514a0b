package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The direct read path (web.DirectReads, in front of Payara's servlet container) on a real Payara Micro: it answers
 * plain reads exactly as the container's path does (same status, headers, bytes), counts them in
 * {@code medjava_http_direct_reads}, logs them, and leaves every other request to the container untouched.
 */
@ExtendWith(SharedStore.class)
class DirectReadsIT {

    static final String FILE = "/images/it/direct/ct.dcm";
    static final byte[] DICOM = Samples.bytes(Samples.dicom("CT_small.dcm"));
    static final List<String> HEADERS = List.of("Content-Type", "Content-Length", "ETag", "Last-Modified",
            "Accept-Ranges", "Content-Range", "Server", "X-Frame-Options", "X-Powered-By", "X-Content-Type-Options");
    static StoreClient admin;
    static String etag;

    @BeforeAll
    static void store() throws Exception {
        admin = StoreClient.admin(SharedStore.store());
        HttpResponse<String> put = admin.put(FILE, DICOM);
        assertThat(put.statusCode()).isIn(201, 204);
        etag = put.headers().firstValue("ETag").orElseThrow();
        assertThat(admin.get(FILE).statusCode()).isEqualTo(200); // the password is checked once (and remembered)
    }

    static double directReads() throws Exception {
        return Scrape.of(admin).value("medjava_http_direct_reads_total");
    }

    /** The request answered directly and through the container (a query sends it there): the same answer. */
    static HttpResponse<byte[]> sameAnswerBothWays(String method, UnaryOperator<HttpRequest.Builder> headers)
            throws Exception {
        return sameAnswerBothWays(FILE, method, headers);
    }

    static HttpResponse<byte[]> sameAnswerBothWays(String file, String method,
                                                   UnaryOperator<HttpRequest.Builder> headers) throws Exception {
        double before = directReads();
        HttpResponse<byte[]> direct = admin.send(headers.apply(admin.request(file)
                .method(method, HttpRequest.BodyPublishers.noBody())));
        // counted once its bytes are handed to the socket: a large file may be in the client's hands a moment earlier
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (directReads() < before + 1 && System.nanoTime() < deadline && sleep()) {
            // wait for the count
        }
        assertThat(directReads()).as("answered on the direct path").isEqualTo(before + 1);
        HttpResponse<byte[]> container = admin.send(headers.apply(admin.request(file + "?via=container")
                .method(method, HttpRequest.BodyPublishers.noBody())));
        assertThat(directReads()).as("a query goes to the container").isEqualTo(before + 1);
        assertThat(direct.statusCode()).isEqualTo(container.statusCode());
        assertThat(direct.body()).isEqualTo(container.body());
        for (String name : HEADERS) {
            assertThat(direct.headers().allValues(name)).as(name).isEqualTo(container.headers().allValues(name));
        }
        return direct;
    }

    @ParameterizedTest
    @EnumSource(HttpClient.Version.class) // HTTP/2: the JDK client upgrades the connection (h2c)
    void answersGetHeadRangesAndConditionalsAsTheContainerDoes(HttpClient.Version version) throws Exception {
        HttpResponse<byte[]> whole = sameAnswerBothWays("GET", r -> r.version(version));
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.body()).isEqualTo(DICOM);
        assertThat(whole.headers().firstValue("ETag")).hasValue(etag);
        assertThat(whole.headers().firstValue("Content-Type")).hasValue("application/dicom");
        assertThat(whole.headers().firstValue("Server")).hasValue("MedJava");
        assertThat(whole.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff"); // never sniffed

        assertThat(sameAnswerBothWays("HEAD", r -> r.version(version)).body()).isEmpty();
        HttpResponse<byte[]> range = sameAnswerBothWays("GET", r -> r.version(version)
                .header("Range", "bytes=128-255"));
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.body()).isEqualTo(java.util.Arrays.copyOfRange(DICOM, 128, 256));
        assertThat(sameAnswerBothWays("GET", r -> r.version(version).header("Range", "bytes=" + DICOM.length + "-"))
                .statusCode()).isEqualTo(416);
        assertThat(sameAnswerBothWays("GET", r -> r.version(version).header("If-None-Match", etag)).statusCode())
                .isEqualTo(304);
        assertThat(sameAnswerBothWays("GET", r -> r.version(version).header("If-Match", "\"other\"")).statusCode())
                .isEqualTo(412);
        String lastModified = whole.headers().firstValue("Last-Modified").orElseThrow();
        assertThat(sameAnswerBothWays("GET", r -> r.version(version).header("If-Modified-Since", lastModified))
                .statusCode()).isEqualTo(304);
    }

    /**
     * A file beyond the size read into memory goes out with sendfile(2) on a corked connection over HTTP/1.1, in
     * chunks over HTTP/2: whole, in part, and the connection's next answer after it intact.
     */
    @ParameterizedTest
    @EnumSource(HttpClient.Version.class)
    void aLargeFileGoesOutWholeAndTheNextAnswerAfterIt(HttpClient.Version version) throws Exception {
        byte[] large = Samples.bytes(Samples.dicom("examples_overlay.dcm"));
        String name = "/images/it/direct/large.dcm";
        assertThat(admin.put(name, large).statusCode()).isIn(201, 204);
        admin.get(name);
        for (int i = 0; i < 2; i++) {
            HttpResponse<byte[]> whole = sameAnswerBothWays(name, "GET", r -> r.version(version));
            assertThat(whole.statusCode()).isEqualTo(200);
            assertThat(whole.body()).isEqualTo(large);
        }
        HttpResponse<byte[]> part = sameAnswerBothWays(name, "GET", r -> r.version(version)
                .header("Range", "bytes=100000-299999"));
        assertThat(part.statusCode()).isEqualTo(206);
        assertThat(part.body()).isEqualTo(java.util.Arrays.copyOfRange(large, 100_000, 300_000));
        assertThat(sameAnswerBothWays(FILE, "GET", r -> r.version(version)).body()).isEqualTo(DICOM);
    }

    @Test
    void leavesEverythingElseToTheContainer() throws Exception {
        double before = directReads();
        StoreClient wrong = new StoreClient(SharedStore.store(), PayaraStore.basic("admin", "not-the-password"));
        assertThat(wrong.get(FILE).statusCode()).isEqualTo(401);
        assertThat(new StoreClient(SharedStore.store(), null).get(FILE).statusCode()).isEqualTo(401);
        assertThat(admin.rawStatus("GET", FILE + ";jsessionid=1")).isEqualTo(400);
        HttpResponse<byte[]> listing = admin.get("/images/it/direct/");
        assertThat(listing.statusCode()).isEqualTo(200); // the directory listing, never sniffed into a page
        assertThat(listing.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        HttpResponse<String> missing = admin.getJson("/images/it/direct/none.dcm");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("\"status\":404");
        assertThat(admin.get(FILE + "?render=png").headers().firstValue("Content-Type")).hasValue("image/png");
        HttpResponse<byte[]> cors = admin.send(admin.request(FILE).header("Origin", "https://elsewhere.example"));
        assertThat(cors.statusCode()).isEqualTo(200);
        assertThat(cors.body()).isEqualTo(DICOM);

        HttpResponse<String> login = admin.postJson("/auth/login", "{\"username\":\"admin\",\"password\":\""
                + PayaraStore.ADMIN_PASSWORD + "\"}");
        assertThat(login.statusCode()).isEqualTo(200);
        String cookie = login.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        StoreClient session = new StoreClient(SharedStore.store(), null);
        HttpResponse<byte[]> bySession = session.send(session.request(FILE).header("Cookie", cookie));
        assertThat(bySession.statusCode()).isEqualTo(200);
        assertThat(bySession.body()).isEqualTo(DICOM);

        assertThat(directReads()).isEqualTo(before);
    }

    @Test
    void aDirectReadIsInTheAccessLogAndTheRequestMetrics() throws Exception {
        String name = "/images/it/direct/logged.dcm";
        assertThat(admin.put(name, DICOM).statusCode()).isEqualTo(201);
        admin.get(name); // remembered password: this one and the next are direct
        double before = directReads();
        Scrape scrape = Scrape.of(admin);
        double requests = scrape.value("medjava_http_requests_count", "method", "GET", "endpoint",
                "/images/{path}", "status", "2xx");
        assertThat(admin.get(name).statusCode()).isEqualTo(200);
        assertThat(directReads()).isEqualTo(before + 1);
        assertThat(Scrape.of(admin).value("medjava_http_requests_count", "method", "GET", "endpoint",
                "/images/{path}", "status", "2xx")).isGreaterThanOrEqualTo(requests + 1);

        // the access log is written a few milliseconds later, by its writer thread
        java.nio.file.Path log = SharedStore.store().dataDir().resolve("logs/access.log");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long lines;
        do {
            lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                    .filter(l -> l.matches("\\S+ 127\\.0\\.0\\.1 admin GET " + name + " 200 " + DICOM.length + " \\d+"))
                    .count();
        } while (lines < 2 && System.nanoTime() < deadline && sleep());
        assertThat(lines).isEqualTo(2);
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(50);
        return true;
    }
}
