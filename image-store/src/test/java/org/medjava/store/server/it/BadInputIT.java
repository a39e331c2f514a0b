package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.store.core.testsupport.HostileBodies;
import org.medjava.store.core.testsupport.HostileCase;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.RawHttp;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;
import org.medjava.store.testkit.store.StoreSnapshot;

/**
 * The store probed as an attacker would, from a table ({@link #corpus}): malformed, truncated and wrong-type DICOM,
 * images whose headers lie, path tricks, bad query parameters, bad multipart and JSON, hostile Host and forwarded
 * headers, connections dropped mid-upload, Range and conditional-header oddities, the HTTP layer's own refusals.
 * Across the corpus: no 5xx (a 503 with Retry-After only where a case is about admission control), every 4xx with a
 * short body that names no class and not the server product, no answer naming the server product, and nothing
 * stored changed (files with their SHA-256 and index rows, before and after).

 */
@ExtendWith(SharedStore.class)
class BadInputIT {

    private static final String DIR = "/images/bad-input/";
    private static final String STUDY = "1.3.6.1.4.1.5962.1.2.1.20040119072730.12322";
    private static final String SERIES = "1.3.6.1.4.1.5962.1.3.1.1.20040119072730.12322";
    private static final String SOP = "1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322";
    private static final String INSTANCE = "/dicomweb/studies/" + STUDY + "/series/" + SERIES + "/instances/" + SOP;
    /** A qualified class name or an exception's simple name, as a stack trace or an error page would show. */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(java|javax|jakarta|org|com|sun|fish)\\.[a-z0-9_]+\\.[A-Za-z0-9_.$]+|\\b[A-Z]\\w+(Exception|Error)\\b");
    private static final Pattern PRODUCT = Pattern.compile("(?i)payara|glassfish|grizzly|jersey");

    private static final byte[] CT = Samples.bytes(Samples.dicom("CT_small.dcm"));
    private static final byte[] MR = Samples.bytes(Samples.dicom("MR_small.dcm"));
    private static final byte[] MR_RLE = Samples.bytes(Samples.dicom("MR_small_RLE.dcm"));
    private static final byte[] MR_IMPLICIT = Samples.bytes(Samples.dicom("MR_small_implicit.dcm"));
    private static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));
    private static final byte[] PNG = HostileBodies.png(64, 64);
    private static final byte[] JPEG = HostileBodies.jpeg(64, 48);

    @TestFactory
    @Timeout(300)
    Stream<DynamicNode> theCorpus() throws Exception {
        PayaraStore store = SharedStore.store();
        StoreClient admin = StoreClient.admin(store);
        for (Map.Entry<String, byte[]> fixture : Map.of("ct.dcm", CT, "a.gif", GIF, "p.png", PNG, "j.jpg", JPEG)
                .entrySet()) {
            assertThat(admin.put(DIR + fixture.getKey(), fixture.getValue()).statusCode()).isIn(201, 204);
        }
        List<HostileCase> corpus = corpus(store.port());
        assertThat(corpus).hasSizeGreaterThanOrEqualTo(250);
        StoreSnapshot before = StoreSnapshot.take(store, admin);
        RawHttp http = RawHttp.to(store);
        Map<String, List<HostileCase>> groups = new TreeMap<>();
        corpus.forEach(c -> groups.computeIfAbsent(c.group(), g -> new ArrayList<>()).add(c));
        List<DynamicNode> nodes = new ArrayList<>();
        groups.forEach((group, cases) -> nodes.add(org.junit.jupiter.api.DynamicContainer.dynamicContainer(group,
                cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> run(http, admin, c))))));
        nodes.add(DynamicTest.dynamicTest("nothing stored changed", () ->
                assertThat(StoreSnapshot.take(store, admin)).as("files with SHA-256 and index rows")
                        .isEqualTo(before)));
        return nodes.stream();
    }

    private static void run(RawHttp http, StoreClient admin, HostileCase c) throws Exception {
        byte[] body = c.body() == null ? null : c.body().get();
        if (c.dropAfter() >= 0) {
            http.dropMidUpload(c.method(), c.target(), c.headers(), body.length, HostileBodies.cut(body, c.dropAfter()));
            Thread.sleep(200);
            RawHttp.Response after = http.send("GET", c.target(), authorization(), null);
            assertThat(after.status()).as("%s: after the dropped upload", c).isEqualTo(404);
            return;
        }
        RawHttp.Response r = http.send(c.method(), c.target(), c.headers(), body);
        String text = r.text();
        String described = c + " answered " + r.status() + " " + (text.length() > 300 ? text.substring(0, 300)
                : text);
        if (r.status() >= 500) {
            assertThat(c.admissionControl() && r.status() == 503 && r.header("Retry-After") != null)
                    .as("5xx: %s", described).isTrue();
        } else if (c.expectedStatus() > 0) {
            assertThat(r.status()).as(described).isEqualTo(c.expectedStatus());
        } else if (c.expectedStatus() == 0) {
            assertThat(r.status()).as(described).isBetween(400, 499);
        }
        if (r.status() >= 400 && c.emptyBodyWhy() == null) {
            assertThat(text).as("4xx body: %s", described).isNotBlank();
            if (String.valueOf(r.header("Content-Type")).startsWith("application/json")) {
                assertThat(text).as("4xx body: %s", described).contains("\"message\"");
            }
        }
        assertThat(CLASS_NAME.matcher(text).find()).as("a class name in %s", described).isFalse();
        assertThat(PRODUCT.matcher(text).find()).as("the server product in %s", described).isFalse();
        assertThat(String.valueOf(r.header("Server")) + r.header("X-Powered-By"))
                .as("Server / X-Powered-By of %s", c).doesNotContainIgnoringCase("payara");
        if (c.mustNotContain() != null) {
            assertThat(text).as(described).doesNotContain(c.mustNotContain());
            assertThat(String.valueOf(r.header("Location"))).as(described).doesNotContain(c.mustNotContain());
        }
    }

    private static String authorization() {
        return "Authorization: " + PayaraStore.admin() + "\r\n";
    }

    // ------------------------------------------------------------------------------------------- the corpus

    static List<HostileCase> corpus(int port) {
        List<HostileCase> all = new ArrayList<>();
        dicom(all);
        images(all);
        paths(all);
        types(all);
        renderParameters(all);
        queries(all);
        stow(all);
        json(all);
        hosts(all, port);
        dropped(all);
        ranges(all);
        conditionals(all);
        httpLayer(all);
        return all;
    }

    private static HostileCase put(String group, String name, String file, byte[] body) {
        return HostileCase.of(group, name, "PUT", DIR + file).headers(authorization())
                .header("Content-Type", "application/octet-stream").body(body);
    }

    private static HostileCase get(String group, String name, String target) {
        return HostileCase.of(group, name, "GET", target).headers(authorization());
    }

    private static void dicom(List<HostileCase> all) {
        String g = "DICOM: truncated, malformed, nested";
        // cut points avoid element boundaries (a file cut exactly between elements is a different, whole file)
        int[] ctCuts = {1, 64, 128, 131, 133, 140, 200, 300, 450, 700, 1000, 1500, 2500, 4000, 6000, 9000, 15000,
                22000, 30000, 36000, 39000, 39060, CT.length - 137, CT.length - 133, CT.length - 127, CT.length - 100,
                CT.length - 64, CT.length - 50, CT.length - 10, CT.length - 1};
        for (int cut : ctCuts) {
            HostileCase c = put(g, "CT cut to " + cut + " of " + CT.length + " bytes", "cut-ct-" + cut + ".dcm",
                    HostileBodies.cut(CT, cut));
            all.add(cut >= CT.length - 137 ? c.expect(422) : c); // inside the trailing padding: 422 (docs/operations)
        }
        for (byte[] sample : List.of(MR, MR_RLE, MR_IMPLICIT)) {
            String which = sample == MR ? "MR" : sample == MR_RLE ? "MR RLE" : "MR implicit";
            for (int k = 1; k <= 10; k++) {
                int cut = (int) ((long) sample.length * k / 11) + 3;
                all.add(put(g, which + " cut to " + cut, "cut-" + which.replace(' ', '-') + "-" + k + ".dcm",
                        HostileBodies.cut(sample, cut)));
            }
            all.add(put(g, which + " cut 1 byte short", "short-" + which.replace(' ', '-') + ".dcm",
                    HostileBodies.cut(sample, sample.length - 1)).expect(422));
        }
        byte[] preambleOnly = new byte[132];
        System.arraycopy("DICM".getBytes(StandardCharsets.US_ASCII), 0, preambleOnly, 128, 4);
        all.add(put(g, "preamble and DICM only", "preamble.dcm", preambleOnly));
        byte[] garbage = new byte[4096];
        new java.util.Random(15).nextBytes(garbage);
        System.arraycopy(preambleOnly, 0, garbage, 0, 132);
        all.add(put(g, "DICM then random bytes", "garbage.dcm", garbage));
        byte[] noise = new byte[2048];
        new java.util.Random(16).nextBytes(noise);
        all.add(put(g, "random bytes named .dcm", "noise.dcm", noise));
        byte[] lyingLength = CT.clone();
        lyingLength[CT.length - 130] = (byte) 0xFF; // the padding's length now runs past the end
        lyingLength[CT.length - 129] = (byte) 0x7F;
        all.add(put(g, "last element declares more than the file holds", "lying-length.dcm", lyingLength)
                .expect(422));
        byte[] deepCut = HostileBodies.nestedDicom(2000, "1.2.826.0.1.3680043.9.15.1");
        all.add(put(g, "2,000 nested sequences, cut before they close", "deep-cut.dcm",
                HostileBodies.cut(deepCut, deepCut.length - 2000 * 8 - 50)).expect(422));
        all.add(put(g, "2,000 nested sequences", "deep.dcm", HostileBodies.nestedDicom(2000,
                "1.2.826.0.1.3680043.9.15.2")).expect(422));
        all.add(HostileCase.of(g, "STOW-RS of 2,000 nested sequences", "POST", "/dicomweb/studies")
                .headers(authorization()).header("Content-Type", "multipart/related; type=\"application/dicom\"; "
                        + "boundary=B15").body(() -> org.medjava.store.testkit.http.Multipart.dicom("B15",
                        List.of(HostileBodies.nestedDicom(2000, "1.2.826.0.1.3680043.9.15.3")))));
    }

    private static void images(List<HostileCase> all) {
        String g = "images: lying headers, truncation, huge dimensions";
        all.add(put(g, "PNG claiming 65535x65535 (CRC fixed)", "lie1.png",
                HostileBodies.pngClaiming(PNG, 65535, 65535, true)));
        all.add(put(g, "PNG claiming 65535x65535 (CRC wrong)", "lie2.png",
                HostileBodies.pngClaiming(PNG, 65535, 65535, false)));
        all.add(put(g, "PNG claiming 0x0", "lie3.png", HostileBodies.pngClaiming(PNG, 0, 0, true)));
        all.add(put(g, "PNG claiming 2^31-1 x 2^31-1", "lie4.png",
                HostileBodies.pngClaiming(PNG, Integer.MAX_VALUE, Integer.MAX_VALUE, true)));
        all.add(put(g, "PNG claiming 100000x100000", "lie5.png", HostileBodies.pngClaiming(PNG, 100000, 100000, true)));
        all.add(put(g, "GIF claiming 65535x65535", "lie.gif", HostileBodies.gifClaiming(GIF, 65535, 65535)));
        all.add(put(g, "JPEG claiming 65500x65500", "lie.jpg", HostileBodies.jpegClaiming(JPEG, 65500, 65500)));
        all.add(put(g, "JPEG claiming 0x0", "lie0.jpg", HostileBodies.jpegClaiming(JPEG, 0, 0)));
        for (int k = 1; k <= 8; k++) {
            all.add(put(g, "PNG cut to " + k + "/9", "cut" + k + ".png", HostileBodies.cut(PNG, PNG.length * k / 9)));
            all.add(put(g, "GIF cut to " + k + "/9", "cut" + k + ".gif", HostileBodies.cut(GIF, GIF.length * k / 9)));
            all.add(put(g, "JPEG cut to " + k + "/9", "cut" + k + ".jpg",
                    HostileBodies.cut(JPEG, JPEG.length * k / 9)));
        }
        all.add(put(g, "PNG signature only", "sig.png", HostileBodies.cut(PNG, 8)));
        all.add(put(g, "GIF89a only", "sig.gif", "GIF89a".getBytes(StandardCharsets.US_ASCII)));
        all.add(put(g, "JPEG SOI only", "sig.jpg", new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF}));
        all.add(put(g, "PNG of 16384x16384 (782 KB on the wire)", "huge.png",
                null).body(() -> HostileBodies.png(16384, 16384)).admission());
        all.add(put(g, "PNG of 268,000,000x1", "wide.png", null).body(() -> HostileBodies.png(268_000_000, 1))
                .admission());
    }

    private static void paths(List<HostileCase> all) {
        String g = "paths: traversal, NUL, backslash, path parameters, overlong";
        String container = "the container refuses the address before the application sees it";
        String[][] refused = {
                {"encoded .. in a directory", "/images/bad-input/%2e%2e/%2e%2e/x.gif"},
                {"mixed-case encoded ..", "/images/%2E%2e/x.gif"},
                {"CR LF", "/images/a%0d%0ab.gif"},
                {"control character", "/images/a%01b.gif"},
                {"DEL", "/images/a%7fb.gif"},
                {"empty segment", "/images/a//b.gif"},
                {"hidden name", "/images/.hidden.gif"},
                {"jsessionid", "/images/bad-input/x;jsessionid=1.gif"},
                {"JSESSIONID upper case", "/images/bad-input/x;JSESSIONID=1.gif"},
                {"path parameter", "/images/bad-input/y;foo=1.gif"},
                {"path parameter on a directory", "/images/bad-input;v=1/z.gif"},
                {"name of 300 bytes", "/images/bad-input/" + "n".repeat(300) + ".gif"},
        };
        for (String[] r : refused) {
            all.add(HostileCase.of(g, "PUT " + r[0], "PUT", r[1]).headers(authorization())
                    .header("Content-Type", "image/gif").body(GIF));
            all.add(get(g, "GET " + r[0], r[1]));
        }
        String[][] containerRefused = {
                {"encoded slash traversal", "/images/..%2f..%2fetc%2fpasswd"},
                {"encoded backslash", "/images/a%5c..%5cb.gif"},
                {"raw backslash", "/images/a\\..\\b.gif"},
                {"NUL alone", "/images/%00"},
                {"../etc/passwd raw", "/images/../../etc/passwd"},
                {"encoded .. above the root", "/images/%2e%2e/%2e%2e/etc/passwd"},
                {"overlong UTF-8 dots", "/images/%c0%ae%c0%ae/x.gif"},
                {"NUL", "/images/a%00b.gif"},
                {"invalid UTF-8", "/images/%ff%fe.gif"},
        };
        for (String[] r : containerRefused) {
            all.add(HostileCase.of(g, "PUT " + r[0], "PUT", r[1]).headers(authorization())
                    .header("Content-Type", "image/gif").body(GIF).emptyBodyAllowed(container));
            all.add(get(g, "GET " + r[0], r[1]).emptyBodyAllowed(container));
        }
        all.add(get(g, "double-encoded .. is a name, not a step", "/images/%252e%252e/x.gif").expect(404));
        all.add(get(g, "address of 20,000 characters", "/images/" + "a/".repeat(10_000) + "x.gif")
                .emptyBodyAllowed(container));
        all.add(HostileCase.of(g, "DELETE with traversal", "DELETE", "/images/%2e%2e/bad-input/a.gif")
                .headers(authorization()));
        all.add(HostileCase.of(g, "DELETE with a path parameter", "DELETE", "/images/bad-input/a.gif;x=1")
                .headers(authorization()).expect(400));
    }

    private static void types(List<HostileCase> all) {
        String g = "wrong Content-Type or extension";
        Object[][] wrong = {
                {"GIF named .png", "t1.png", GIF, "application/octet-stream"},
                {"GIF named .dcm", "t2.dcm", GIF, "application/octet-stream"},
                {"GIF named .jpg", "t3.jpg", GIF, "application/octet-stream"},
                {"PNG named .gif", "t4.gif", PNG, "application/octet-stream"},
                {"JPEG named .png", "t5.png", JPEG, "application/octet-stream"},
                {"DICOM named .gif", "t6.gif", CT, "application/octet-stream"},
                {"DICOM named .png", "t7.png", CT, "application/octet-stream"},
                {"GIF sent as image/png", "t8", GIF, "image/png"},
                {"PNG sent as application/dicom", "t9", PNG, "application/dicom"},
                {"GIF sent as text/plain", "t10", GIF, "text/plain"},
                {"DICOM sent as image/jpeg", "t11", CT, "image/jpeg"},
                {"PPM", "t12.ppm", "P5 2 2 255\n\0\0\0\0".getBytes(StandardCharsets.US_ASCII),
                        "application/octet-stream"},
                {"text", "t13.txt", "hello".getBytes(StandardCharsets.US_ASCII), "text/plain"},
                {"empty body", "t14.gif", new byte[0], "image/gif"},
                {"HTML", "t15.html", "<html><script>alert(1)</script></html>".getBytes(StandardCharsets.US_ASCII),
                        "text/html"},
                {"ZIP", "t16.zip", new byte[] {'P', 'K', 3, 4, 0, 0, 0, 0}, "application/zip"},
        };
        for (Object[] w : wrong) {
            all.add(HostileCase.of(g, (String) w[0], "PUT", DIR + w[1]).headers(authorization())
                    .header("Content-Type", (String) w[3]).body((byte[]) w[2]));
        }
        all.add(HostileCase.of(g, "malformed Content-Type", "PUT", DIR + "t17.gif").headers(authorization())
                .header("Content-Type", ";;;/").body(GIF));
    }

    private static void renderParameters(List<HostileCase> all) {
        String g = "render parameters";
        String[] bad = {"render=bmp", "render=", "render=png&render=gif", "window=abc", "window=1", "window=1,2,3",
                "window=40,400&window=50,500", "window=NaN,NaN", "window=1,0", "window=-1,-5", "region=",
                "region=1,2,3", "region=a,b,c,d", "region=0,0,0,0", "region=9000,9000,5,5", "region=-100,-100,5,5",
                "region=0,0,-1,5", "region=2147483647,2147483647,2147483647,2147483647", "region=0,0,8,8&region=1,1,8,8",
                "filter=", "filter=%20", "filter=nope", "filter=blur:n=abc", "filter=blur:n=-5",
                "filter=blur:n=99999999999", "filter=blur||sharpen", "filter=blur:=3", "filter=blur:n", "filter=:n=3",
                "filter=%7C", "frame=-1", "frame=abc", "frame=99", "frame=99999999999", "frame=0&frame=0", "impl=fast",
                "impl=", "impl=optimized&impl=parallel"};
        for (String file : List.of("ct.dcm", "a.gif")) {
            for (String q : bad) {
                all.add(get(g, file + " ?" + q, DIR + file + "?render=png&" + q));
            }
        }
        StringBuilder chain = new StringBuilder("blur");
        for (int i = 1; i < 1000; i++) {
            chain.append("|blur");
        }
        all.add(get(g, "a chain of 1,000 filters", DIR + "a.gif?render=png&filter=" + chain).expect(400));
        all.add(get(g, "a filter's parameters repeated 1,000 times", DIR + "a.gif?render=png&filter=blur:"
                + "n=3,".repeat(999) + "n=3").below500());
    }

    private static void queries(List<HostileCase> all) {
        String g = "index and QIDO parameters";
        String[] bad = {"limit=abc", "limit=-1", "offset=abc", "offset=-1", "limit=1e3", "limit=99999999999",
                "limit=1&limit=2", "Foo=1", "StudyDate=abc", "StudyInstanceUID=1.2.*", "StudyDate=20200101-19990101x"};
        for (String q : bad) {
            all.add(get(g, "/index/studies?" + q, "/index/studies?" + q));
        }
        for (String level : List.of("/index/patients", "/index/studies/" + STUDY + "/series",
                "/index/series/" + SERIES + "/instances")) {
            all.add(get(g, level + "?limit=abc", level + "?limit=abc").expect(400));
            all.add(get(g, level + "?offset=-1", level + "?offset=-1").expect(400));
        }
        String[] qido = {"limit=abc", "offset=abc", "limit=-1", "includefield=NotATag", "includefield=ZZZZZZZZ",
                "StudyDate=2020-01", "orderby=Nope", "NoSuchKeyword=1", "StudyInstanceUID=1.2.*"};
        for (String level : List.of("/dicomweb/studies", "/dicomweb/series", "/dicomweb/instances")) {
            for (String q : qido) {
                all.add(get(g, level + "?" + q, level + "?" + q).headers("Accept: application/dicom+json\r\n"));
            }
            all.add(get(g, level + " matching a NUL", level + "?00100010=%00")
                    .headers("Accept: application/dicom+json\r\n").below500());
        }
        String[] rendered = {"window=1,2,sigmoid", "window=40,400&window=50,500", "region=0,0,0,0", "filter=",
                "region=9000,9000,5,5", "impl=fast"};
        for (String q : rendered) {
            all.add(get(g, "rendered ?" + q, INSTANCE + "/rendered?" + q).headers("Accept: image/png\r\n"));
        }
        for (String q : List.of("viewport=0,0", "viewport=abc", "viewport=64,64&viewport=32,32",
                "viewport=99999,99999")) {
            all.add(get(g, "thumbnail ?" + q, INSTANCE + "/thumbnail?" + q).headers("Accept: image/png\r\n"));
        }
        for (String frames : List.of("0", "abc", "99", "1,,2", "-1")) {
            all.add(get(g, "frames/" + frames, INSTANCE + "/frames/" + frames)
                    .headers("Accept: multipart/related; type=\"application/octet-stream\"\r\n"));
        }
        all.add(get(g, "bulk of an unknown tag", INSTANCE + "/bulk/ZZZZZZZZ"));
        all.add(get(g, "a study that is not there", "/dicomweb/studies/1.2.3.4.5.6.7.8.9/metadata"));
        all.add(get(g, "a UID with a wildcard", "/dicomweb/studies/1.2.*/metadata"));
    }

    private static void stow(List<HostileCase> all) {
        String g = "STOW-RS: bad multipart";
        String stow = "/dicomweb/studies";
        String related = "multipart/related; type=\"application/dicom\"; boundary=B15";
        Object[][] bad = {
                {"no boundary", "multipart/related; type=\"application/dicom\"", "x".getBytes()},
                {"not multipart", "application/dicom", CT},
                {"JSON instead", "application/json", "{}".getBytes()},
                {"empty body", related, new byte[0]},
                {"no closing boundary", related, "--B15\r\nContent-Type: application/dicom\r\n\r\nabc".getBytes()},
                {"other boundary", related, HostileBodies.multipart("OTHER", "Content-Type: application/dicom\r\n\r\nx")},
                {"a part that is not DICOM", related, HostileBodies.multipart("B15",
                        "Content-Type: application/dicom\r\n\r\nnot DICOM")},
                {"a text part", related, HostileBodies.multipart("B15", "Content-Type: text/plain\r\n\r\nhello")},
                {"a part without headers", related, HostileBodies.multipart("B15", "\r\nnothing")},
                {"a truncated DICOM part", related, org.medjava.store.testkit.http.Multipart.dicom("B15",
                        List.of(HostileBodies.cut(CT, CT.length - 50)))},
                {"a DICOM part cut in its pixels", related, org.medjava.store.testkit.http.Multipart.dicom("B15",
                        List.of(HostileBodies.cut(MR, 5000)))},
                {"boundary of 1,000 characters", "multipart/related; type=\"application/dicom\"; boundary="
                        + "b".repeat(1000), HostileBodies.multipart("b".repeat(1000), "\r\nx")},
                {"type=application/json", "multipart/related; type=\"application/json\"; boundary=B15",
                        HostileBodies.multipart("B15", "Content-Type: application/json\r\n\r\n{}")},
        };
        for (Object[] b : bad) {
            all.add(HostileCase.of(g, (String) b[0], "POST", stow).headers(authorization())
                    .header("Content-Type", (String) b[1]).body((byte[]) b[2]));
        }
        all.add(HostileCase.of(g, "to a study that disagrees with the part", "POST", stow + "/1.2.3.4.5")
                .headers(authorization()).header("Content-Type", related)
                .body(org.medjava.store.testkit.http.Multipart.dicom("B15", List.of(CT))));
    }

    private static void json(List<HostileCase> all) {
        String g = "bad JSON to /auth/login, /admin/users, /derived";
        Object[][] bodies = {{"unterminated object", "{bad"}, {"an array", "[]"}, {"null", "null"},
                {"empty", ""}, {"a string", "\"admin\""}, {"a number for the password",
                "{\"user\":\"admin\",\"password\":5}"}, {"deeply nested arrays", new String(HostileBodies
                .deepJson(10_000), StandardCharsets.US_ASCII)}, {"invalid UTF-8", "{\"user\":\"\u00ff\u00fe\"}"}};
        for (Object[] b : bodies) {
            byte[] bytes = ((String) b[1]).getBytes(StandardCharsets.ISO_8859_1);
            all.add(HostileCase.of(g, "login: " + b[0], "POST", "/auth/login")
                    .header("Content-Type", "application/json").body(bytes));
            all.add(HostileCase.of(g, "user: " + b[0], "PUT", "/admin/users/bad-input-user").headers(authorization())
                    .header("Content-Type", "application/json").body(bytes));
            all.add(HostileCase.of(g, "derived: " + b[0], "POST", "/derived").headers(authorization())
                    .header("Content-Type", "application/json").body(bytes));
        }
        all.add(HostileCase.of(g, "login as text/plain", "POST", "/auth/login").header("Content-Type", "text/plain")
                .body("admin".getBytes()).expect(415));
        all.add(HostileCase.of(g, "login form without a password", "POST", "/auth/login")
                .header("Content-Type", "application/x-www-form-urlencoded").body("user=admin".getBytes()));
        all.add(HostileCase.of(g, "derived from a traversal", "POST", "/derived").headers(authorization())
                .header("Content-Type", "application/json").body("{\"source\":\"../../etc/passwd\"}".getBytes()));
        all.add(HostileCase.of(g, "derived with an empty filter", "POST", "/derived").headers(authorization())
                .header("Content-Type", "application/json")
                .body(("{\"source\":\"bad-input/ct.dcm\",\"filters\":[\"\"]}").getBytes()).expect(400));
    }

    private static void hosts(List<HostileCase> all, int port) {
        String g = "hostile Host and forwarded headers";
        String evil = "evil.example";
        String[] targets = {"/dicomweb/studies", "/dicomweb/studies/" + STUDY + "/series", INSTANCE + "/metadata",
                "/dicomweb/instances?includefield=all", "/images/bad-input"};
        for (String t : targets) {
            all.add(HostileCase.of(g, "Host: evil.example:1234 on " + t, "GET", t)
                    .headers("Host: evil.example:1234\r\n" + authorization())
                    .header("Accept", "application/dicom+json").below500().mustNotContain(evil));
            all.add(get(g, "X-Forwarded-Host on " + t, t).header("X-Forwarded-Host", evil)
                    .header("X-Forwarded-Proto", "https").header("Accept", "application/dicom+json")
                    .below500().mustNotContain(evil));
            all.add(get(g, "Forwarded on " + t, t).header("Forwarded", "for=1.2.3.4;host=" + evil + ";proto=https")
                    .header("Accept", "application/dicom+json").below500().mustNotContain(evil));
        }
        all.add(get(g, "X-Forwarded-Prefix", "/dicomweb/studies").header("X-Forwarded-Prefix", "/evil")
                .below500().mustNotContain("/evil"));
        String container = "the container refuses a malformed Host before the application sees it";
        all.add(HostileCase.of(g, "two Host headers", "GET", "/dicomweb/studies")
                .headers("Host: 127.0.0.1:" + port + "\r\nHost: " + evil + "\r\n" + authorization())
                .below500().emptyBodyAllowed(container).mustNotContain(evil));
        all.add(HostileCase.of(g, "Host with a space", "GET", "/dicomweb/studies")
                .headers("Host: a b\r\n" + authorization()).below500().emptyBodyAllowed(container).mustNotContain("a b"));
        all.add(HostileCase.of(g, "Host with user info", "GET", "/dicomweb/studies")
                .headers("Host: user@" + evil + "\r\n" + authorization()).below500().emptyBodyAllowed(container)
                .mustNotContain(evil));
        all.add(HostileCase.of(g, "Host of 6,000 characters", "GET", "/dicomweb/studies")
                .headers("Host: " + "h".repeat(6000) + "\r\n" + authorization()).below500()
                .emptyBodyAllowed(container).mustNotContain("hhhhhhhh"));
        all.add(HostileCase.of(g, "Host with CRLF-like escapes", "GET", "/dicomweb/studies")
                .headers("Host: " + evil + "%0d%0aX-Evil:%201\r\n" + authorization()).below500()
                .emptyBodyAllowed(container).mustNotContain(evil));
    }

    private static void dropped(List<HostileCase> all) {
        String g = "connections dropped mid-upload";
        for (int k = 1; k <= 4; k++) {
            byte[] body = CT;
            int at = body.length * k / 5;
            all.add(HostileCase.of(g, "PUT DICOM dropped at " + k + "/5", "PUT", DIR + "dropped-" + k + ".dcm")
                    .headers(authorization()).header("Content-Type", "application/dicom").body(body).dropAfter(at));
        }
        all.add(HostileCase.of(g, "PUT GIF dropped after its header", "PUT", DIR + "dropped.gif")
                .headers(authorization()).header("Content-Type", "image/gif").body(GIF).dropAfter(20));
        all.add(HostileCase.of(g, "PUT PNG dropped before any byte", "PUT", DIR + "dropped.png")
                .headers(authorization()).header("Content-Type", "image/png").body(PNG).dropAfter(0));
    }

    private static void ranges(List<HostileCase> all) {
        String g = "Range oddities";
        for (String range : List.of("bytes=abc", "bytes=5-1", "bytes=99999-", "bytes=-0", "bytes=0-0,1-1",
                "bytes=", "bytes=--1", "bytes=0-99999999999999999999", "items=0-1", "bytes=-99999999",
                "bytes=0-1,0-1,0-1,0-1,0-1,0-1,0-1,0-1", "bytes= 1 - 2 ")) {
            all.add(get(g, range, DIR + "a.gif").header("Range", range).below500());
        }
        all.add(get(g, "Range with a garbage If-Range", DIR + "a.gif").header("Range", "bytes=0-9")
                .header("If-Range", "garbage").below500());
        all.add(get(g, "Range on a rendering", DIR + "a.gif?render=png").header("Range", "bytes=0-9").below500());
    }

    private static void conditionals(List<HostileCase> all) {
        String g = "conditional-header oddities";
        String[][] gets = {{"If-None-Match", "garbage"}, {"If-None-Match", "*"}, {"If-Match", "\"nope\""},
                {"If-Modified-Since", "garbage"}, {"If-Modified-Since", "Sat, 01 Jan 2100 00:00:00 GMT"},
                {"If-Unmodified-Since", "Thu, 01 Jan 1970 00:00:00 GMT"}, {"If-None-Match", "W/\"x\", \"y\""},
                {"If-Match", "*"}};
        for (String[] h : gets) {
            all.add(get(g, "GET with " + h[0] + ": " + h[1], DIR + "a.gif").header(h[0], h[1]).below500());
            all.add(get(g, "render with " + h[0] + ": " + h[1], DIR + "a.gif?render=png").header(h[0], h[1])
                    .below500());
        }
        all.add(put(g, "PUT with If-Match of another version", "a.gif", PNG).header("If-Match", "\"nope\"")
                .expect(412));
        all.add(put(g, "PUT with If-None-Match: * over a stored file", "a.gif", PNG).header("If-None-Match", "*")
                .expect(412));
        all.add(HostileCase.of(g, "DELETE with If-Match of another version", "DELETE", DIR + "a.gif")
                .headers(authorization()).header("If-Match", "\"nope\"").expect(412));
        all.add(put(g, "PUT with a malformed If-Match", "a.gif", PNG).header("If-Match", "nope"));
    }

    private static void httpLayer(List<HostileCase> all) {
        String g = "refusals of the HTTP layer";
        String container = "the container refuses the request before the application sees it";
        all.add(get(g, "no such resource", "/no/such/thing").expect(404));
        all.add(get(g, "no such DICOMweb resource", "/dicomweb/nothing").expect(404));
        all.add(HostileCase.of(g, "PATCH a file", "PATCH", DIR + "a.gif").headers(authorization()).expect(405));
        all.add(HostileCase.of(g, "DELETE /filters", "DELETE", "/filters").headers(authorization()).expect(405));
        all.add(HostileCase.of(g, "POST /index/studies", "POST", "/index/studies").headers(authorization())
                .body(new byte[0]).expect(405));
        all.add(HostileCase.of(g, "unknown method", "FOO", DIR + "a.gif").headers(authorization()).expect(405));
        all.add(get(g, "Accept only XML", "/filters").header("Accept", "application/xml").expect(406));
        all.add(HostileCase.of(g, "Content-Length larger than the upload limit", "PUT", DIR + "big.gif")
                .headers(authorization() + "Content-Length: " + (40L << 20) + "\r\n")
                .header("Content-Type", "image/gif").body(GIF).expect(413));
        all.add(HostileCase.of(g, "Content-Length not a number", "PUT", DIR + "cl.gif").headers(authorization()
                + "Content-Length: abc\r\n").body(GIF).emptyBodyAllowed(container));
        all.add(HostileCase.of(g, "unsupported Transfer-Encoding", "PUT", DIR + "te.gif").headers(authorization()
                + "Transfer-Encoding: gzip\r\n").body(GIF).emptyBodyAllowed(container));
        all.add(HostileCase.of(g, "TRACE", "TRACE", "/images/").headers(authorization()).expect(405)
                .emptyBodyAllowed(container));
        all.add(get(g, "a header of 20 KB", "/images/").header("X-Big", "x".repeat(20_000))
                .emptyBodyAllowed(container));
        all.add(HostileCase.of(g, "wrong credentials: a 401 with the usual body", "GET", DIR + "a.gif")
                .headers("Authorization: Basic bm9ib2R5Om5vcGU=\r\n").expect(401));
        all.add(HostileCase.of(g, "malformed Basic credentials", "GET", DIR + "a.gif")
                .headers("Authorization: Basic %%%\r\n").expect(401));
        all.add(HostileCase.of(g, "an unknown authentication scheme", "GET", DIR + "a.gif")
                .headers("Authorization: Negotiate abc\r\n").expect(401));
    }
}
