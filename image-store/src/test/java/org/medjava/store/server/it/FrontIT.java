package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.RawHttp;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The store's front (front.FrontServer) on a real Payara Micro: answers to pipelined requests keep their order when
 * some are answered by the front and some relayed to Payara; HTTP/2 with prior knowledge, and over TLS by ALPN, for
 * reads and relayed writes; a client cannot speak for the front (its headers naming the client are dropped); and
 * relayed requests beyond the limit are answered 503 with Retry-After at once.
 */
@ExtendWith(SharedStore.class)
class FrontIT {

    static final byte[] DICOM = Samples.bytes(Samples.dicom("CT_small.dcm"));

    @Test
    void pipelinedAnswersKeepTheRequestsOrder() throws Exception {
        StoreClient admin = StoreClient.admin(SharedStore.store());
        byte[] small = Samples.bytes(Samples.dicom("MR_small.dcm"));
        assertThat(admin.put("/images/it/front/a.dcm", DICOM).statusCode()).isIn(201, 204);
        assertThat(admin.put("/images/it/front/b.dcm", small).statusCode()).isIn(201, 204);
        admin.get("/images/it/front/a.dcm"); // the password checked once: the front answers the next reads itself

        // a query sends a read to Payara; the others the front answers: the lengths say which answer is which
        List<RawHttp.Response> answers = RawHttp.to(SharedStore.store()).pipelinedHeads(List.of(
                "/images/it/front/a.dcm", "/images/it/front/b.dcm?via=payara", "/images/it/front/a.dcm",
                "/images/it/front/b.dcm", "/images/it/front/a.dcm?via=payara"), "Authorization: " + PayaraStore.admin()
                + "\r\n");
        assertThat(answers).extracting(RawHttp.Response::status).containsExactly(200, 200, 200, 200, 200);
        assertThat(answers).extracting(r -> r.header("Content-Length")).containsExactly(
                "" + DICOM.length, "" + small.length, "" + DICOM.length, "" + small.length, "" + DICOM.length);
    }

    @Test
    void aReplacedFileIsReadAfreshNotFromTheFrontsCache() throws Exception {
        StoreClient admin = StoreClient.admin(SharedStore.store());
        byte[] mr = Samples.bytes(Samples.dicom("MR_small.dcm"));
        String name = "/images/it/front/replaced.dcm";
        assertThat(admin.put(name, DICOM).statusCode()).isIn(201, 204);
        for (int i = 0; i < 3; i++) { // the password checked once, then read by the front and kept
            assertThat(admin.get(name).body()).isEqualTo(DICOM);
        }
        assertThat(admin.put(name, mr).statusCode()).isEqualTo(204);
        assertThat(admin.get(name).body()).isEqualTo(mr);
        // behind the store's back (same size, new bytes): the store keeps a file's stat for 2 s at most (its own
        // writes say what they change at once), then the new time says so
        Path stored = SharedStore.store().dataDir().resolve("images/it/front/replaced.dcm");
        byte[] changed = mr.clone();
        changed[changed.length - 1] ^= 1;
        Thread.sleep(5); // a later modification time than the store's own write
        Files.write(stored, changed);
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(3).toNanos();
        byte[] seen;
        while (!java.util.Arrays.equals(seen = admin.get(name).body(), changed) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(seen).isEqualTo(changed);
    }

    @Test
    void http2WithPriorKnowledgeAndOverTls() throws Exception {
        StoreClient admin = StoreClient.admin(SharedStore.store());
        assertThat(admin.put("/images/it/front/h2.dcm", DICOM).statusCode()).isIn(201, 204);
        admin.get("/images/it/front/h2.dcm");
        // curl speaks h2c with prior knowledge (the JDK's client only upgrades): a direct read and a relayed one
        for (String target : List.of("/images/it/front/h2.dcm", "/images/it/front/h2.dcm?via=payara")) {
            assertThat(curl("--http2-prior-knowledge", SharedStore.store().uri(target).toString()))
                    .isEqualTo("2 200 " + DICOM.length);
        }
    }

    @Test
    void largeUploadsOverHttp2AndAnH2cUpgradeWithABody() throws Exception {
        // 4 MB: many times HTTP/2's initial 64 KiB windows, so the upload lives on the front's window updates
        byte[] png = GeneratedPng.bytes(2000, 2000, 7);
        Path file = Files.write(SharedStore.store().dataDir().resolveSibling("front-upload.png"), png);
        String url = SharedStore.store().uri("/images/it/front/upload-h2.png").toString();
        assertThat(curl("--http2-prior-knowledge", "-X", "PUT", "-H", "Content-Type: image/png", "--data-binary",
                "@" + file, url)).isEqualTo("2 201 0");
        // an upgrade asked for with a body is answered over HTTP/1.1 (the upgrade would hold the body in memory)
        String upgraded = SharedStore.store().uri("/images/it/front/upload-h2c.png").toString();
        assertThat(curl("--http2", "-X", "PUT", "-H", "Content-Type: image/png", "--data-binary", "@" + file,
                upgraded)).isEqualTo("1.1 201 0");
        StoreClient admin = StoreClient.admin(SharedStore.store());
        assertThat(admin.get("/images/it/front/upload-h2.png").body()).isEqualTo(png);
        assertThat(admin.get("/images/it/front/upload-h2c.png").body()).isEqualTo(png);
    }

    @Test
    void http2OverTlsByAlpnForReadsAndRelayedWrites() throws Exception {
        try (PayaraStore store = PayaraStore.named("front-tls").tls().start()) {
            String url = "https://127.0.0.1:" + store.httpsPort() + "/images/it/tls/ct.dcm";
            Path file = Files.write(store.dataDir().resolveSibling(store.name() + "-ct.dcm"), DICOM);
            // curl -k: Payara Micro's self-signed certificate; ALPN picks h2
            assertThat(curl("--http2", "-k", "-X", "PUT", "-H", "Content-Type: application/dicom", "--data-binary",
                    "@" + file, url)).isEqualTo("2 201 0");
            for (int i = 0; i < 2; i++) { // the first read checks the password (Payara), the second is the front's
                assertThat(curl("--http2", "-k", url)).isEqualTo("2 200 " + DICOM.length);
            }
            String headers = curl("--http2", "-k", "-I", url);
            assertThat(headers.toLowerCase(java.util.Locale.ROOT)).contains("strict-transport-security");
        }
    }

    /** curl as admin: its HTTP version, status and body size (with -I, the headers and those). */
    private static String curl(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("curl", "-s", "-u",
                "admin:" + PayaraStore.ADMIN_PASSWORD, "-w", "%{http_version} %{http_code} %{size_download}"));
        command.addAll(List.of(args));
        if (!command.contains("-I")) {
            command.addAll(2, List.of("-o", "/dev/null"));
        }
        Process curl = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void aClientCannotSpeakForTheFront() throws Exception {
        String path = "/images/it/front/spoof.dcm";
        RawHttp.Response put = RawHttp.to(SharedStore.store()).send("PUT", path, "Authorization: "
                + PayaraStore.admin() + "\r\nContent-Type: application/dicom\r\nX-MedJava-Front: guessed\r\n"
                + "X-MedJava-Peer: 203.0.113.9\r\nX-MedJava-Secure: 1\r\n", DICOM);
        assertThat(put.status()).isEqualTo(201);
        assertThat(put.header("Strict-Transport-Security")).as("not taken for TLS").isNull();
        Path log = SharedStore.store().dataDir().resolve("logs/access.log");
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> lines;
        do {
            Thread.sleep(50);
            lines = Files.readAllLines(log, StandardCharsets.UTF_8).stream().filter(l -> l.contains(" PUT " + path))
                    .toList();
        } while (lines.isEmpty() && System.nanoTime() < deadline);
        assertThat(lines).singleElement().asString().contains(" 127.0.0.1 admin PUT ").doesNotContain("203.0.113.9");
    }

    @Test
    void relayedRequestsBeyondTheLimitAre503WithRetryAfter() throws Exception {
        try (PayaraStore store = PayaraStore.named("front-limit").property("medjava.http.max-relayed", "1")
                .property("medjava.http.max-waiting", "1").start();
             Socket slow = new Socket("127.0.0.1", store.port())) {
            StoreClient admin = StoreClient.admin(store);
            // an upload that sends its head and a little of its body holds the one connection to Payara
            OutputStream out = slow.getOutputStream();
            out.write(("PUT /images/it/limit/slow.dcm HTTP/1.1\r\nHost: 127.0.0.1:" + store.port()
                    + "\r\nAuthorization: " + PayaraStore.admin() + "\r\nContent-Type: application/dicom\r\n"
                    + "Content-Length: " + DICOM.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(DICOM, 0, 100);
            out.flush();
            Thread.sleep(1000);
            // an upload waits for that connection: the front stops reading it meanwhile, and takes it up after
            byte[] png = GeneratedPng.bytes(2000, 2000, 11);
            CompletableFuture<HttpResponse<String>> waiting = admin.sendAsyncText(admin.request(
                    "/images/it/limit/waiting.png").header("Content-Type", "image/png")
                    .PUT(java.net.http.HttpRequest.BodyPublishers.ofByteArray(png)));
            Thread.sleep(500);
            HttpResponse<String> refused = admin.sendText(admin.request("/index/patients"));
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(waiting).isNotDone();

            out.write(DICOM, 100, DICOM.length - 100); // the upload ends: the waiting request gets its turn
            out.flush();
            RawHttp.Response stored = RawHttp.read(slow.getInputStream());
            assertThat(stored.status()).isEqualTo(201);
            assertThat(waiting.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
            assertThat(admin.get("/images/it/limit/slow.dcm").body()).isEqualTo(DICOM);
            assertThat(admin.get("/images/it/limit/waiting.png").body()).isEqualTo(png);
        }
    }
}
