package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.server.pacs.DicomJson.array;
import static org.medjava.store.server.pacs.DicomJson.object;
import static org.medjava.store.server.pacs.DicomJson.value;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The store as DICOMweb viewers meet it with their default settings: the exact requests OHIF 3 sends (QIDO study
 * list with includefield, series metadata, frames with {@code multipart/related; type=application/octet-stream;
 * transfer-syntax=*}, the type unquoted), dicomweb-client's and Orthanc's headers, thumbnails; and the links in the
 * answers built on medjava.public-url, with a path prefix, behind a proxy that rewrites nothing.
 */
@ExtendWith(PacsStore.class)
class ViewerDefaultsIT {

    /** OHIF 3's image loader, every frame (cornerstone wadors loadImage). */
    private static final String OHIF_FRAMES = "multipart/related; type=application/octet-stream; transfer-syntax=*";
    private static final String DICOM_JSON = "application/dicom+json";
    private static final String ELE = "1.2.840.10008.1.2.1";
    private static final String JPEG_BASELINE = "1.2.840.10008.1.2.4.50";
    private static final String JPEG_LS = "1.2.840.10008.1.2.4.80";

    @TempDir
    static Path work;
    static StoreClient reader;
    static TestStudy study;
    /** A series of three images with Instance Numbers 3, 1, 2 (in that order of arrival). */
    static String seriesUid;
    static List<String> seriesInstances;

    @BeforeAll
    static void storeAStudyTheWayOhifUploadsIt() throws Exception {
        PayaraStore store = PacsStore.store();
        StoreClient admin = StoreClient.admin(store);
        reader = admin;
        study = TestStudy.create(work.resolve("study"), "VIEWER-1", "CT_small.dcm", "SC_rgb_jpeg_dcmtk.dcm",
                "MR_small_jp2klossless.dcm", "MR_small_jpeg_ls_lossless.dcm");
        seriesUid = TestStudy.newUid();
        seriesInstances = List.of(TestStudy.newUid(), TestStudy.newUid(), TestStudy.newUid());
        List<byte[]> parts = new java.util.ArrayList<>(study.instances().stream().map(i -> Samples.bytes(i.file()))
                .toList());
        String[] samples = {"CT_small.dcm", "MR_small.dcm", "liver_1frame.dcm"};
        int[] numbers = {3, 1, 2};
        for (int n = 0; n < 3; n++) {
            Path file = work.resolve("series-" + n + ".dcm");
            Files.copy(Samples.dicom(samples[n]), file);
            Command.run(Command.of("dcmodify", "-nb", "-m", "(0010,0020)=VIEWER-1", "-m", "(0020,000D)="
                    + study.studyUid(), "-m", "(0020,000E)=" + seriesUid, "-m", "(0008,0018)="
                    + seriesInstances.get(n), "-m", "(0020,0013)=" + numbers[n], "-m", "(0020,0011)=1", file))
                    .assertOk();
            parts.add(Samples.bytes(file));
        }
        // unquoted type and no spaces, as dcm4che's stowrs and others write it: Jersey refused this with 400 HTML
        String boundary = "viewer-it-boundary";
        HttpResponse<String> stow = admin.sendText(admin.request("/dicomweb/studies")
                .header("Content-Type", "multipart/related;type=application/dicom;boundary=" + boundary)
                .header("Accept", DICOM_JSON)
                .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom(boundary, parts))));
        assertThat(stow.statusCode()).as(stow.body()).isEqualTo(200);
        assertThat(stow.headers().firstValue("Content-Type")).hasValue(DICOM_JSON);
        assertThat(value(object(stow.body()), "00081190")).isEqualTo(store.uri("/dicomweb/studies/"
                + study.studyUid()).toString());
    }

    // ---------------------------------------------------------------------------------------------- QIDO, metadata

    @Test
    void theStudyListAsOhifAsksForIt() throws Exception {
        HttpResponse<String> r = reader.sendText(reader.request("/dicomweb/studies?limit=101&offset=0"
                + "&fuzzymatching=false&includefield=00081030%2C00080060&PatientID=VIEWER-1")
                .header("Accept", DICOM_JSON));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue(DICOM_JSON);
        JsonObject s = array(r.body()).getJsonObject(0);
        assertThat(value(s, "0020000D")).isEqualTo(study.studyUid());
        assertThat(value(s, "00201208")).isEqualTo("7");
        assertThat(value(s, "00081190")).isEqualTo(PacsStore.store().uri("/dicomweb/studies/" + study.studyUid())
                .toString());
        assertThat(s.getJsonObject("00080061").getJsonArray("Value").toString()).contains("CT", "MR");

        JsonArray series = array(reader.sendText(reader.request("/dicomweb/studies/" + study.studyUid() + "/series")
                .header("Accept", DICOM_JSON)).body());
        assertThat(series).hasSize(5);
        HttpResponse<String> json = reader.sendText(reader.request("/dicomweb/studies?PatientID=VIEWER-1")
                .header("Accept", "application/json"));
        assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(array(json.body())).hasSize(1);
    }

    @Test
    void seriesMetadataLinksPixelDataThatCanBeFetched() throws Exception {
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        HttpResponse<String> r = reader.sendText(reader.request("/dicomweb/studies/" + study.studyUid() + "/series/"
                + ct.seriesUid() + "/metadata").header("Accept", DICOM_JSON));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue(DICOM_JSON);
        String bulk = array(r.body()).getJsonObject(0).getJsonObject("7FE00010").getString("BulkDataURI");
        assertThat(bulk).isEqualTo(PacsStore.store().uri(instancePath(ct) + "/bulk/7FE00010").toString());

        // OHIF's dicomweb-client with singlepart "bulkdata" sends no Accept of its own (the browser's */*)
        HttpResponse<byte[]> any = reader.send(reader.request(path(bulk)).header("Accept", "*/*"));
        assertThat(firstPart(any).body()).isEqualTo(PixelData.of(stored(ct)));
        HttpResponse<byte[]> single = reader.send(reader.request(path(bulk)).header("Accept",
                "application/octet-stream"));
        assertThat(single.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/octet-stream");
        assertThat(single.body()).isEqualTo(PixelData.of(stored(ct)));
    }

    // ---------------------------------------------------------------------------------------------- frames

    @Test
    void ohifFramesComeAsStored() throws Exception {
        assertFrame(study.instance("CT_small.dcm"), OHIF_FRAMES, "application/octet-stream; transfer-syntax=" + ELE);
        assertFrame(study.instance("SC_rgb_jpeg_dcmtk.dcm"), OHIF_FRAMES,
                "application/octet-stream; transfer-syntax=" + JPEG_BASELINE);
        assertFrame(study.instance("MR_small_jpeg_ls_lossless.dcm"), OHIF_FRAMES,
                "application/octet-stream; transfer-syntax=" + JPEG_LS);
        // the same with the quotes OHIF leaves out by default, and as dcm4che writes it
        assertFrame(study.instance("SC_rgb_jpeg_dcmtk.dcm"), "multipart/related; type=\"application/octet-stream\"; "
                + "transfer-syntax=*", "application/octet-stream; transfer-syntax=" + JPEG_BASELINE);
        assertFrame(study.instance("CT_small.dcm"), "multipart/related;type=application/octet-stream;"
                + "transfer-syntax=*", "application/octet-stream; transfer-syntax=" + ELE);
    }

    private static void assertFrame(TestStudy.Instance i, String accept, String partType) throws Exception {
        HttpResponse<byte[]> r = reader.send(reader.request(instancePath(i) + "/frames/1").header("Accept", accept));
        assertThat(r.statusCode()).as(i.sample() + " " + accept).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElseThrow()).startsWith("multipart/related")
                .contains("type=\"application/octet-stream\"");
        Multipart.Part part = firstPart(r);
        assertThat(part.contentType()).as(i.sample()).isEqualTo(partType);
        assertThat(part.body()).as(i.sample()).isEqualTo(PixelData.of(stored(i)));
    }

    @Test
    void dicomwebClientsAlternativesAndWeights() throws Exception {
        TestStudy.Instance jpeg = study.instance("SC_rgb_jpeg_dcmtk.dcm");
        String list = "multipart/related; type=\"image/jpeg\"; transfer-syntax=" + JPEG_BASELINE
                + ", multipart/related; type=\"application/octet-stream\"; transfer-syntax=" + ELE;
        Multipart.Part image = firstPart(reader.send(reader.request(instancePath(jpeg) + "/frames/1")
                .header("Accept", list)));
        assertThat(image.contentType()).isEqualTo("image/jpeg; transfer-syntax=" + JPEG_BASELINE);
        assertThat(image.body()).isEqualTo(PixelData.of(stored(jpeg)));

        // decoded on request: a lossless JPEG 2000 frame is the original's pixels
        TestStudy.Instance j2k = study.instance("MR_small_jp2klossless.dcm");
        String preferDecoded = "multipart/related; type=application/octet-stream; transfer-syntax=*;q=0.5, "
                + "multipart/related; type=application/octet-stream; transfer-syntax=" + ELE;
        Multipart.Part decoded = firstPart(reader.send(reader.request(instancePath(j2k) + "/frames/1")
                .header("Accept", preferDecoded)));
        assertThat(decoded.contentType()).isEqualTo("application/octet-stream; transfer-syntax=" + ELE);
        assertThat(decoded.body()).isEqualTo(PixelData.of(Samples.dicom("MR_small.dcm")));

        // a single frame single part, as PS3.18 allows
        HttpResponse<byte[]> single = reader.send(reader.request(instancePath(jpeg) + "/frames/1")
                .header("Accept", "image/jpeg"));
        assertThat(single.headers().firstValue("Content-Type").orElseThrow()).startsWith("image/jpeg");
        assertThat(single.body()).isEqualTo(PixelData.of(stored(jpeg)));
    }

    @Test
    void whatCannotBeSentIsA406SayingWhatCan() throws Exception {
        // JPEG-LS decodes here (CharLS): asked for uncompressed, its frame is the original's pixels
        TestStudy.Instance jls = study.instance("MR_small_jpeg_ls_lossless.dcm");
        HttpResponse<byte[]> r = reader.send(reader.request(instancePath(jls) + "/frames/1")
                .header("Accept", "multipart/related; type=application/octet-stream; transfer-syntax=" + ELE));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(firstPart(r).body()).isEqualTo(PixelData.of(Samples.dicom("MR_small.dcm")));

        TestStudy.Instance ct = study.instance("CT_small.dcm");
        HttpResponse<String> compress = reader.sendText(reader.request(instancePath(ct) + "/frames/1")
                .header("Accept", "multipart/related; type=image/jpeg"));
        assertThat(compress.statusCode()).isEqualTo(406);
        assertThat(object(compress.body()).getString("message")).contains("application/octet-stream");
    }

    // ---------------------------------------------------------------------------------------------- instances

    @Test
    void instancesAsStoredWhateverTheQuoting() throws Exception {
        for (TestStudy.Instance i : study.instances()) {
            for (String accept : new String[] {"multipart/related; type=\"application/dicom\"; transfer-syntax=*",
                    "multipart/related; type=application/dicom; transfer-syntax=*", "*/*"}) {
                HttpResponse<byte[]> r = reader.send(reader.request(instancePath(i)).header("Accept", accept));
                assertThat(r.statusCode()).as(accept).isEqualTo(200);
                Multipart.Part part = firstPart(r);
                assertThat(part.contentType()).isEqualTo("application/dicom; transfer-syntax=" + i.transferSyntaxUid());
                assertThat(part.body()).as(i.sample()).isEqualTo(Samples.bytes(stored(i)));
            }
        }
        TestStudy.Instance jpeg = study.instance("SC_rgb_jpeg_dcmtk.dcm");
        HttpResponse<byte[]> single = reader.send(reader.request(instancePath(jpeg)).header("Accept",
                "application/dicom"));
        assertThat(single.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/dicom");
        assertThat(single.body()).isEqualTo(Samples.bytes(stored(jpeg)));
        // a study is several instances: single part is not offered (PS3.18 10.4.4)
        assertThat(reader.send(reader.request("/dicomweb/studies/" + study.studyUid()).header("Accept",
                "application/dicom")).statusCode()).isEqualTo(406);
    }

    // ---------------------------------------------------------------------------------------------- thumbnails

    @Test
    void thumbnailsOfStudySeriesInstanceAndFrame() throws Exception {
        String s = "/dicomweb/studies/" + study.studyUid();
        HttpResponse<byte[]> studyThumb = reader.send(reader.request(s + "/thumbnail"));
        assertThat(studyThumb.statusCode()).isEqualTo(200);
        assertThat(studyThumb.headers().firstValue("Content-Type")).hasValue("image/jpeg");
        assertThat(studyThumb.headers().firstValue("Cache-Control").orElseThrow()).contains("private");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(studyThumb.body()));
        assertThat(Math.max(image.getWidth(), image.getHeight())).isEqualTo(128);

        // the series' middle image by Instance Number (2 of 1, 2, 3) stands for it
        String seriesPath = s + "/series/" + seriesUid;
        byte[] seriesThumb = reader.send(reader.request(seriesPath + "/thumbnail")).body();
        byte[] middle = reader.send(reader.request(seriesPath + "/instances/" + seriesInstances.get(2)
                + "/thumbnail")).body();
        byte[] first = reader.send(reader.request(seriesPath + "/instances/" + seriesInstances.get(1)
                + "/thumbnail")).body();
        assertThat(seriesThumb).isEqualTo(middle).isNotEqualTo(first);

        TestStudy.Instance ct = study.instance("CT_small.dcm");
        HttpResponse<byte[]> png = reader.send(reader.request(instancePath(ct) + "/thumbnail?viewport=64,48")
                .header("Accept", "image/png"));
        assertThat(png.headers().firstValue("Content-Type")).hasValue("image/png");
        BufferedImage small = ImageIO.read(new ByteArrayInputStream(png.body()));
        assertThat(small.getWidth()).isEqualTo(48); // CT_small is square: 48 by 48 fits 64 by 48
        assertThat(small.getHeight()).isEqualTo(48);
        HttpResponse<byte[]> gif = reader.send(reader.request(instancePath(ct) + "/frames/1/thumbnail")
                .header("Accept", "image/gif"));
        assertThat(gif.headers().firstValue("Content-Type")).hasValue("image/gif");
        assertThat(ImageIO.read(new ByteArrayInputStream(gif.body())).getWidth()).isEqualTo(128);

        String tag = png.headers().firstValue("ETag").orElseThrow();
        HttpResponse<byte[]> again = reader.send(reader.request(instancePath(ct) + "/thumbnail?viewport=64,48")
                .header("Accept", "image/png").header("If-None-Match", tag));
        assertThat(again.statusCode()).isEqualTo(304);

        HttpResponse<String> unknown = reader.sendText(reader.request("/dicomweb/studies/1.2.3.999/thumbnail"));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(reader.send(reader.request(instancePath(ct) + "/frames/2/thumbnail")).statusCode())
                .isEqualTo(404);
        assertThat(reader.send(reader.request(instancePath(ct) + "/thumbnail").header("Accept", "image/webp"))
                .statusCode()).isEqualTo(406);
    }

    // ---------------------------------------------------------------------------------------------- errors

    @Test
    void refusalsAreShortJsonNeverTheContainersHtmlPage() throws Exception {
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        for (String[] request : new String[][] {{instancePath(ct) + "/frames/1", "garbage"},
                {"/dicomweb/studies/" + study.studyUid() + "/nothing-here", "*/*"},
                {instancePath(ct) + "/rendered", "image/webp"}}) {
            HttpResponse<String> r = reader.sendText(reader.request(request[0]).header("Accept", request[1]));
            assertThat(r.statusCode()).as(request[0]).isBetween(400, 406);
            assertThat(r.headers().firstValue("Content-Type")).as(request[0]).hasValue("application/json");
            assertThat(object(r.body()).getString("message")).isNotBlank();
        }
    }

    // ---------------------------------------------------------------------------------------------- public URL

    @Test
    void linksUseThePublicUrlWithItsPrefixBehindAProxy() throws Exception {
        int proxyPort = org.medjava.store.testkit.Ports.free();
        String publicUrl = "http://127.0.0.1:" + proxyPort + "/medjava";
        try (PayaraStore store = PayaraStore.named("public-url").property("medjava.public-url", publicUrl)
                .start(); PrefixProxy proxy = PrefixProxy.start(work.resolve("proxy"), proxyPort, "/medjava",
                store.port())) {
            StoreClient admin = StoreClient.admin(store);
            TestStudy own = TestStudy.create(work.resolve("proxied"), "VIEWER-2", "CT_small.dcm");
            TestStudy.Instance ct = own.instances().get(0);
            String boundary = "proxied-boundary";
            HttpResponse<String> stow = admin.sendText(HttpRequest.newBuilder(proxy.uri("/dicomweb/studies"))
                    .header("Authorization", PayaraStore.admin())
                    .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + boundary)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom(boundary,
                            List.of(Samples.bytes(ct.file()))))));
            assertThat(stow.statusCode()).as(stow.body()).isEqualTo(200);
            String instanceUrl = publicUrl + "/dicomweb/studies/" + own.studyUid() + "/series/" + ct.seriesUid()
                    + "/instances/" + ct.sopInstanceUid();
            assertThat(object(stow.body()).getJsonObject("00081199").getJsonArray("Value").getJsonObject(0)
                    .getJsonObject("00081190").getJsonArray("Value").getString(0)).isEqualTo(instanceUrl);

            HttpResponse<String> qido = admin.sendText(HttpRequest.newBuilder(proxy.uri("/dicomweb/studies?PatientID="
                    + "VIEWER-2")).header("Authorization", PayaraStore.admin()).header("Accept", DICOM_JSON));
            assertThat(value(array(qido.body()).getJsonObject(0), "00081190"))
                    .isEqualTo(publicUrl + "/dicomweb/studies/" + own.studyUid());

            HttpResponse<String> metadata = admin.sendText(HttpRequest.newBuilder(proxy.uri("/dicomweb/studies/"
                    + own.studyUid() + "/metadata")).header("Authorization", PayaraStore.admin())
                    .header("Accept", DICOM_JSON));
            String bulk = array(metadata.body()).getJsonObject(0).getJsonObject("7FE00010").getString("BulkDataURI");
            assertThat(bulk).isEqualTo(instanceUrl + "/bulk/7FE00010");
            // the viewer follows the link as it is: through the proxy, to the stored pixels
            HttpResponse<byte[]> pixels = admin.send(HttpRequest.newBuilder(URI.create(bulk))
                    .header("Authorization", PayaraStore.admin()).header("Accept", OHIF_FRAMES));
            assertThat(pixels.statusCode()).isEqualTo(200);
            Path stored = store.dataDir().resolve("images").resolve(own.storePath(ct));
            assertThat(firstPart(pixels).body()).isEqualTo(PixelData.of(stored));

            // an X-Forwarded-Host sent to the store directly does not move its links; a foreign Host is refused
            String poisoned = rawGet(store.port(), "/dicomweb/studies?PatientID=VIEWER-2", "Host: 127.0.0.1:"
                    + store.port() + "\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\n");
            assertThat(poisoned).contains(publicUrl + "/dicomweb/studies/" + own.studyUid())
                    .doesNotContain("evil.example");
            String foreign = rawGet(store.port(), "/dicomweb/studies?PatientID=VIEWER-2",
                    "Host: evil.example\r\n");
            assertThat(foreign).startsWith("HTTP/1.1 400").contains("unknown host").doesNotContain("evil.example");

            HttpResponse<String> put = admin.sendText(HttpRequest.newBuilder(proxy.uri("/images/proxied/ct.dcm"))
                    .header("Authorization", PayaraStore.admin()).header("Content-Type", "application/dicom")
                    .PUT(HttpRequest.BodyPublishers.ofFile(Samples.dicom("CT_small.dcm"))));
            assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
            assertThat(put.headers().firstValue("Location")).hasValue(publicUrl + "/images/proxied/ct.dcm");
        }
    }

    /** A GET with headers the JDK's client will not send (Host), the answer's body as text. */
    private static String rawGet(int port, String target, String headers) throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\n" + headers + "Authorization: "
                    + PayaraStore.admin() + "\r\nAccept: application/dicom+json\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private static String instancePath(TestStudy.Instance i) {
        return "/dicomweb/studies/" + study.studyUid() + "/series/" + i.seriesUid() + "/instances/"
                + i.sopInstanceUid();
    }

    private static Path stored(TestStudy.Instance i) {
        return PacsStore.store().dataDir().resolve("images").resolve(study.storePath(i));
    }

    private static String path(String absolute) {
        return URI.create(absolute).getRawPath();
    }

    private static Multipart.Part firstPart(HttpResponse<byte[]> r) {
        assertThat(r.statusCode()).isEqualTo(200);
        return Multipart.parse(r.body(), r.headers().firstValue("Content-Type").orElseThrow()).get(0);
    }
}
