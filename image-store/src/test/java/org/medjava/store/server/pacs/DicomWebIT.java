package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.server.pacs.DicomJson.array;
import static org.medjava.store.server.pacs.DicomJson.object;
import static org.medjava.store.server.pacs.DicomJson.value;

import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.testsupport.DecodedPixels;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * DICOMweb over HTTP with the JDK's client: STOW-RS (and what it refuses), QIDO-RS matching, WADO-RS retrieval,
 * metadata from the index with bulk data by URI, frames, rendering with filters, and the store's access rules.
 */
@ExtendWith(PacsStore.class)
class DicomWebIT {

    private static final String BOUNDARY = "dicomweb-it-boundary";
    private static final String STOW_TYPE = "multipart/related; type=\"application/dicom\"; boundary=" + BOUNDARY;

    @TempDir
    static Path work;
    static StoreClient admin;
    static StoreClient reader;
    static StoreClient anonymous;
    static TestStudy study;

    @BeforeAll
    static void storeAStudy() throws Exception {
        PayaraStore store = PacsStore.store();
        admin = StoreClient.admin(store);
        admin.sendText(admin.request("/admin/users/wendy").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"reader-pass-1\",\"role\":\"reader\"}")));
        reader = new StoreClient(store, PayaraStore.basic("wendy", "reader-pass-1"));
        anonymous = new StoreClient(store, null);
        study = TestStudy.create(work.resolve("study"), "WEB-1", "CT_small.dcm", "MR_small.dcm",
                "SC_rgb_jpeg_dcmtk.dcm");

        HttpResponse<String> r = stow(admin, "/dicomweb/studies", study.instances().stream()
                .map(i -> Samples.bytes(i.file())).toList());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonObject answer = object(r.body());
        assertThat(answer.getJsonObject("00081199").getJsonArray("Value")).hasSize(3);
        assertThat(answer).doesNotContainKey("00081198");
        assertThat(answer.getJsonObject("00081190").getJsonArray("Value").getString(0))
                .endsWith("/dicomweb/studies/" + study.studyUid());
    }

    private static HttpResponse<String> stow(StoreClient client, String path, List<byte[]> parts) throws Exception {
        return client.sendText(client.request(path).header("Content-Type", STOW_TYPE)
                .header("Accept", "application/dicom+json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom(BOUNDARY, parts))));
    }


    private static Path stored(TestStudy.Instance i) {
        return PacsStore.store().dataDir().resolve("images").resolve(study.storePath(i));
    }

    private String instancePath(TestStudy.Instance i) {
        return "/dicomweb/studies/" + study.studyUid() + "/series/" + i.seriesUid() + "/instances/"
                + i.sopInstanceUid();
    }

    @Test
    void stowStoresWhereTheNetworkStores() {
        for (TestStudy.Instance i : study.instances()) {
            assertThat(stored(i)).as(i.sample()).exists();
        }
    }

    @Test
    void stowReportsEachFailureWithItsReason() throws Exception {
        TestStudy other = TestStudy.create(work.resolve("other"), "WEB-2", "MR_small.dcm", "CT_small.dcm");
        byte[] notDicom = "this is not DICOM".getBytes();

        HttpResponse<String> mixed = stow(admin, "/dicomweb/studies",
                List.of(Samples.bytes(other.instances().get(0).file()), notDicom,
                        Samples.bytes(study.instances().get(0).file())));
        assertThat(mixed.statusCode()).as(mixed.body()).isEqualTo(202);
        JsonObject answer = object(mixed.body());
        assertThat(answer.getJsonObject("00081199").getJsonArray("Value")).hasSize(1);
        JsonArray failed = answer.getJsonObject("00081198").getJsonArray("Value");
        assertThat(failed).hasSize(2);
        assertThat(failed.stream().map(f -> value(f.asJsonObject(), "00081197"))).containsExactlyInAnyOrder(
                Integer.toString(0xC000), Integer.toString(0x0111)); // not DICOM; a duplicate
        assertThat(mixed.headers().firstValue("Warning")).isPresent();

        HttpResponse<String> wrongStudy = stow(admin, "/dicomweb/studies/1.2.3.4",
                List.of(Samples.bytes(other.instances().get(1).file())));
        assertThat(wrongStudy.statusCode()).isEqualTo(409);
        assertThat(value(object(wrongStudy.body()).getJsonObject("00081198").getJsonArray("Value")
                .getJsonObject(0), "00081197")).isEqualTo(Integer.toString(0xA900));
        assertThat(PacsStore.store().dataDir().resolve("images/dicom/WEB-2/" + other.studyUid() + "/"
                + other.instances().get(1).seriesUid())).doesNotExist();
    }

    @Test
    void stowRefusesWhatIsNotMultipartDicomAndWhoMayNotUpload() throws Exception {
        byte[] file = Samples.bytes(study.instances().get(0).file());
        HttpResponse<String> single = admin.sendText(admin.request("/dicomweb/studies")
                .header("Content-Type", "application/dicom").POST(HttpRequest.BodyPublishers.ofByteArray(file)));
        assertThat(single.statusCode()).isEqualTo(415);

        HttpResponse<String> truncated = admin.sendText(admin.request("/dicomweb/studies").header("Content-Type",
                STOW_TYPE).POST(HttpRequest.BodyPublishers.ofString("--" + BOUNDARY + "\r\n\r\nno end")));
        assertThat(truncated.statusCode()).isEqualTo(400);
        assertThat(truncated.body()).contains("malformed");

        assertThat(stow(reader, "/dicomweb/studies", List.of(file)).statusCode()).isEqualTo(403);
        assertThat(stow(anonymous, "/dicomweb/studies", List.of(file)).statusCode()).isEqualTo(401);
    }

    @Test
    void qidoMatchesAtEveryLevel() throws Exception {
        JsonArray studies = array(reader.sendText(reader.request("/dicomweb/studies?PatientID=WEB-1*&includefield="
                + "InstitutionName").header("Accept", "application/dicom+json")).body());
        assertThat(studies).hasSize(1);
        JsonObject s = studies.getJsonObject(0);
        assertThat(value(s, "0020000D")).isEqualTo(study.studyUid());
        assertThat(value(s, "00201208")).isEqualTo("3"); // NumberOfStudyRelatedInstances
        assertThat(s).containsKey("00080080"); // InstitutionName, from the stored metadata
        assertThat(value(s, "00081190")).endsWith("/dicomweb/studies/" + study.studyUid());

        assertThat(array(reader.getJson("/dicomweb/studies/" + study.studyUid() + "/series").body())).hasSize(3);
        assertThat(array(reader.getJson("/dicomweb/studies/" + study.studyUid() + "/series?Modality=MR").body()))
                .hasSize(1);
        JsonArray page = array(reader.getJson("/dicomweb/studies/" + study.studyUid()
                + "/instances?limit=2&offset=1").body());
        assertThat(page).hasSize(2);
        String name = s.getJsonObject("00100010").getJsonArray("Value").getJsonObject(0).getString("Alphabetic");
        String lowerCase = java.net.URLEncoder.encode(name.toLowerCase(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(array(reader.getJson("/dicomweb/studies?PatientID=WEB-1&PatientName=" + lowerCase).body()))
                .isEmpty();
        assertThat(array(reader.getJson("/dicomweb/studies?fuzzymatching=true&PatientID=WEB-1&PatientName="
                + lowerCase).body())).hasSize(1);
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        JsonArray one = array(reader.getJson("/dicomweb/instances?SOPInstanceUID=" + ct.sopInstanceUid()
                + "&includefield=all").body());
        assertThat(one).hasSize(1);
        assertThat(one.getJsonObject(0)).containsKeys("00280030", "00180050"); // PixelSpacing, SliceThickness

        HttpResponse<String> bad = reader.getJson("/dicomweb/studies?StudyDate=yesterday");
        assertThat(bad.statusCode()).isEqualTo(400);
        HttpResponse<String> month13 = reader.getJson("/dicomweb/studies?StudyDate=20231301");
        assertThat(month13.statusCode()).isEqualTo(400);
        assertThat(month13.body()).contains("2023-13-01 is not a day");
        HttpResponse<String> maybe = reader.getJson("/dicomweb/studies?fuzzymatching=maybe");
        assertThat(maybe.statusCode()).isEqualTo(400);
        assertThat(maybe.body()).contains("fuzzymatching=maybe is neither true nor false");
        assertThat(anonymous.getJson("/dicomweb/studies").statusCode()).isEqualTo(401);
    }

    /**
     * One object stored by STOW and PUT at two more paths (as the shipped samples are): one instance in QIDO's
     * counts, in /instances, in /metadata, in the store's /index API, and in every page of an instance search.
     */
    @Test
    void anInstanceHeldBySeveralFilesIsCountedListedAndPagedOnce() throws Exception {
        TestStudy copies = TestStudy.create(work.resolve("copies"), "WEB-COPIES", "CT_small.dcm", "MR_small.dcm");
        assertThat(stow(admin, "/dicomweb/studies", copies.instances().stream().map(i -> Samples.bytes(i.file()))
                .toList()).statusCode()).isEqualTo(200);
        for (String path : List.of("/images/web-copies/a/ct.dcm", "/images/web-copies/b/ct.dcm")) {
            HttpResponse<String> put = admin.put(path, copies.instance("CT_small.dcm").file());
            assertThat(put.statusCode()).as(put.body()).isBetween(200, 204);
        }
        String study = "/dicomweb/studies/" + copies.studyUid();

        JsonArray qido = array(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + copies.studyUid()).body());
        int instances = array(reader.getJson(study + "/instances").body()).size();
        int metadata = array(reader.getJson(study + "/metadata").body()).size();
        assertThat(instances).isEqualTo(2);
        assertThat(metadata).isEqualTo(instances);
        assertThat(value(qido.getJsonObject(0), "00201208")).isEqualTo(Integer.toString(instances));
        assertThat(array(reader.getJson(study + "/series").body()).stream()
                .mapToInt(s -> Integer.parseInt(value(s.asJsonObject(), "00201209"))).sum()).isEqualTo(instances);
        assertThat(reader.getJson("/index/studies?StudyInstanceUID=" + copies.studyUid()).body())
                .contains("\"NumberOfStudyRelatedInstances\":" + instances);

        List<String> paged = new java.util.ArrayList<>();
        for (int offset = 0; offset <= instances; offset++) {
            JsonArray page = array(reader.getJson("/dicomweb/instances?PatientID=WEB-COPIES&limit=1&offset="
                    + offset).body());
            assertThat(page).as("offset " + offset).hasSize(offset < instances ? 1 : 0);
            page.forEach(i -> paged.add(value(i.asJsonObject(), "00080018")));
        }
        assertThat(paged).containsExactlyInAnyOrderElementsOf(copies.instances().stream()
                .map(TestStudy.Instance::sopInstanceUid).toList());
    }

    @Test
    void wadoRetrievesTheStoredObjects() throws Exception {
        HttpResponse<byte[]> r = reader.send(reader.request("/dicomweb/studies/" + study.studyUid())
                .header("Accept", "multipart/related; type=\"application/dicom\"; transfer-syntax=*"));
        assertThat(r.statusCode()).isEqualTo(200);
        List<Multipart.Part> parts = Multipart.parse(r.body(), r.headers().firstValue("Content-Type").orElseThrow());
        assertThat(parts).hasSize(3);
        for (TestStudy.Instance i : study.instances()) {
            assertThat(parts).anyMatch(p -> java.util.Arrays.equals(p.body(), Samples.bytes(stored(i))));
        }

        TestStudy.Instance mr = study.instance("MR_small.dcm");
        HttpResponse<byte[]> implicit = reader.send(reader.request(instancePath(mr)).header("Accept",
                "multipart/related; type=\"application/dicom\"; transfer-syntax=1.2.840.10008.1.2"));
        Multipart.Part converted = Multipart.parse(implicit.body(), implicit.headers().firstValue("Content-Type")
                .orElseThrow()).get(0);
        assertThat(converted.contentType()).contains("transfer-syntax=1.2.840.10008.1.2");
        Path file = Files.write(work.resolve("implicit.dcm"), converted.body());
        assertThat(Part10File.read(file).transferSyntaxUid()).isEqualTo("1.2.840.10008.1.2");
        assertThat(PixelData.of(file)).isEqualTo(PixelData.of(stored(mr)));

        assertThat(reader.get("/dicomweb/studies/1.2.3.999").statusCode()).isEqualTo(404);
    }

    @Test
    void wadoDecompressesOnRequestWhatCanBeDecodedHere() throws Exception {
        TestStudy compressed = TestStudy.create(work.resolve("compressed"), "WEB-3", "MR_small_jp2klossless.dcm",
                "MR_small_jpeg_ls_lossless.dcm");
        assertThat(stow(admin, "/dicomweb/studies", compressed.instances().stream().map(i -> Samples.bytes(i.file()))
                .toList()).statusCode()).isEqualTo(200);
        String explicitLe = "multipart/related; type=\"application/dicom\"; transfer-syntax=1.2.840.10008.1.2.1";

        TestStudy.Instance jpeg = study.instance("SC_rgb_jpeg_dcmtk.dcm"); // lossy, YBR_FULL
        Path rgb = retrieved(instancePath(jpeg), explicitLe, "jpeg-as-ele.dcm");
        assertThat(Part10File.read(rgb).transferSyntaxUid()).isEqualTo("1.2.840.10008.1.2.1");
        assertThat(DecodedPixels.of(rgb)).isEqualTo(DecodedPixels.of(stored(jpeg)));
        assertThat(dump(rgb)).contains("(0028,0004) CS [RGB]", "(0028,2110) CS [01]");

        TestStudy.Instance j2k = compressed.instance("MR_small_jp2klossless.dcm");
        Path decoded = retrieved(compressedPath(compressed, j2k), explicitLe, "j2k-as-ele.dcm");
        assertThat(PixelData.of(decoded)).isEqualTo(PixelData.of(Samples.dicom("MR_small.dcm"))); // the original

        TestStudy.Instance jls = compressed.instance("MR_small_jpeg_ls_lossless.dcm");
        Path fromJls = retrieved(compressedPath(compressed, jls), explicitLe, "jls-as-ele.dcm");
        assertThat(PixelData.of(fromJls)).isEqualTo(PixelData.of(Samples.dicom("MR_small.dcm")));

        HttpResponse<String> refused = reader.sendText(reader.request("/dicomweb/studies/" + compressed.studyUid())
                .header("Accept", "multipart/related; type=\"application/dicom\"; "
                        + "transfer-syntax=1.2.840.10008.1.2.4.100"));
        assertThat(refused.statusCode()).isEqualTo(406); // MPEG2: not written here
        assertThat(refused.body()).contains("transfer-syntax=*");
    }

    @Test
    void wadoTranscodesOnRequestToTheCompressedSyntaxesAndCompressesWithLossOnlyWhenNamed() throws Exception {
        String sv1 = "1.2.840.10008.1.2.4.70";
        HttpResponse<byte[]> r = reader.send(reader.request("/dicomweb/studies/" + study.studyUid()).header("Accept",
                "multipart/related; type=\"application/dicom\"; transfer-syntax=" + sv1));
        assertThat(r.statusCode()).isEqualTo(200);
        List<Multipart.Part> parts = Multipart.parse(r.body(), r.headers().firstValue("Content-Type").orElseThrow());
        assertThat(parts).hasSize(3);
        for (Multipart.Part part : parts) {
            assertThat(part.contentType()).contains("transfer-syntax=" + sv1);
            Path file = Files.write(work.resolve("sv1-" + parts.indexOf(part) + ".dcm"), part.body());
            String sop = Part10File.read(file).sopInstanceUid();
            TestStudy.Instance i = study.instances().stream().filter(x -> x.sopInstanceUid().equals(sop))
                    .findFirst().orElseThrow();
            assertThat(Part10File.read(file).transferSyntaxUid()).isEqualTo(sv1);
            Path plain = work.resolve("sv1-" + parts.indexOf(part) + "-dcmdjpeg.dcm");
            Command.run(Command.of("dcmdjpeg", file, plain)).assertOk();
            assertThat(DecodedPixels.of(plain)).as(i.sample()).isEqualTo(DecodedPixels.of(stored(i)));
            if (!i.sample().equals("SC_rgb_jpeg_dcmtk.dcm")) {
                assertThat(PixelData.of(plain)).as(i.sample()).isEqualTo(PixelData.of(stored(i)));
            }
        }

        TestStudy.Instance ct = study.instance("CT_small.dcm");
        HttpResponse<byte[]> rle = reader.send(reader.request(instancePath(ct)).header("Accept",
                "application/dicom; transfer-syntax=1.2.840.10008.1.2.5"));
        assertThat(rle.statusCode()).isEqualTo(200);
        assertThat(rle.headers().firstValue("Content-Type").orElseThrow()).contains("1.2.840.10008.1.2.5");
        Path rleFile = Files.write(work.resolve("ct-rle.dcm"), rle.body());
        Path rleDecoded = work.resolve("ct-rle-dcmdrle.dcm");
        Command.run(Command.of("dcmdrle", rleFile, rleDecoded)).assertOk();
        assertThat(PixelData.of(rleDecoded)).isEqualTo(PixelData.of(stored(ct)));

        HttpResponse<byte[]> lossy = reader.send(reader.request(instancePath(ct)).header("Accept",
                "application/dicom; transfer-syntax=1.2.840.10008.1.2.4.81"));
        assertThat(lossy.statusCode()).isEqualTo(200);
        Path nearLossless = Files.write(work.resolve("ct-jpeg-ls-near.dcm"), lossy.body());
        assertThat(Part10File.read(nearLossless).transferSyntaxUid()).isEqualTo("1.2.840.10008.1.2.4.81");
        assertThat(dump(nearLossless)).contains("(0028,2110) CS [01]", "(0028,2114) CS [ISO_14495_1]");
        Command.run(Command.of("dcmdjpls", nearLossless, work.resolve("ct-jpeg-ls-near-dcmdjpls.dcm"))).assertOk();

        for (String eightBitOnly : new String[] {"1.2.840.10008.1.2.4.50", "1.2.840.10008.1.2.4.91"}) {
            HttpResponse<String> refused = reader.sendText(reader.request(instancePath(ct)).header("Accept",
                    "application/dicom; transfer-syntax=" + eightBitOnly));
            assertThat(refused.statusCode()).as(eightBitOnly).isEqualTo(406);
            assertThat(refused.body()).as(eightBitOnly).contains("8-bit", "transfer-syntax=*");
        }

        HttpResponse<byte[]> any = reader.send(reader.request(instancePath(ct)).header("Accept",
                "application/dicom; transfer-syntax=*, "
                        + "application/dicom; transfer-syntax=1.2.840.10008.1.2.4.50;q=0.5"));
        assertThat(any.statusCode()).isEqualTo(200);
        assertThat(any.body()).isEqualTo(Samples.bytes(stored(ct))); // as stored, never lossy unless named
    }

    /**
     * HTJ2K (issue 34): an object in HTJ2K is stored (it was refused 422 before), decompressed for a client that asks
     * for it to the very samples, rendered; and an uncompressed object is written in HTJ2K for a client that names it,
     * which decodes to its samples. The object is made by the store's encoder; its decoding and encoding are checked
     * against OpenJPEG's and OpenJPH's own tools in image-codec's and store-core's tests.
     */
    @Test
    void htj2kIsStoredDecodedRenderedAndWrittenOnRequest() throws Exception {
        String htj2k = org.medjava.store.core.transcode.TransferSyntaxes.HTJ2K_RPCL_LOSSLESS;
        TestStudy plain = TestStudy.create(work.resolve("htj2k-source"), "WEB-HT", "MR_small.dcm");
        TestStudy.Instance mr = plain.instance("MR_small.dcm");
        byte[] encoded = org.medjava.store.core.transcode.Transcoder.part10(mr.file(),
                Part10File.read(mr.file()).transferSyntaxUid(), htj2k, "TEST");
        HttpResponse<String> stored = stow(admin, "/dicomweb/studies", List.of(encoded));
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
        String path = compressedPath(plain, mr);
        Path decoded = retrieved(path, "multipart/related; type=\"application/dicom\"; "
                + "transfer-syntax=1.2.840.10008.1.2.1", "htj2k-as-ele.dcm");
        assertThat(PixelData.of(decoded)).isEqualTo(PixelData.of(Samples.dicom("MR_small.dcm")));
        HttpResponse<byte[]> rendered = reader.send(reader.request(path + "/rendered").header("Accept", "image/png"));
        assertThat(rendered.statusCode()).isEqualTo(200);
        assertThat(ImageIO.read(new ByteArrayInputStream(rendered.body())).getWidth()).isEqualTo(64);

        TestStudy.Instance ct = study.instance("CT_small.dcm");
        HttpResponse<byte[]> asHtj2k = reader.send(reader.request(instancePath(ct)).header("Accept",
                "application/dicom; transfer-syntax=" + htj2k));
        assertThat(asHtj2k.statusCode()).isEqualTo(200);
        assertThat(asHtj2k.headers().firstValue("Content-Type").orElseThrow()).contains(htj2k);
        Path file = Files.write(work.resolve("ct-htj2k.dcm"), asHtj2k.body());
        assertThat(Part10File.read(file).transferSyntaxUid()).isEqualTo(htj2k);
        Path back = Files.write(work.resolve("ct-htj2k-back.dcm"), org.medjava.store.core.transcode.Transcoder
                .part10(file, htj2k, "1.2.840.10008.1.2.1", "TEST"));
        assertThat(PixelData.of(back)).isEqualTo(PixelData.of(stored(ct)));
    }

    /**
     * Progressive loading (issue 34): one frame of an HTJ2K object asked for as {@code image/jhc} in the accept query
     * parameter, as Cornerstone3D asks, comes as its codestream in a single part that can be taken in byte ranges —
     * a prefix, then the rest, together the whole frame, which decodes to the object's samples; a range past its end
     * is 416; the Accept header asks the same.
     */
    @Test
    void htj2kFramesComeInByteRangesForProgressiveLoading() throws Exception {
        String htj2k = org.medjava.store.core.transcode.TransferSyntaxes.HTJ2K_RPCL_LOSSLESS;
        TestStudy s = TestStudy.create(work.resolve("htj2k-ranges"), "WEB-HR", "CT_small.dcm");
        TestStudy.Instance ct = s.instance("CT_small.dcm");
        HttpResponse<String> stored = stow(admin, "/dicomweb/studies", List.of(org.medjava.store.core.transcode
                .Transcoder.part10(ct.file(), Part10File.read(ct.file()).transferSyntaxUid(), htj2k, "TEST")));
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
        String frame = compressedPath(s, ct) + "/frames/1";

        HttpResponse<byte[]> whole = reader.send(reader.request(frame + "?accept=image/jhc"));
        assertThat(whole.statusCode()).as(new String(whole.body(), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(200);
        assertThat(whole.headers().firstValue("Content-Type").orElseThrow()).startsWith("image/jphc");
        assertThat(whole.headers().firstValue("Accept-Ranges")).hasValue("bytes");
        byte[] codestream = whole.body();
        assertThat(org.medjava.codec.dicom.Jpeg2000.decodeFrame(htj2k, codestream, 128, 128, 1).samples())
                .isEqualTo(PixelData.of(Samples.dicom("CT_small.dcm")));

        HttpResponse<byte[]> prefix = reader.send(reader.request(frame + "?accept=image/jhc")
                .header("Range", "bytes=0-999"));
        assertThat(prefix.statusCode()).isEqualTo(206);
        assertThat(prefix.headers().firstValue("Content-Range")).hasValue("bytes 0-999/" + codestream.length);
        HttpResponse<byte[]> rest = reader.send(reader.request(frame).header("Accept", "image/jphc")
                .header("Range", "bytes=1000-"));
        assertThat(rest.statusCode()).isEqualTo(206);
        byte[] joined = new byte[prefix.body().length + rest.body().length];
        System.arraycopy(prefix.body(), 0, joined, 0, prefix.body().length);
        System.arraycopy(rest.body(), 0, joined, prefix.body().length, rest.body().length);
        assertThat(joined).isEqualTo(codestream);

        HttpResponse<String> past = reader.sendText(reader.request(frame + "?accept=image/jhc")
                .header("Range", "bytes=" + codestream.length + "-"));
        assertThat(past.statusCode()).isEqualTo(416);
        assertThat(past.headers().firstValue("Content-Range")).hasValue("bytes */" + codestream.length);
    }

    private Path retrieved(String path, String accept, String name) throws Exception {
        HttpResponse<byte[]> r = reader.send(reader.request(path).header("Accept", accept));
        assertThat(r.statusCode()).isEqualTo(200);
        Multipart.Part part = Multipart.parse(r.body(), r.headers().firstValue("Content-Type").orElseThrow()).get(0);
        assertThat(part.contentType()).contains("transfer-syntax=1.2.840.10008.1.2.1");
        return Files.write(work.resolve(name), part.body());
    }

    private static String compressedPath(TestStudy s, TestStudy.Instance i) {
        return "/dicomweb/studies/" + s.studyUid() + "/series/" + i.seriesUid() + "/instances/" + i.sopInstanceUid();
    }

    private static String dump(Path file) throws Exception {
        return Command.run(Command.of("dcmdump", "-q", file)).assertOk().output();
    }

    @Test
    void metadataComesWithBulkDataByUri() throws Exception {
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        JsonArray metadata = array(reader.getJson(instancePath(ct) + "/metadata").body());
        JsonObject m = metadata.getJsonObject(0);
        assertThat(value(m, "00080018")).isEqualTo(ct.sopInstanceUid());
        String pixelUri = m.getJsonObject("7FE00010").getString("BulkDataURI");
        assertThat(m.getJsonObject("7FE00010")).doesNotContainKey("InlineBinary");

        HttpResponse<byte[]> bulk = reader.send(reader.request(pixelUri.substring(pixelUri.indexOf("/dicomweb"))));
        assertThat(bulk.statusCode()).isEqualTo(200);
        byte[] pixels = Multipart.parse(bulk.body(), bulk.headers().firstValue("Content-Type").orElseThrow())
                .get(0).body();
        assertThat(pixels).isEqualTo(PixelData.of(stored(ct)));
        assertThat(array(reader.getJson("/dicomweb/studies/" + study.studyUid() + "/metadata").body())).hasSize(3);
    }

    /** Series or study metadata: made ready once, gzip and identity alike, and changed by a write at once. */
    @Test
    void seriesAndStudyMetadataAreServedReadyInGzipOrNotAndWritesAreSeenAtOnce() throws Exception {
        TestStudy s = TestStudy.create(work.resolve("ready"), "WEB-34", "CT_small.dcm", "MR_small.dcm");
        TestStudy.Instance ct = s.instance("CT_small.dcm");
        assertThat(stow(admin, "/dicomweb/studies", List.of(Samples.bytes(ct.file()))).statusCode()).isEqualTo(200);
        String series = "/dicomweb/studies/" + s.studyUid() + "/series/" + ct.seriesUid() + "/metadata";
        String whole = "/dicomweb/studies/" + s.studyUid() + "/metadata";

        HttpResponse<String> identity = reader.getJson(series);
        HttpResponse<byte[]> gzip = reader.send(reader.request(series).header("Accept-Encoding", "gzip, br"));
        assertThat(identity.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(gzip.headers().firstValue("Content-Encoding")).contains("gzip");
        assertThat(gzip.headers().firstValue("Vary").orElseThrow()).contains("Accept-Encoding");
        assertThat(gunzip(gzip.body())).isEqualTo(identity.body());
        assertThat(value(array(identity.body()).getJsonObject(0), "00080018")).isEqualTo(ct.sopInstanceUid());
        String tag = gzip.headers().firstValue("ETag").orElseThrow();
        assertThat(reader.send(reader.request(series).header("Accept-Encoding", "gzip").header("If-None-Match", tag))
                .statusCode()).isEqualTo(304);
        assertThat(array(gunzip(reader.send(reader.request(whole).header("Accept-Encoding", "gzip")).body())))
                .hasSize(1);

        TestStudy.Instance mr = s.instance("MR_small.dcm");
        assertThat(stow(admin, "/dicomweb/studies", List.of(Samples.bytes(mr.file()))).statusCode()).isEqualTo(200);
        assertThat(array(reader.getJson(whole).body())).hasSize(2);
        assertThat(array(gunzip(reader.send(reader.request(whole).header("Accept-Encoding", "gzip")).body())))
                .hasSize(2);
        assertThat(admin.sendText(admin.request("/dicomweb/studies/" + s.studyUid() + "/series/" + ct.seriesUid())
                .DELETE()).statusCode()).isEqualTo(200);
        assertThat(reader.send(reader.request(series).header("Accept-Encoding", "gzip")).statusCode()).isEqualTo(404);
        assertThat(array(reader.getJson(whole).body())).hasSize(1);
        assertThat(reader.send(reader.request(series).header("Accept-Encoding", "gzip").header("If-None-Match", tag))
                .statusCode()).isEqualTo(404);
    }

    private static String gunzip(byte[] gzip) throws Exception {
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void framesAndRenderedImages() throws Exception {
        TestStudy.Instance jpeg = study.instance("SC_rgb_jpeg_dcmtk.dcm");
        HttpResponse<byte[]> frame = reader.send(reader.request(instancePath(jpeg) + "/frames/1"));
        Multipart.Part part = Multipart.parse(frame.body(), frame.headers().firstValue("Content-Type")
                .orElseThrow()).get(0);
        assertThat(part.contentType()).startsWith("image/jpeg");
        assertThat(part.body()).isEqualTo(PixelData.of(stored(jpeg)));
        assertThat(reader.get(instancePath(jpeg) + "/frames/2").statusCode()).isEqualTo(404);

        TestStudy.Instance ct = study.instance("CT_small.dcm");
        HttpResponse<byte[]> plain = reader.send(reader.request(instancePath(ct) + "/rendered?window=40,400")
                .header("Accept", "image/png"));
        HttpResponse<byte[]> filtered = reader.send(reader.request(instancePath(ct)
                + "/rendered?window=40,400&filter=blur:n=5").header("Accept", "image/png"));
        assertThat(plain.headers().firstValue("Content-Type")).hasValue("image/png");
        var a = ImageIO.read(new ByteArrayInputStream(plain.body()));
        var b = ImageIO.read(new ByteArrayInputStream(filtered.body()));
        assertThat(a.getWidth()).isEqualTo(128);
        assertThat(b.getWidth()).isEqualTo(128);
        assertThat(plain.body()).isNotEqualTo(filtered.body());
        assertThat(reader.get(instancePath(ct) + "/rendered?filter=nosuchfilter").statusCode()).isEqualTo(400);
    }
}
