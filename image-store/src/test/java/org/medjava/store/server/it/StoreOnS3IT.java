package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.filter.Raster;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TcpRelay;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.peers.S3ProxyServer;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The store with its objects in S3-compatible object storage ({@code medjava.storage=s3}): the built WAR on a real
 * Payara Micro, and a real S3Proxy process as the object store. No mocks: between the store and S3Proxy there is
 * only a transparent TCP relay ({@link TcpRelay}) that counts bytes, so that S3Proxy can be killed at an exact point
 * of a large upload.
 *
 * <p>The methods run in order on one store: first what must behave exactly as on files, then the faults (S3Proxy
 * killed and restarted under the running store), then three more starts on the same S3Proxy: two that must be
 * refused (bad credentials, no bucket) and one that must succeed on the bucket as the faults left it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class StoreOnS3IT {

    static final String BUCKET = "medjava-it";
    /** medjava.storage.s3.prefix is left unset: its default. */
    static final String PREFIX = "images/";
    static final String CT_STUDY = "1.3.6.1.4.1.5962.1.2.1.20040119072730.12322";
    static final byte[] DICOM = Samples.bytes(Samples.dicom("CT_small.dcm"));
    static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));
    static final byte[] OTHER_GIF = Samples.bytes(Samples.gif("color.gif"));
    static final long MIB = 1 << 20;
    /** The large body: 4096 x 10000 pixels, about 39 MiB, so three multipart parts of the default 16 MiB. */
    static final int BIG_WIDTH = 4096;
    static final int BIG_HEIGHT = 10_000;
    static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    static Path work;
    static Path s3Dir;
    static S3ProxyServer s3;
    static TcpRelay relay;
    static S3Client bucket;
    static PayaraStore store;
    static StoreClient admin;
    static final List<Process> launchedStores = new ArrayList<>();
    /** Launched by test 8 (to boot alongside its stores), awaited by test 9. */
    static Launched afterCrash;

    @BeforeAll
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    static void start() throws Exception {
        // Under target/ rather than the temporary directory: its log is kept for a failed run (see stop()).
        s3Dir = Files.createTempDirectory(Path.of(System.getProperty("store.war")).getParent(), "it-s3proxy-");
        s3 = S3ProxyServer.start(s3Dir);
        s3.createBucket(BUCKET);
        relay = TcpRelay.to(s3.endpoint().getPort());
        bucket = s3.client();
        store = PayaraStore.named("s3")
                .property("medjava.storage", "s3")
                .property("medjava.storage.s3.endpoint", "http://127.0.0.1:" + relay.port())
                .property("medjava.storage.s3.bucket", BUCKET)
                .property("medjava.storage.s3.access-key", S3ProxyServer.ACCESS_KEY)
                .property("medjava.storage.s3.secret-key", S3ProxyServer.SECRET_KEY)
                .property("medjava.upload.max-bytes", Long.toString(64 * MIB))
                // the large PNG (4096 x 10000 grey) needs ~273 MiB to decode: above a 1 GiB heap's default budget
                .property("medjava.memory.decode-budget-bytes", Long.toString(512 * MIB))
                .property("medjava.seed.images", Samples.dir().toString())
                .seedPlugins()
                .start();
        admin = StoreClient.admin(store);
    }

    @AfterAll
    static void stop() throws Exception {
        Exception failure = null;
        for (AutoCloseable c : new AutoCloseable[] {
            () -> launchedStores.forEach(StoreOnS3IT::destroy),
            () -> { if (store != null) store.close(); },
            () -> { if (relay != null) relay.close(); },
            () -> { if (s3 != null) s3.close(); },
            StoreOnS3IT::keepS3ProxyLogAndDeleteItsData}) {
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    // ---------------------------------------------------------------------------------------- like on files

    @Test
    @Order(1)
    void readsWritesConditionsIndexAndRenderingAsOnFiles() throws Exception {
        // Seeded on first start through the same door as an upload, into the bucket.
        assertThat(admin.get("/images/samples/gif/ct-small.gif").body()).isEqualTo(GIF);
        assertThat(keys()).contains(PREFIX + "samples/gif/ct-small.gif", PREFIX + "samples/dicom/CT_small.dcm")
                .noneMatch(k -> k.contains("MR_truncated") || k.contains("no_meta"));

        HttpResponse<String> created = admin.put("/images/it/s3/ct.dcm", DICOM);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String etag = created.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).matches("\"[0-9a-f-]+\"");

        HttpResponse<byte[]> got = admin.get("/images/it/s3/ct.dcm");
        assertThat(got.statusCode()).isEqualTo(200);
        assertThat(got.body()).isEqualTo(DICOM);
        assertThat(got.headers().firstValue("ETag")).hasValue(etag);
        assertThat(got.headers().firstValue("Content-Type")).hasValue("application/dicom");
        assertThat(got.headers().firstValue("Last-Modified")).isPresent();

        HttpResponse<byte[]> head = admin.send(admin.request("/images/it/s3/ct.dcm")
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(DICOM.length);
        assertThat(head.headers().firstValue("ETag")).hasValue(etag);
        assertThat(head.body()).isEmpty();

        HttpResponse<byte[]> range = admin.send(admin.request("/images/it/s3/ct.dcm").header("Range", "bytes=128-131"));
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.headers().firstValue("Content-Range")).hasValue("bytes 128-131/" + DICOM.length);
        assertThat(new String(range.body(), StandardCharsets.US_ASCII)).isEqualTo("DICM");
        HttpResponse<byte[]> suffix = admin.send(admin.request("/images/it/s3/ct.dcm").header("Range", "bytes=-100"));
        assertThat(suffix.statusCode()).isEqualTo(206);
        assertThat(suffix.body()).isEqualTo(Arrays.copyOfRange(DICOM, DICOM.length - 100, DICOM.length));

        assertThat(admin.send(admin.request("/images/it/s3/ct.dcm").header("If-None-Match", etag)).statusCode())
                .isEqualTo(304);

        HttpResponse<String> stale = admin.sendText(admin.request("/images/it/s3/ct.dcm")
                .header("If-Match", "\"0-0-0\"").PUT(HttpRequest.BodyPublishers.ofByteArray(DICOM)));
        assertThat(stale.statusCode()).isEqualTo(412);
        assertThat(admin.get("/images/it/s3/ct.dcm").headers().firstValue("ETag")).hasValue(etag);

        // The same bytes again: a new version all the same, with a new ETag (S3's own ETag, the MD5, would repeat).
        HttpResponse<String> replaced = admin.sendText(admin.request("/images/it/s3/ct.dcm")
                .header("If-Match", etag).PUT(HttpRequest.BodyPublishers.ofByteArray(DICOM)));
        assertThat(replaced.statusCode()).as(replaced.body()).isEqualTo(204);
        String etag2 = replaced.headers().firstValue("ETag").orElseThrow();
        assertThat(etag2).isNotEqualTo(etag);
        HttpResponse<byte[]> afterReplace = admin.send(admin.request("/images/it/s3/ct.dcm")
                .header("If-None-Match", etag));
        assertThat(afterReplace.statusCode()).isEqualTo(200);
        assertThat(afterReplace.headers().firstValue("ETag")).hasValue(etag2);
        assertThat(afterReplace.body()).isEqualTo(DICOM);

        HttpResponse<String> createOnly = admin.sendText(admin.request("/images/it/s3/ct.dcm")
                .header("If-None-Match", "*").PUT(HttpRequest.BodyPublishers.ofByteArray(DICOM)));
        assertThat(createOnly.statusCode()).isEqualTo(412);

        // Refused bodies leave the stored version as it was.
        HttpResponse<String> text = admin.put("/images/it/s3/ct.dcm", "hello, not an image".getBytes());
        assertThat(text.statusCode()).isEqualTo(415);
        HttpResponse<String> truncated = admin.put("/images/it/s3/ct.dcm",
                Samples.bytes(Samples.dicom("MR_truncated.dcm")));
        assertThat(truncated.statusCode()).isEqualTo(422);
        assertThat(truncated.body()).containsIgnoringCase("truncated");
        HttpResponse<String> wrongType = admin.sendText(admin.request("/images/it/s3/ct.dcm")
                .header("Content-Type", "image/png").PUT(HttpRequest.BodyPublishers.ofByteArray(DICOM)));
        assertThat(wrongType.statusCode()).isEqualTo(415);
        HttpResponse<byte[]> kept = admin.get("/images/it/s3/ct.dcm");
        assertThat(kept.body()).isEqualTo(DICOM);
        assertThat(kept.headers().firstValue("ETag")).hasValue(etag2);

        // The index (own API and QIDO-RS) finds it at its path.
        assertThat(admin.getJson("/index/studies?PatientID=1CT1").body()).contains(CT_STUDY);
        assertThat(admin.sendText(admin.request("/dicomweb/studies?PatientID=1CT1")
                .header("Accept", "application/dicom+json")).body()).contains(CT_STUDY);
        assertThat(admin.getJson("/index/series/" + seriesOf(Samples.dicom("CT_small.dcm")) + "/instances").body())
                .contains("\"path\":\"it/s3/ct.dcm\"");

        // Rendering reads the object back from the bucket.
        HttpResponse<byte[]> png = admin.get("/images/it/s3/ct.dcm?render=png");
        assertThat(png.statusCode()).isEqualTo(200);
        assertThat(png.headers().firstValue("Content-Type")).hasValue("image/png");
        Raster rendered = ImageCodec.read(png.body());
        Raster expected = DicomCodec.read(Samples.dicom("CT_small.dcm")).render();
        assertThat(rendered.width() + "x" + rendered.height()).isEqualTo(expected.width() + "x" + expected.height());
        assertThat(rendered.rgb()).isEqualTo(expected.rgb());

        // Where the bytes are: in the bucket under the prefix, and nowhere under the data directory's images/.
        assertThat(admin.put("/images/it/s3/sub/one.gif", GIF).statusCode()).isEqualTo(201);
        assertThat(keys()).contains(PREFIX + "it/s3/ct.dcm", PREFIX + "it/s3/sub/one.gif")
                .allMatch(k -> k.startsWith(PREFIX));
        assertThat(bucket.getObjectAsBytes(b -> b.bucket(BUCKET).key(PREFIX + "it/s3/ct.dcm")).asByteArray())
                .isEqualTo(DICOM);
        assertNothingUnderImagesDir();
    }

    @Test
    @Order(2)
    void directoryListingsShowTheObjects() throws Exception {
        HttpResponse<String> listing = admin.getJson("/images/it/s3/");
        assertThat(listing.statusCode()).as(listing.body()).isEqualTo(200);
        assertThat(listing.body()).contains("\"name\":\"sub\"", "\"kind\":\"directory\"", "\"name\":\"ct.dcm\"",
                "\"contentType\":\"application/dicom\"", "\"size\":" + DICOM.length, "1.3.6.1.4.1.5962");
        HttpResponse<String> parent = admin.getJson("/images/it/");
        assertThat(parent.statusCode()).as(parent.body()).isEqualTo(200);
        assertThat(parent.body()).contains("\"name\":\"s3\"");
        HttpResponse<String> html = admin.sendText(admin.request("/images/it/s3/sub/").header("Accept", "text/html"));
        assertThat(html.statusCode()).as(html.body()).isEqualTo(200);
        assertThat(html.body()).contains("<a href=\"one.gif\">one.gif</a>");
        assertThat(admin.getJson("/images/").body()).contains("\"name\":\"it\"", "\"name\":\"samples\"");
    }

    @Test
    @Order(3)
    void deletesFromTheBucketAndTheIndex() throws Exception {
        String series = seriesOf(Samples.dicom("CT_small.dcm"));
        assertThat(admin.delete("/images/it/s3/ct.dcm").statusCode()).isEqualTo(204);
        assertThat(admin.get("/images/it/s3/ct.dcm").statusCode()).isEqualTo(404);
        assertThat(keys()).doesNotContain(PREFIX + "it/s3/ct.dcm").contains(PREFIX + "it/s3/sub/one.gif");
        assertThat(admin.getJson("/index/series/" + series + "/instances").body()).doesNotContain("it/s3/ct.dcm")
                .contains("samples/dicom/CT_small.dcm");
        assertThat(admin.delete("/images/it/s3/ct.dcm").statusCode()).isEqualTo(404);
        assertThat(admin.delete("/images/it/s3/sub/one.gif").statusCode()).isEqualTo(204);
        assertThat(keys()).noneMatch(k -> k.startsWith(PREFIX + "it/s3/"));
    }

    @Test
    @Order(4)
    void stowRsStoresInTheBucketAndWadoRsRetrievesIt() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("stow"), "S3-STOW-1", "MR_small.dcm");
        TestStudy.Instance mr = study.instances().get(0);
        String boundary = "s3-it-boundary";
        HttpResponse<String> stow = admin.sendText(admin.request("/dicomweb/studies")
                .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + boundary)
                .header("Accept", "application/dicom+json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom(boundary,
                        List.of(Files.readAllBytes(mr.file()))))));
        assertThat(stow.statusCode()).as(stow.body()).isEqualTo(200);
        assertThat(stow.body()).contains(mr.sopInstanceUid()).doesNotContain("00081198");

        String key = PREFIX + study.storePath(mr);
        assertThat(keys()).contains(key);
        byte[] inBucket = bucket.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray();
        assertThat(admin.get("/images/" + study.storePath(mr)).body()).isEqualTo(inBucket);

        HttpResponse<byte[]> wado = admin.send(admin.request("/dicomweb/studies/" + study.studyUid())
                .header("Accept", "multipart/related; type=\"application/dicom\"; transfer-syntax=*"));
        assertThat(wado.statusCode()).isEqualTo(200);
        List<Multipart.Part> parts = Multipart.parse(wado.body(), wado.headers().firstValue("Content-Type")
                .orElseThrow());
        assertThat(parts).hasSize(1);
        assertThat(parts.get(0).contentType()).startsWith("application/dicom");
        assertThat(parts.get(0).body()).isEqualTo(inBucket);
        assertNothingUnderImagesDir();
    }

    @Test
    @Order(5)
    void rebuildingTheIndexWalksTheBucket() throws Exception {
        // An object put into the bucket behind the store's back (no store metadata on it): only a rebuild finds it.
        // Its UIDs are its own: an instance is one SOP Instance UID, and a second file of a sample's UID would not
        // be the one the index lists for it (the seeded sample under samples/ stays current).
        String series = "1.2.826.0.1.3680043.10.1234.40.2.1";
        Path file = org.medjava.store.core.index.TestDicom.mr().patient("S3-BEHIND", "Behind^Back")
                .study("1.2.826.0.1.3680043.10.1234.40.2", "20240301").series(series, "MR", 1)
                .instance(series + ".1", 1).writeTo(work.resolve("behind.dcm"));
        byte[] behind = Files.readAllBytes(file);
        String instances = "/index/series/" + series + "/instances";
        bucket.putObject(b -> b.bucket(BUCKET).key(PREFIX + "it/behind/mr.dcm"), RequestBody.fromBytes(behind));
        assertThat(admin.getJson(instances).body()).doesNotContain("it/behind/mr.dcm");

        HttpResponse<String> report = admin.sendText(admin.request("/admin/index/rebuild")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(report.statusCode()).as(report.body()).isEqualTo(200);
        int indexed = Integer.parseInt(group(report.body(), "\"indexed\":(\\d+)"));
        long dicomInBucket = keys().stream().filter(k -> k.endsWith(".dcm")).count();
        assertThat(indexed).as(report.body()).isGreaterThanOrEqualTo(20).isLessThanOrEqualTo((int) dicomInBucket);
        assertThat(report.body()).contains("\"failed\":{}");

        assertThat(admin.getJson(instances).body()).contains("\"path\":\"it/behind/mr.dcm\"");
        HttpResponse<byte[]> served = admin.get("/images/it/behind/mr.dcm");
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(served.body()).isEqualTo(behind);
        assertThat(served.headers().firstValue("ETag")).isPresent();
    }

    // ---------------------------------------------------------------------------------------- faults

    @Test
    @Order(6)
    void objectStorageDownIs503AndTheStoreRecoversWithoutARestart() throws Exception {
        HttpResponse<String> first = admin.put("/images/it/fault/a.gif", GIF);
        assertThat(first.statusCode()).isEqualTo(201);
        String etag = first.headers().firstValue("ETag").orElseThrow();
        assertReady(true);

        s3.kill();
        try {
            long[] ms = new long[4];
            long t0 = System.nanoTime();
            HttpResponse<String> put = admin.put("/images/it/fault/a.gif", OTHER_GIF);
            ms[0] = lap(t0);
            assertUnavailable(put.statusCode(), put.headers().firstValue("Content-Type").orElse(""), put.body());
            t0 = System.nanoTime();
            HttpResponse<String> get = admin.sendText(admin.request("/images/it/fault/a.gif"));
            ms[1] = lap(t0);
            assertUnavailable(get.statusCode(), get.headers().firstValue("Content-Type").orElse(""), get.body());
            t0 = System.nanoTime();
            HttpResponse<String> delete = admin.delete("/images/it/fault/a.gif");
            ms[2] = lap(t0);
            assertThat(delete.statusCode()).isEqualTo(503);
            t0 = System.nanoTime();
            HttpResponse<String> listing = admin.getJson("/images/it/fault/");
            ms[3] = lap(t0);
            assertThat(listing.statusCode()).isEqualTo(503);
            assertThat(listing.headers().firstValue("Retry-After")).isPresent();
            System.out.printf("StoreOnS3IT: with S3Proxy down, PUT, GET, DELETE and listing answered 503 in %s ms%n",
                    java.util.Arrays.toString(ms));
            // the first meets the refused connection through the client's retries; the others are refused at once
            assertThat(ms[0]).as("the first refusal within a second").isLessThan(1_000);
            assertThat(java.util.Arrays.stream(ms, 1, 4).max().orElseThrow()).as("the next ones at once")
                    .isLessThan(250);
            assertReady(false); // ready still, for queries: its index answers
        } finally {
            s3.restart();
        }
        awaitReady(); // the store's probe sees it back within half a second

        HttpResponse<byte[]> previous = admin.get("/images/it/fault/a.gif");
        assertThat(previous.statusCode()).isEqualTo(200);
        assertThat(previous.body()).isEqualTo(GIF);
        assertThat(previous.headers().firstValue("ETag")).hasValue(etag);
        HttpResponse<String> put = admin.sendText(admin.request("/images/it/fault/a.gif").header("If-Match", etag)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(OTHER_GIF)));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(204);
        assertThat(admin.get("/images/it/fault/a.gif").body()).isEqualTo(OTHER_GIF);
        awaitReady();
    }

    @Test
    @Order(7)
    void objectStorageKilledDuringALargeUploadLeavesThePreviousVersion() throws Exception {
        String path = "/images/it/big/scan.png";
        String key = PREFIX + "it/big/scan.png";
        byte[] small = GeneratedPng.bytes(64, 48, 1);
        HttpResponse<String> first = admin.put(path, small);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        String etag = first.headers().firstValue("ETag").orElseThrow();
        long bigSize = GeneratedPng.size(BIG_WIDTH, BIG_HEIGHT);
        assertThat(bigSize).isGreaterThan(2 * 16 * MIB);

        // (1) S3Proxy dies while the client is still sending the body (24 MiB of ~39 read by the client). The
        // store stages the body locally and validates it before it writes to the bucket, so it reads the body to
        // its end, then fails to install it: a clean 503, never a broken connection.
        GeneratedPng body = new GeneratedPng(BIG_WIDTH, BIG_HEIGHT, 2).onceRead(24 * MIB, s3::kill);
        try {
            HttpResponse<String> r = putStreaming(path, body, bigSize);
            assertUnavailable(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
        } finally {
            s3.restart();
        }
        awaitReady();
        assertPreviousVersion(path, key, small, etag);

        // (2) S3Proxy dies in the middle of the store's multipart upload: 24 MiB have gone towards it, i.e. the
        // first 16 MiB part is complete and the second is half sent. The store's S3 client retries, fails, and the
        // client gets 503; the upload is never completed, so S3 never shows a partial object.
        relay.whenUpstreamPasses(24 * MIB, s3::kill);
        relay.countUpstream("partNumber=");
        try {
            HttpResponse<String> r = putStreaming(path, new GeneratedPng(BIG_WIDTH, BIG_HEIGHT, 3), bigSize);
            assertThat(relay.fired()).as("S3Proxy was killed during the upload").isTrue();
            assertThat(relay.counted()).as("UploadPart requests begun (retries included)").isGreaterThanOrEqualTo(2);
            assertUnavailable(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
            System.out.printf("StoreOnS3IT: S3Proxy killed after %d bytes of the multipart upload%n",
                    relay.firedAfter());
        } finally {
            relay.disarm();
            s3.restart();
        }
        awaitReady();
        assertPreviousVersion(path, key, small, etag);
        // The store could not abort that upload (the server was down): it stays pending in the bucket, invisible to
        // readers. With S3Proxy's file-system backend the half-written part even breaks ListMultipartUploads (500),
        // which the store's start-up sweep calls: see the last test.

        // (3) With S3Proxy up the same large body goes through, in parts, and reads back byte for byte.
        relay.countUpstream("partNumber=");
        HttpResponse<String> ok = putStreaming(path, new GeneratedPng(BIG_WIDTH, BIG_HEIGHT, 3), bigSize, etag);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(204);
        assertThat(relay.counted()).as("UploadPart requests: 16 + 16 + 7.2 MiB").isEqualTo(3);
        String bigEtag = ok.headers().firstValue("ETag").orElseThrow();
        HeadObjectResponse object = bucket.headObject(b -> b.bucket(BUCKET).key(key));
        assertThat(object.contentLength()).isEqualTo(bigSize);
        HttpResponse<InputStream> back = java.net.http.HttpClient.newHttpClient().send(admin.request(path)
                .timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(back.statusCode()).isEqualTo(200);
        assertThat(back.headers().firstValue("ETag")).hasValue(bigEtag);
        try (InputStream in = back.body(); GeneratedPng same = new GeneratedPng(BIG_WIDTH, BIG_HEIGHT, 3)) {
            assertThat(sha256(in)).isEqualTo(sha256(same));
        }
        assertNothingUnderImagesDir();
    }

    /**
     * Bad credentials and a missing bucket: the store does not come up, and its log names the settings to fix.
     * Payara Micro itself stays up (it only fails the deployment), so "refused" means: the deployment failed,
     * nothing answers under /images and readiness never reports the store.
     */
    @Test
    @Order(8)
    void badCredentialsOrAMissingBucketStopTheStartNamingTheSetting() throws Exception {
        String wrongSecret = "not-the-secret-" + Long.toHexString(System.nanoTime());
        Map<String, String> badKey = s3Settings(BUCKET, S3ProxyServer.ACCESS_KEY, wrongSecret);
        Map<String, String> noBucket = s3Settings("no-such-bucket", S3ProxyServer.ACCESS_KEY,
                S3ProxyServer.SECRET_KEY);
        // All at once, the next test's store too: each start takes Payara Micro's whole boot.
        afterCrash = launch("s3-after-crash", s3Settings(BUCKET, S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY));
        Launched credentials = launch("s3-bad-secret", badKey);
        Launched bucketMissing = launch("s3-no-bucket", noBucket);
        try {
            String credentialsLog = credentials.awaitBoot();
            assertThat(failures(credentialsLog)).contains("Exception while loading the app",
                    "medjava.storage.s3.access-key", "medjava.storage.s3.secret-key", "refused the credentials");
            assertThat(credentialsLog.contains(wrongSecret)).as("the secret key is printed").isFalse();
            assertThat(credentialsLog.contains("login: ")).as("the store's start banner").isFalse();
            credentials.assertNotServing();

            String bucketLog = bucketMissing.awaitBoot();
            assertThat(failures(bucketLog)).contains("Exception while loading the app", "medjava.storage.s3.bucket",
                    "no-such-bucket", "does not exist");
            assertThat(bucketLog.contains("login: ")).as("the store's start banner").isFalse();
            bucketMissing.assertNotServing();
        } finally {
            destroy(credentials.process());
            destroy(bucketMissing.process());
        }
    }

    /**
     * A store starting on the bucket as it is after the faults above, with the upload that S3Proxy's death left
     * unfinished: the start-up sweep of stale multipart uploads is housekeeping and must not stop the start.
     */
    @Test
    @Order(9)
    void aStoreStartsOnTheBucketAfterTheCrash() throws Exception {
        Launched next = afterCrash != null ? afterCrash : launch("s3-after-crash", s3Settings(BUCKET,
                S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY));
        try {
            String log = next.awaitBoot();
            assertThat(next.process().isAlive()).isTrue();
            assertThat(failures(log)).as("the start failed").isEmpty();
            assertThat(log.contains("login: ")).as("the store's start banner").isTrue();
            HttpResponse<String> ready = next.get("/health/ready");
            assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
            assertThat(ready.body()).contains("image-store");
            HttpResponse<String> big = next.get("/images/it/big/scan.png", "Range", "bytes=0-7");
            assertThat(big.statusCode()).isEqualTo(206);
            assertThat(big.headers().firstValue("Content-Range"))
                    .hasValue("bytes 0-7/" + GeneratedPng.size(BIG_WIDTH, BIG_HEIGHT));
        } finally {
            destroy(next.process());
        }
    }

    // ---------------------------------------------------------------------------------------- helpers

    private static void keepS3ProxyLogAndDeleteItsData() throws Exception {
        if (s3Dir == null || !Files.exists(s3Dir)) {
            return;
        }
        Path log = s3Dir.resolve("s3proxy.log");
        if (Files.exists(log)) {
            Path logs = Files.createDirectories(s3Dir.getParent().resolve("it-logs"));
            Files.copy(log, logs.resolve("s3proxy-" + s3Dir.getFileName() + ".log"));
        }
        try (Stream<Path> paths = Files.walk(s3Dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static List<String> keys() {
        return bucket.listObjectsV2Paginator(b -> b.bucket(BUCKET)).contents().stream().map(S3Object::key).toList();
    }

    private static void assertNothingUnderImagesDir() throws Exception {
        Path images = store.dataDir().resolve("images");
        if (Files.exists(images)) {
            try (Stream<Path> files = Files.walk(images)) {
                assertThat(files.filter(Files::isRegularFile)).as("files under " + images).isEmpty();
            }
        }
        Path staging = store.dataDir().resolve("work/staging");
        if (Files.exists(staging)) {
            try (Stream<Path> files = Files.list(staging)) {
                assertThat(files).as("staging leftovers").isEmpty();
            }
        }
    }

    private static void assertUnavailable(int status, String contentType, String body) {
        assertThat(status).as(body).isEqualTo(503);
        assertThat(contentType).startsWith("application/json");
        assertThat(body).contains("\"message\"", "object storage at http://127.0.0.1:" + relay.port());
    }

    private static void assertPreviousVersion(String path, String key, byte[] bytes, String etag) throws Exception {
        HttpResponse<byte[]> r = admin.get(path);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(bytes);
        assertThat(r.headers().firstValue("ETag")).hasValue(etag);
        assertThat(bucket.headObject(b -> b.bucket(BUCKET).key(key)).contentLength()).isEqualTo(bytes.length);
        assertNothingUnderImagesDir();
    }

    private static HttpResponse<String> putStreaming(String path, GeneratedPng body, long size, String... ifMatch)
            throws Exception {
        HttpRequest.Builder request = admin.request(path).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "image/png")
                .PUT(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> body),
                        size));
        for (String tag : ifMatch) {
            request.header("If-Match", tag);
        }
        long t0 = System.nanoTime();
        HttpResponse<String> r = admin.sendText(request);
        System.out.printf("StoreOnS3IT: PUT of %d bytes answered %d in %d ms%n", size, r.statusCode(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        return r;
    }

    /**
     * Readiness with everything up, or with the storage away: still 200 (the index serves queries), the storage
     * check saying it is not reachable and what the node serves.
     */
    private static void assertReady(boolean storageUp) throws Exception {
        HttpResponse<String> r = admin.sendText(admin.request("/health/ready"));
        assertThat(r.body()).contains("image-store");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).contains("\"status\":\"UP\"").doesNotContain("DOWN");
        if (storageUp) {
            assertThat(r.body()).doesNotContain("\"reachable\":\"false\"");
        } else {
            assertThat(r.body()).contains("\"reachable\":\"false\"", "queries and metadata");
        }
    }

    private static long lap(long t0) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    }

    /** The storage comes back by itself: the store's probe finds it back (every half second). */
    private static void awaitReady() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        HttpResponse<String> r;
        do {
            r = admin.sendText(admin.request("/health/ready"));
            if (r.statusCode() == 200 && !r.body().contains("\"reachable\":\"false\"")) {
                break;
            }
            Thread.sleep(250);
        } while (System.nanoTime() < deadline);
        assertReady(true);
    }

    private static String sha256(InputStream in) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) >= 0; ) {
            digest.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The lines of a store's log that say why its deployment failed; empty when it did not. */
    private static String failures(String log) {
        return String.join("\n", log.lines().filter(l -> l.contains("Exception while loading the app")
                || l.startsWith("Caused by")).toList());
    }

    /** The Series Instance UID of a DICOM file, read here with PixelMed. */
    private static String seriesOf(Path dicom) throws Exception {
        AttributeList attributes = new AttributeList();
        attributes.read(dicom.toString());
        String uid = Attribute.getSingleStringValueOrEmptyString(attributes, TagFromName.SeriesInstanceUID);
        assertThat(uid).isNotBlank();
        return uid;
    }

    private static String group(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex + " in " + text).isTrue();
        return m.group(1);
    }

    private static Map<String, String> s3Settings(String bucketName, String accessKey, String secretKey) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("medjava.storage", "s3");
        p.put("medjava.storage.s3.endpoint", s3.endpoint().toString());
        p.put("medjava.storage.s3.bucket", bucketName);
        p.put("medjava.storage.s3.access-key", accessKey);
        p.put("medjava.storage.s3.secret-key", secretKey);
        return p;
    }

    // ---------------------------------------------------------------------------------------- refused starts

    /**
     * A store process whose start may fail: PayaraStore only waits for success (up to 3 minutes), while a failed
     * deployment leaves Payara Micro running.
     */
    private record Launched(String name, Process process, Path log, int port, int backendPort) {
        private static final Duration TIMEOUT = Duration.ofSeconds(150);
        private static final Pattern PAYARA_READY = Pattern.compile("Payara Micro .* ready in");

        /** Waits until Payara Micro has exited or finished its start (the deployment done, or failed); its log. */
        String awaitBoot() throws Exception {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (process.isAlive() && System.nanoTime() < deadline
                    && !PAYARA_READY.matcher(Files.readString(log, StandardCharsets.UTF_8)).find()) {
                Thread.sleep(250);
            }
            String text = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(!process.isAlive() || PAYARA_READY.matcher(text).find())
                    .as("%s: Payara Micro neither exited nor finished starting within %s; its log:%n%s", name, TIMEOUT,
                            tail(text)).isTrue();
            // a deployed store opens its port a moment after Payara's banner (front.HttpFront)
            long portDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (process.isAlive() && failures(text).isEmpty() && !text.contains("the store's HTTP port ")
                    && System.nanoTime() < portDeadline) {
                Thread.sleep(100);
                text = Files.readString(log, StandardCharsets.UTF_8);
            }
            return text;
        }

        /**
         * If Payara Micro stays up: the store is not deployed, so neither is its front (nothing listens on the store's
         * port), and Payara's own listener behind it has no store either: readiness does not report it.
         */
        void assertNotServing() throws Exception {
            if (!process.isAlive()) {
                return;
            }
            assertThatThrownBy(() -> get("/health/ready")).as(name + ": the store's port with no store deployed")
                    .isInstanceOf(ConnectException.class);
            HttpResponse<String> images = get(backendPort, "/images/");
            assertThat(images.statusCode()).as(name + ": /images/ with no store deployed: " + images.body())
                    .isGreaterThanOrEqualTo(400);
            assertThat(images.body()).doesNotContain("\"entries\"", "<table>");
            assertThat(get(backendPort, "/health/ready").body()).as(name + ": readiness").doesNotContain("image-store");
        }

        /** A GET as the admin on the store's port, with extra headers as name, value, ... */
        HttpResponse<String> get(String path, String... headers) throws Exception {
            return get(port, path, headers);
        }

        private static HttpResponse<String> get(int port, String path, String... headers) throws Exception {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", PayaraStore.admin());
            for (int i = 0; i < headers.length; i += 2) {
                request.header(headers[i], headers[i + 1]);
            }
            return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build().send(request.build(),
                            HttpResponse.BodyHandlers.ofString(StandardCharsets.ISO_8859_1));
        }

        private static String tail(String text) {
            return text.length() > 6000 ? text.substring(text.length() - 6000) : text;
        }
    }

    private static Launched launch(String name, Map<String, String> properties) throws Exception {
        Path target = Path.of(System.getProperty("store.war")).getParent();
        Path data = Files.createDirectories(work.resolve(name));
        Path log = Files.createDirectories(target.resolve("it-logs")).resolve(name + ".log");
        Files.deleteIfExists(log);
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx512m", "-Dmedjava.data-dir=" + data,
                "-Dmedjava.admin.initial-password=" + PayaraStore.ADMIN_PASSWORD));
        // the store's port is its front's (front.FrontServer); Payara's listener sits behind it on the loopback
        int backendPort = freePort();
        command.add("-Dmedjava.http.port=" + port);
        command.add("-Dmedjava.http.backend-port=" + backendPort);
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.addAll(List.of("-jar", System.getProperty("payara.jar"), "--deploy", System.getProperty("store.war"),
                "--contextroot", "/", "--port", Integer.toString(backendPort), "--nocluster", "--disablephonehome"));
        Path preboot = Path.of(System.getProperty("medjava.root", "..")).resolve("deploy/payara-preboot.txt");
        if (Files.isRegularFile(preboot)) { // as ./medjava start: Payara's listener on the loopback only
            command.addAll(List.of("--prebootcommandfile", preboot.toAbsolutePath().toString()));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        synchronized (launchedStores) {
            launchedStores.add(process);
        }
        return new Launched(name, process, log, port, backendPort);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void destroy(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
