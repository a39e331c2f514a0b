package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The DICOMweb reads the store's front answers itself (front.FrontDicomWeb) on a real Payara Micro: WADO-RS frames
 * and thumbnails are the container's answers — the same status, type, entity tag and bytes (multipart boundaries
 * aside) over HTTP/1.1 and h2c — counted in {@code medjava_http_direct_reads}; what the front does not answer
 * (errors, compressed frames, other parameters) is the container's; a replaced or deleted object is never served
 * from what the front remembered of it.
 */
@ExtendWith(SharedStore.class)
class FrontDicomWebIT {

    static final String MULTIPART = "multipart/related; type=\"application/octet-stream\"";
    static StoreClient admin;
    static String ct;
    static String rle;

    @BeforeAll
    static void store() throws Exception {
        admin = StoreClient.admin(SharedStore.store());
        ct = put("/images/it/front-dicomweb/ct.dcm", Samples.dicom("CT_small.dcm")); // trailing padding after pixels
        rle = put("/images/it/front-dicomweb/rle.dcm", Samples.dicom("MR_small_RLE.dcm"));
        assertThat(admin.get("/images/it/front-dicomweb/ct.dcm").statusCode()).isEqualTo(200); // login remembered
    }

    /** Stores a sample; its instance's WADO-RS address. */
    static String put(String path, Path file) throws Exception {
        assertThat(admin.put(path, file).statusCode()).isIn(201, 204);
        AttributeList list = new AttributeList();
        list.read(file.toString(), TagFromName.PixelData);
        return "/dicomweb/studies/" + uid(list, TagFromName.StudyInstanceUID) + "/series/"
                + uid(list, TagFromName.SeriesInstanceUID) + "/instances/" + uid(list, TagFromName.SOPInstanceUID);
    }

    static String uid(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        return com.pixelmed.dicom.Attribute.getSingleStringValueOrEmptyString(list, tag);
    }

    static double directReads() throws Exception {
        return Scrape.of(admin).value("medjava_http_direct_reads_total");
    }

    /**
     * The request answered by the front, then by the container (a parameter the front leaves to it): the same
     * answer. {@code front} says whether the front is to answer the first.
     */
    static HttpResponse<byte[]> sameAnswerBothWays(String path, boolean front, String query,
                                                   UnaryOperator<HttpRequest.Builder> headers) throws Exception {
        double before = directReads();
        HttpResponse<byte[]> first = admin.send(headers.apply(admin.request(path)));
        assertThat(directReads()).as("answered by the front: " + path).isEqualTo(before + (front ? 1 : 0));
        HttpResponse<byte[]> container = admin.send(headers.apply(admin.request(path + query)));
        assertThat(directReads()).as("left to the container").isEqualTo(before + (front ? 1 : 0));
        assertThat(first.statusCode()).isEqualTo(container.statusCode());
        assertThat(withoutBoundary(first)).isEqualTo(withoutBoundary(container));
        assertThat(mediaType(first)).isEqualTo(mediaType(container));
        for (String name : new String[] {"ETag", "Cache-Control", "Vary", "Server", "X-Content-Type-Options"}) {
            assertThat(first.headers().allValues(name)).as(name).isEqualTo(container.headers().allValues(name));
        }
        return first;
    }

    /** The body with the multipart boundary, which each answer draws anew, taken out. */
    static String withoutBoundary(HttpResponse<byte[]> r) {
        String body = new String(r.body(), StandardCharsets.ISO_8859_1);
        String boundary = boundary(r);
        return boundary == null ? body : body.replace(boundary, "BOUNDARY");
    }

    static String boundary(HttpResponse<byte[]> r) {
        for (String p : r.headers().firstValue("Content-Type").orElse("").split(";")) {
            if (p.trim().startsWith("boundary=")) {
                return p.trim().substring("boundary=".length());
            }
        }
        return null;
    }

    /** The media type and its parameters but the boundary, in order (the container's JAX-RS reorders them). */
    static java.util.List<String> mediaType(HttpResponse<byte[]> r) {
        return java.util.Arrays.stream(r.headers().firstValue("Content-Type").orElse("").split(";"))
                .map(String::trim).filter(p -> !p.startsWith("boundary=")).sorted().toList();
    }

    @ParameterizedTest
    @EnumSource(HttpClient.Version.class) // HTTP/2: the JDK client upgrades the connection (h2c)
    void framesAreTheContainersAnswer(HttpClient.Version version) throws Exception {
        HttpResponse<byte[]> multipart = sameAnswerBothWays(ct + "/frames/1", true, "?via=container",
                r -> r.version(version).header("Accept", MULTIPART));
        assertThat(multipart.statusCode()).isEqualTo(200);
        assertThat(multipart.headers().firstValue("Content-Length")).hasValue(
                Integer.toString(multipart.body().length));
        HttpResponse<byte[]> single = sameAnswerBothWays(ct + "/frames/1", true, "?via=container",
                r -> r.version(version).header("Accept", "application/octet-stream"));
        assertThat(single.body()).hasSize(128 * 128 * 2);
        assertThat(withoutBoundary(multipart)).contains(new String(single.body(), StandardCharsets.ISO_8859_1));
        // the whole Pixel Data as bulk data comes from the same file ranges (through the container)
        assertThat(admin.send(admin.request(ct + "/bulk/7FE00010").version(version)
                .header("Accept", "application/octet-stream")).body()).isEqualTo(single.body());
    }

    @ParameterizedTest
    @EnumSource(HttpClient.Version.class)
    void thumbnailsAreTheContainersAnswer(HttpClient.Version version) throws Exception {
        HttpResponse<byte[]> jpeg = sameAnswerBothWays(ct + "/thumbnail", true, "?via=container",
                r -> r.version(version));
        assertThat(jpeg.statusCode()).isEqualTo(200);
        assertThat(jpeg.headers().firstValue("Content-Type")).hasValue("image/jpeg");
        String etag = jpeg.headers().firstValue("ETag").orElseThrow();
        assertThat(sameAnswerBothWays(ct + "/thumbnail", true, "?via=container",
                r -> r.version(version).header("If-None-Match", etag)).statusCode()).isEqualTo(304);
        HttpResponse<byte[]> png = sameAnswerBothWays(ct + "/thumbnail?viewport=64,32", true, "&via=container",
                r -> r.version(version).header("Accept", "image/png"));
        assertThat(png.headers().firstValue("Content-Type")).hasValue("image/png");
        String series = ct.substring(0, ct.indexOf("/instances/"));
        assertThat(sameAnswerBothWays(series + "/thumbnail", true, "?via=container", r -> r.version(version))
                .body()).isEqualTo(jpeg.body()); // the series' one instance stands for it
        assertThat(sameAnswerBothWays(ct + "/frames/1/thumbnail", true, "?via=container", r -> r.version(version))
                .body()).isEqualTo(jpeg.body());
    }

    @Test
    void refusalsAndWhatTheFrontDoesNotSendAreTheContainers() throws Exception {
        assertThat(sameAnswerBothWays(ct + "/frames/2", false, "?via=container",
                r -> r.header("Accept", MULTIPART)).statusCode()).isEqualTo(404);
        String missing = ct.substring(0, ct.lastIndexOf('/') + 1) + "1.2.3.4.5";
        assertThat(sameAnswerBothWays(missing + "/frames/1", false, "?via=container",
                r -> r.header("Accept", MULTIPART)).statusCode()).isEqualTo(404);
        assertThat(sameAnswerBothWays(missing + "/thumbnail", false, "?via=container", r -> r).statusCode())
                .isEqualTo(404);
        assertThat(sameAnswerBothWays(ct + "/frames/x", false, "?via=container",
                r -> r.header("Accept", MULTIPART)).statusCode()).isEqualTo(400);
        assertThat(sameAnswerBothWays(ct + "/thumbnail?viewport=0,0", false, "&via=container", r -> r)
                .statusCode()).isEqualTo(400);
        assertThat(sameAnswerBothWays(ct + "/frames/1", false, "?via=container",
                r -> r.header("Accept", "image/jpeg")).statusCode()).isEqualTo(406);
        // compressed frames as stored: sent by the container
        HttpResponse<byte[]> compressed = sameAnswerBothWays(rle + "/frames/1", false, "?via=container",
                r -> r.header("Accept", "multipart/related; type=\"image/dicom-rle\""));
        assertThat(compressed.statusCode()).isEqualTo(200);
        StoreClient anonymous = new StoreClient(SharedStore.store(), null);
        assertThat(anonymous.get(ct + "/frames/1").statusCode()).isEqualTo(401);
        assertThat(anonymous.get(ct + "/thumbnail").statusCode()).isEqualTo(401);
    }

    @Test
    void aReplacedOrDeletedObjectIsNeverServedFromWhatWasRemembered() throws Exception {
        String path = "/images/it/front-dicomweb/replaced.dcm";
        // an instance of its own (another SOP Instance UID of the same length): no other path holds it
        String sop = "1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322";
        byte[] original = new String(Samples.bytes(Samples.dicom("CT_small.dcm")), StandardCharsets.ISO_8859_1)
                .replace(sop, sop.replace("12322", "12399")).getBytes(StandardCharsets.ISO_8859_1);
        Path file = java.nio.file.Files.write(java.nio.file.Files.createTempFile("replaced", ".dcm"), original);
        file.toFile().deleteOnExit();
        String instance = put(path, file);
        assertThat(instance).endsWith("12399");
        HttpResponse<byte[]> before = admin.send(admin.request(instance + "/frames/1")
                .header("Accept", "application/octet-stream"));
        assertThat(before.statusCode()).isEqualTo(200);
        // the same instance again, same size, other pixels (the first pixel's low byte changed)
        byte[] changed = original.clone();
        int at = original.length - 138 - 128 * 128 * 2; // before the trailing padding: the first pixel
        changed[at] ^= 0x01;
        assertThat(admin.put(path, changed).statusCode()).isEqualTo(204);
        HttpResponse<byte[]> after = admin.send(admin.request(instance + "/frames/1")
                .header("Accept", "application/octet-stream"));
        assertThat(after.body()[0]).isEqualTo((byte) (before.body()[0] ^ 0x01));
        assertThat(admin.delete(path).statusCode()).isIn(200, 204);
        assertThat(admin.send(admin.request(instance + "/frames/1").header("Accept", "application/octet-stream"))
                .statusCode()).isEqualTo(404);
        assertThat(admin.get(instance + "/thumbnail").statusCode()).isEqualTo(404);
    }
}
