package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/** The /images HTTP contract on a real Payara Micro: reads, conditional requests, ranges, writes, bad input. */
@ExtendWith(SharedStore.class)
class ImagesIT {

    static StoreClient admin;
    static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));
    static final byte[] OTHER_GIF = Samples.bytes(Samples.gif("color.gif"));
    static final byte[] DICOM = Samples.bytes(Samples.dicom("CT_small.dcm"));

    @BeforeAll
    static void connect() {
        admin = StoreClient.admin(SharedStore.store());
    }

    @Test
    void uploadsAndDownloadsByteForByteWithValidators() throws Exception {
        HttpResponse<String> created = admin.put("/images/it/rw/ct.gif", GIF);
        assertThat(created.statusCode()).isEqualTo(201);
        String etag = created.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).matches("\"[0-9a-f-]+\"");

        HttpResponse<byte[]> got = admin.get("/images/it/rw/ct.gif");
        assertThat(got.statusCode()).isEqualTo(200);
        assertThat(got.body()).isEqualTo(GIF);
        assertThat(got.headers().firstValue("Content-Type")).hasValue("image/gif");
        assertThat(got.headers().firstValue("ETag")).hasValue(etag);
        assertThat(got.headers().firstValue("Last-Modified")).isPresent();
        assertThat(got.headers().firstValue("Accept-Ranges")).hasValue("bytes");

        HttpResponse<byte[]> head = admin.send(admin.request("/images/it/rw/ct.gif")
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(GIF.length);
        assertThat(head.headers().firstValue("ETag")).hasValue(etag);
        assertThat(head.body()).isEmpty();

        assertThat(admin.send(admin.request("/images/it/rw/ct.gif").header("If-None-Match", etag)).statusCode())
                .isEqualTo(304);

        HttpResponse<String> replaced = admin.put("/images/it/rw/ct.gif", OTHER_GIF);
        assertThat(replaced.statusCode()).isEqualTo(204);
        assertThat(replaced.headers().firstValue("ETag")).isPresent().get().isNotEqualTo(etag);
        assertThat(admin.get("/images/it/rw/ct.gif").body()).isEqualTo(OTHER_GIF);
    }

    @Test
    void servesByteRanges() throws Exception {
        admin.put("/images/it/range/ct.dcm", DICOM);
        HttpResponse<byte[]> first = admin.send(admin.request("/images/it/range/ct.dcm").header("Range", "bytes=0-131"));
        assertThat(first.statusCode()).isEqualTo(206);
        assertThat(first.headers().firstValue("Content-Range")).hasValue("bytes 0-131/" + DICOM.length);
        assertThat(first.body()).isEqualTo(java.util.Arrays.copyOfRange(DICOM, 0, 132));
        assertThat(new String(first.body(), 128, 4)).isEqualTo("DICM");

        HttpResponse<byte[]> suffix = admin.send(admin.request("/images/it/range/ct.dcm").header("Range", "bytes=-100"));
        assertThat(suffix.statusCode()).isEqualTo(206);
        assertThat(suffix.body()).isEqualTo(java.util.Arrays.copyOfRange(DICOM, DICOM.length - 100, DICOM.length));

        HttpResponse<byte[]> beyond = admin.send(admin.request("/images/it/range/ct.dcm")
                .header("Range", "bytes=" + DICOM.length + "-"));
        assertThat(beyond.statusCode()).isEqualTo(416);
        assertThat(beyond.headers().firstValue("Content-Range")).hasValue("bytes */" + DICOM.length);

        HttpResponse<byte[]> staleIfRange = admin.send(admin.request("/images/it/range/ct.dcm")
                .header("Range", "bytes=0-9").header("If-Range", "\"not-the-current-etag\""));
        assertThat(staleIfRange.statusCode()).isEqualTo(200);
        assertThat(staleIfRange.body()).isEqualTo(DICOM);
    }

    @Test
    void conditionalWritesAreHonoured() throws Exception {
        String etag = admin.put("/images/it/cond/a.gif", GIF).headers().firstValue("ETag").orElseThrow();

        HttpResponse<String> createOnly = admin.sendText(admin.request("/images/it/cond/a.gif")
                .header("If-None-Match", "*").PUT(HttpRequest.BodyPublishers.ofByteArray(OTHER_GIF)));
        assertThat(createOnly.statusCode()).isEqualTo(412);

        HttpResponse<String> staleMatch = admin.sendText(admin.request("/images/it/cond/a.gif")
                .header("If-Match", "\"0-0-0\"").PUT(HttpRequest.BodyPublishers.ofByteArray(OTHER_GIF)));
        assertThat(staleMatch.statusCode()).isEqualTo(412);
        assertThat(staleMatch.body()).contains("has changed");
        assertThat(admin.get("/images/it/cond/a.gif").body()).isEqualTo(GIF);

        HttpResponse<String> matching = admin.sendText(admin.request("/images/it/cond/a.gif")
                .header("If-Match", etag).PUT(HttpRequest.BodyPublishers.ofByteArray(OTHER_GIF)));
        assertThat(matching.statusCode()).isEqualTo(204);

        HttpResponse<String> newOnly = admin.sendText(admin.request("/images/it/cond/b.gif")
                .header("If-None-Match", "*").PUT(HttpRequest.BodyPublishers.ofByteArray(GIF)));
        assertThat(newOnly.statusCode()).isEqualTo(201);

        HttpResponse<String> staleDelete = admin.sendText(admin.request("/images/it/cond/b.gif")
                .header("If-Match", "\"0-0-0\"").DELETE());
        assertThat(staleDelete.statusCode()).isEqualTo(412);
    }

    @Test
    void refusesBodiesThatAreNotImagesAndKeepsWhatWasStored() throws Exception {
        admin.put("/images/it/bad/keep.dcm", DICOM);

        HttpResponse<String> text = admin.put("/images/it/bad/keep.dcm", "hello, not an image".getBytes());
        assertThat(text.statusCode()).isEqualTo(415);
        assertThat(text.body()).contains("not a recognised image").contains("DICOM");

        HttpResponse<String> truncated = admin.put("/images/it/bad/keep.dcm",
                Samples.bytes(Samples.dicom("MR_truncated.dcm")));
        assertThat(truncated.statusCode()).isEqualTo(422);
        assertThat(truncated.body()).containsIgnoringCase("truncated");

        HttpResponse<String> noMeta = admin.put("/images/it/bad/no_meta.dcm", Samples.bytes(Samples.dicom("no_meta.dcm")));
        assertThat(noMeta.statusCode()).isEqualTo(415);
        assertThat(admin.get("/images/it/bad/no_meta.dcm").statusCode()).isEqualTo(404);

        HttpResponse<String> wrongType = admin.sendText(admin.request("/images/it/bad/x.png")
                .header("Content-Type", "image/png").PUT(HttpRequest.BodyPublishers.ofByteArray(GIF)));
        assertThat(wrongType.statusCode()).isEqualTo(415);
        assertThat(wrongType.body()).contains("GIF");

        byte[] brokenGif = java.util.Arrays.copyOf(GIF, 40);
        HttpResponse<String> broken = admin.put("/images/it/bad/keep.dcm", brokenGif);
        assertThat(broken.statusCode()).isIn(415, 422);

        assertThat(admin.get("/images/it/bad/keep.dcm").body()).isEqualTo(DICOM);
        assertNoStagingLeftovers();
    }

    @Test
    void refusesBodiesOverTheLimitBeforeStoringThem() throws Exception {
        int limit = 32 << 20;
        // Declared too large: refused on the headers alone, before a byte of the body is sent.
        assertThat(admin.rawStatus("PUT", "/images/it/big/too-big.gif", "Content-Length: " + (limit + 1)
                + "\r\nContent-Type: image/gif\r\n")).isEqualTo(413);
        assertThat(admin.get("/images/it/big/too-big.gif").statusCode()).isEqualTo(404);
        byte[] big = new byte[limit + 1];
        System.arraycopy(GIF, 0, big, 0, GIF.length);

        // Chunked: no Content-Length, so the store must stop counting at the limit.
        // The store may answer and close while the client is still sending: either way nothing is stored.
        try {
            HttpResponse<String> chunked = admin.sendText(admin.request("/images/it/big/chunked.gif")
                    .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big))));
            assertThat(chunked.statusCode()).isEqualTo(413);
        } catch (java.io.IOException e) {
            assertThat(e).hasMessageNotContaining("timed out");
        }
        assertThat(admin.get("/images/it/big/chunked.gif").statusCode()).isEqualTo(404);
        assertNoStagingLeftovers();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/images/../../etc/passwd", "/images/a/../../x.gif", "/images/%2e%2e/%2e%2e/etc/passwd",
            "/images/a/%2E%2E/%2E%2E/x.gif", "/images//etc/passwd", "/images/a%00b.gif", "/images/a%0Ab.gif",
            "/images/a%5C..%5Cx.gif", "/images/.staging/x.gif", "/images/a//b.gif"})
    void refusesPathTricks(String target) throws Exception {
        assertThat(admin.rawStatus("GET", target)).as("GET " + target).isEqualTo(400);
        assertThat(admin.rawStatus("PUT", target)).as("PUT " + target).isEqualTo(400);
    }

    @Test
    void concurrentWritesToOnePathLeaveOneCompleteWinner() throws Exception {
        List<byte[]> bodies = List.of(GIF, OTHER_GIF, Samples.bytes(Samples.gif("radiograph-small.gif")), DICOM);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<HttpResponse<String>>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                byte[] body = bodies.get(i % bodies.size());
                results.add(pool.submit(() -> admin.put("/images/it/race/same", body)));
            }
            for (Future<HttpResponse<String>> r : results) {
                assertThat(r.get().statusCode()).isIn(201, 204);
            }
        } finally {
            pool.shutdown();
        }
        byte[] stored = admin.get("/images/it/race/same").body();
        assertThat(bodies).anySatisfy(b -> assertThat(stored).isEqualTo(b));
        assertNoStagingLeftovers();
    }

    @Test
    void deletesFilesAndOnlyEmptyDirectories() throws Exception {
        admin.put("/images/it/del/a.gif", GIF);
        assertThat(admin.delete("/images/it/del/").statusCode()).isEqualTo(409);
        assertThat(admin.delete("/images/it/del/a.gif").statusCode()).isEqualTo(204);
        assertThat(admin.get("/images/it/del/a.gif").statusCode()).isEqualTo(404);
        assertThat(admin.delete("/images/it/del/a.gif").statusCode()).isEqualTo(404);
        assertThat(admin.delete("/images/it/del/").statusCode()).isEqualTo(204);
    }

    @Test
    void aFileCannotBeUsedAsADirectory() throws Exception {
        admin.put("/images/it/file-dir/a.gif", GIF);
        HttpResponse<String> under = admin.put("/images/it/file-dir/a.gif/b.gif", GIF);
        assertThat(under.statusCode()).isEqualTo(409);
        assertThat(admin.get("/images/it/file-dir/a.gif/").statusCode()).isEqualTo(404);
    }

    @Test
    void listsDirectoriesAsJsonAndHtml() throws Exception {
        admin.put("/images/it/list/sub/one.gif", GIF);
        admin.put("/images/it/list/ct.dcm", DICOM);

        HttpResponse<String> json = admin.getJson("/images/it/list/");
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(json.body()).contains("\"name\":\"sub\"", "\"kind\":\"directory\"", "\"name\":\"ct.dcm\"",
                "\"contentType\":\"application/dicom\"", "\"size\":" + DICOM.length, "1.3.6.1.4.1.5962");

        HttpResponse<String> html = admin.sendText(admin.request("/images/it/list/").header("Accept", "text/html"));
        assertThat(html.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        assertThat(html.body()).contains("<a href=\"sub/\">sub/</a>", "<a href=\"ct.dcm\">ct.dcm</a>",
                "ct.dcm?render=png");

        HttpResponse<byte[]> noSlash = admin.get("/images/it/list");
        assertThat(noSlash.statusCode()).isEqualTo(301);
        assertThat(noSlash.headers().firstValue("Location").orElse("")).endsWith("/images/it/list/");
    }

    @Test
    void unknownPathsAre404() throws Exception {
        assertThat(admin.get("/images/it/nothing/here.gif").statusCode()).isEqualTo(404);
        assertThat(admin.getJson("/images/it/nothing/").statusCode()).isEqualTo(404);
    }

    private static void assertNoStagingLeftovers() throws Exception {
        Path staging = SharedStore.store().dataDir().resolve("images/.staging");
        try (Stream<Path> files = Files.list(staging)) {
            assertThat(files).isEmpty();
        }
    }
}
