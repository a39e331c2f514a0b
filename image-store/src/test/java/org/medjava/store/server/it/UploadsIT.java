package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import javax.json.Json;
import javax.json.JsonArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.core.testsupport.LargeDicom;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Resumable uploads (tus 1.0 at /uploads) on a real store: a ~50 MB DICOM object sent in 8 MiB chunks, one of them
 * cut off mid-chunk on a raw socket (and, while it hangs, a second PATCH locked out), resumed with HEAD + PATCH; the
 * stored object equals the source byte for byte and is indexed. A wrong SHA-256 stores nothing, a wrong chunk
 * checksum is 460, limits are checked at creation, and an interrupted upload expires and is cleaned (the store runs
 * with a 60 s expiry). A restart between chunks is covered by ResumableUploadsTest (state on disk), not here.
 */
@Timeout(300)
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class UploadsIT {

    private static final int CHUNK = 8 << 20;
    /** 60 s: long enough for the gaps between chunks on a busy machine, short enough to see an upload expire. */
    private static final String EXPIRY_HOURS = Double.toString(60 / 3600.0);
    private static String abandoned;
    private static byte[] abandonedPng;
    private static PayaraStore store;
    private static StoreClient admin;

    @BeforeAll
    @Timeout(300)
    static void start() throws Exception {
        store = PayaraStore.named("uploads")
                .property("medjava.upload.max-bytes", Long.toString(64L << 20))
                .property("medjava.upload.resumable-expiry-hours", EXPIRY_HOURS)
                .start();
        admin = StoreClient.admin(store);
        // Abandoned at once: by the time its test runs, the others have used most of its expiry.
        abandonedPng = GeneratedPng.bytes(40, 30, 8);
        abandoned = create("resumable/abandoned.png", abandonedPng.length, sha256Hex(abandonedPng));
        assertThat(patch(abandoned, 0, Arrays.copyOf(abandonedPng, 10), null).statusCode()).isEqualTo(204);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void aLargeObjectResumesAfterADroppedConnectionAndIsStoredByteForByteAndIndexed() throws Exception {
        String series = TestStudy.newUid();
        byte[] object = LargeDicom.secondaryCapture(series, 7000);
        assertThat(object.length).isGreaterThan(48_000_000);
        String upload = create("resumable/large.dcm", object.length, sha256Hex(object));

        assertThat(patch(upload, 0, Arrays.copyOfRange(object, 0, CHUNK), null).statusCode()).isEqualTo(204);

        // A chunk that hangs after 3 MiB: meanwhile a second PATCH is locked out; then the connection goes.
        int sent = 3 << 20;
        try (Socket socket = new Socket("127.0.0.1", store.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("PATCH /uploads/" + upload + " HTTP/1.1\r\nHost: 127.0.0.1:" + store.port()
                    + "\r\nAuthorization: " + PayaraStore.admin() + "\r\nTus-Resumable: 1.0.0\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nUpload-Offset: " + CHUNK
                    + "\r\nContent-Length: " + CHUNK + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(object, CHUNK, sent);
            out.flush();
            HttpResponse<String> locked = awaitLocked(upload, object);
            assertThat(locked.statusCode()).as(locked.body()).isEqualTo(423);
            assertThat(locked.body()).contains("another request is appending");
        }

        long resumedAt = resume(upload, object);
        assertThat(resumedAt).as("the partial chunk was kept").isGreaterThan(CHUNK).isLessThanOrEqualTo(CHUNK + sent);

        HttpResponse<byte[]> stored = admin.get("/images/resumable/large.dcm");
        assertThat(stored.statusCode()).isEqualTo(200);
        assertThat(sha256Hex(stored.body())).isEqualTo(sha256Hex(object));
        assertThat(stored.body()).isEqualTo(object);
        JsonArray found = Json.createReader(new java.io.StringReader(admin.getJson("/index/series/" + series
                + "/instances").body())).readArray();
        assertThat(found).hasSize(1);
        assertThat(found.getJsonObject(0).getString("path")).isEqualTo("resumable/large.dcm");
        assertThat(uploadFiles()).allMatch(f -> f.startsWith(abandoned)); // only the one left to expire
    }

    @Test
    void aWrongSha256StoresNothingAndAWrongChunkChecksumIs460() throws Exception {
        byte[] png = GeneratedPng.bytes(40, 30, 7);
        String wrong = sha256Hex("not the object".getBytes(StandardCharsets.UTF_8));
        String upload = create("resumable/wrong.png", png.length, wrong);

        String chunkSum = "sha1 " + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                .digest("something else".getBytes(StandardCharsets.UTF_8)));
        HttpResponse<String> badChunk = patch(upload, 0, png, chunkSum);
        assertThat(badChunk.statusCode()).as(badChunk.body()).isEqualTo(460);
        assertThat(head(upload).headers().firstValue("Upload-Offset")).hasValue("0");

        HttpResponse<String> refused = patch(upload, 0, png, "sha256 " + Base64.getEncoder().encodeToString(
                MessageDigest.getInstance("SHA-256").digest(png)));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(460);
        assertThat(refused.body()).contains("Checksum Mismatch", "nothing was stored");
        assertThat(refused.headers().firstValue("Tus-Resumable")).as("on refusals too").hasValue("1.0.0");
        assertThat(admin.get("/images/resumable/wrong.png").statusCode()).isEqualTo(404);
        assertThat(head(upload).statusCode()).isEqualTo(404);
    }

    @Test
    void creationChecksVersionLimitDigestAndPathAndDiscoveryNamesTheExtensions() throws Exception {
        HttpResponse<String> options = admin.sendText(admin.request("/uploads")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
        assertThat(options.statusCode()).isEqualTo(204);
        assertThat(options.headers().firstValue("Tus-Extension")).hasValue("creation,expiration,checksum,termination");
        assertThat(options.headers().firstValue("Tus-Checksum-Algorithm")).hasValue("sha1,sha256");
        assertThat(options.headers().firstValue("Tus-Max-Size")).hasValue(Long.toString(64L << 20));

        String sha = sha256Hex(new byte[1]);
        HttpResponse<String> noVersion = admin.sendText(admin.request("/uploads")
                .header("Upload-Length", "1").header("Upload-Metadata", metadata("a/b.png", sha))
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(noVersion.statusCode()).isEqualTo(412);
        assertThat(noVersion.headers().firstValue("Tus-Version")).hasValue("1.0.0");

        assertThat(post((65L << 20), metadata("a/big.dcm", sha)).statusCode()).isEqualTo(413);
        assertThat(post(10, "path " + b64("a/x.png")).body()).contains("SHA-256");
        assertThat(post(10, metadata("../x.png", sha)).statusCode()).isEqualTo(400);
        assertThat(post(10, metadata("a/", sha)).statusCode()).isEqualTo(400);
        HttpResponse<String> anonymous = new StoreClient(store, null).sendText(new StoreClient(store, null)
                .request("/uploads").header("Tus-Resumable", "1.0.0").header("Upload-Length", "1")
                .header("Upload-Metadata", metadata("a/b.png", sha)).POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(uploadFiles()).allMatch(f -> f.startsWith(abandoned)); // only the one left to expire
    }

    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE) // last: the others' time counts towards the expiry it waits for
    void anInterruptedUploadExpiresAndIsCleanedAndTerminationRemovesOne() throws Exception {
        byte[] png = abandonedPng;
        String terminated = create("resumable/terminated.png", png.length, sha256Hex(png));
        assertThat(patch(terminated, 0, Arrays.copyOf(png, 10), null).statusCode()).isEqualTo(204);
        HttpResponse<String> status = head(terminated);
        assertThat(status.headers().firstValue("Upload-Offset")).hasValue("10");
        assertThat(status.headers().firstValue("Upload-Length")).hasValue(Integer.toString(png.length));
        assertThat(status.headers().firstValue("Upload-Expires")).get().asString().endsWith("GMT");
        HttpResponse<String> deleted = admin.sendText(admin.request("/uploads/" + terminated)
                .header("Tus-Resumable", "1.0.0").DELETE());
        assertThat(deleted.statusCode()).isEqualTo(204);
        assertThat(head(terminated).statusCode()).isEqualTo(404);

        long deadline = System.nanoTime() + 150_000_000_000L; // expiry 60 s, cleaned every 6 s
        while (uploadFiles().stream().anyMatch(f -> f.startsWith(abandoned)) && System.nanoTime() < deadline) {
            Thread.sleep(500);
        }
        assertThat(uploadFiles()).noneMatch(f -> f.startsWith(abandoned));
        assertThat(head(abandoned).statusCode()).isEqualTo(404);
        assertThat(admin.get("/images/resumable/abandoned.png").statusCode()).isEqualTo(404);
    }

    // ------------------------------------------------------------------------------------------------ the client

    /** HEAD then PATCH until the object is in, as a tus client does after a network failure; the first offset. */
    private static long resume(String upload, byte[] object) throws Exception {
        long first = -1;
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < deadline) {
            long offset = Long.parseLong(head(upload).headers().firstValue("Upload-Offset").orElseThrow());
            if (first < 0) {
                first = offset;
            }
            int end = (int) Math.min(object.length, offset + CHUNK);
            HttpResponse<String> r;
            try {
                r = patch(upload, offset, Arrays.copyOfRange(object, (int) offset, end), null);
            } catch (IOException networkError) { // as tus clients do: ask HEAD again and go on from there
                System.out.println("UploadsIT: PATCH at " + offset + " failed (" + networkError + "); resuming");
                first = -1; // as after a 409 or 423: the cut-off chunk may still have been on its way in
                Thread.sleep(200);
                continue;
            }
            if (r.statusCode() == 204 && end == object.length) {
                assertThat(r.headers().firstValue("Content-Location")).get().asString()
                        .endsWith("/images/resumable/large.dcm");
                return first;
            }
            if (r.statusCode() == 409 || r.statusCode() == 423) { // the cut-off chunk is still being written
                first = -1;
                Thread.sleep(200);
            } else {
                assertThat(r.statusCode()).as(r.body()).isEqualTo(204);
            }
        }
        throw new AssertionError("the upload did not complete");
    }

    /**
     * A PATCH while the raw one hangs: 423. Sent only once the raw chunk's first bytes are on disk (HEAD's offset
     * beyond the first chunk), when the raw PATCH surely holds the upload: a probe sent earlier could itself hold the
     * lock for the instant it takes to refuse its offset, lock the raw PATCH out (423 to it), and leave nobody
     * appending (409 then, seen once in CI).
     */
    private static HttpResponse<String> awaitLocked(String upload, byte[] object)
            throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (Long.parseLong(head(upload).headers().firstValue("Upload-Offset").orElseThrow()) <= CHUNK) {
            assertThat(System.nanoTime()).as("the raw chunk's first bytes reach the store").isLessThan(deadline);
            Thread.sleep(50);
        }
        // at offset 0, so that it could not append even if it got in; a whole chunk, so that the refusal must reach a
        // client still sending (the store reads and drops it)
        return patch(upload, 0, Arrays.copyOfRange(object, 0, CHUNK), null);
    }

    private static String create(String path, long length, String sha256) throws Exception {
        HttpResponse<String> r = post(length, metadata(path, sha256));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        assertThat(r.headers().firstValue("Tus-Resumable")).hasValue("1.0.0");
        assertThat(r.headers().firstValue("Upload-Offset")).hasValue("0");
        String location = r.headers().firstValue("Location").orElseThrow();
        assertThat(location).startsWith(store.uri("/uploads/").toString());
        return location.substring(location.lastIndexOf('/') + 1);
    }

    private static HttpResponse<String> post(long length, String metadata) throws Exception {
        return admin.sendText(admin.request("/uploads").header("Tus-Resumable", "1.0.0")
                .header("Upload-Length", Long.toString(length)).header("Upload-Metadata", metadata)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    private static HttpResponse<String> head(String upload) throws Exception {
        return admin.sendText(admin.request("/uploads/" + upload).header("Tus-Resumable", "1.0.0")
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    }

    private static HttpResponse<String> patch(String upload, long offset, byte[] chunk, String checksum)
            throws Exception {
        HttpRequest.Builder b = admin.request("/uploads/" + upload).header("Tus-Resumable", "1.0.0")
                .header("Content-Type", "application/offset+octet-stream")
                .header("Upload-Offset", Long.toString(offset))
                .method("PATCH", HttpRequest.BodyPublishers.ofByteArray(chunk));
        if (checksum != null) {
            b.header("Upload-Checksum", checksum);
        }
        return admin.sendText(b);
    }

    private static String metadata(String path, String sha256) {
        return "path " + b64(path) + ",sha256 " + b64(sha256) + ",filename " + b64("x");
    }

    private static String b64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> uploadFiles() throws Exception {
        Path dir = store.dataDir().resolve("work/uploads");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    private static String sha256Hex(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
