package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.network.CStoreRequestCommandMessage;
import com.pixelmed.network.CompositeResponseHandler;
import com.pixelmed.network.PresentationContext;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.ingest.DicomRules;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.peers.Storescp;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Every storage SOP class family through every door: a corpus of public objects (structured reports, key object
 * selection, presentation state, RT plan, structure set and dose, ECG waveform, encapsulated PDF and CDA, raw data,
 * images) and bad ones (no StudyInstanceUID, an image without Pixel Data, truncated data) goes in by HTTP PUT,
 * C-STORE (DCMTK's storescu; a raw PixelMed C-STORE for what DCMTK cannot read) and STOW-RS. Each file gets the same
 * verdict with the same problem named by every door; what is stored is byte for byte what was sent, is in the index
 * (QIDO-RS and C-FIND), comes back byte for byte by WADO-RS, C-GET and C-MOVE, and a study-level C-FIND answers the
 * same values as QIDO-RS.
 */
@ExtendWith(PacsStore.class)
class SopClassesIT {

    /** Objects the store keeps: every family (the images from the samples). */
    private static final List<Path> KEPT = List.of(Samples.sopClass("test-SR.dcm"), Samples.sopClass("reportsi.dcm"),
            Samples.sopClass("kos.dcm"), Samples.sopClass("gsps.dcm"), Samples.sopClass("rtplan.dcm"),
            Samples.sopClass("rtstruct.dcm"), Samples.dicom("rtdose.dcm"), // RLE RT Dose: DicomRulesTest (dcmodify
            // cannot give rtdose_rle_1frame.dcm new UIDs: its odd-length OW Pixel Data is "corrupted data" to DCMTK)
            Samples.sopClass("waveform_ecg.dcm"), Samples.sopClass("pdf.dcm"), Samples.sopClass("cda.dcm"),
            Samples.sopClass("raw.dcm"), Samples.dicom("CT_small.dcm"), Samples.dicom("liver_1frame.dcm"),
            Samples.dicom("MR_small_jpeg_ls_lossless.dcm"));

    private static final String JPEG_LS = "MR_small_jpeg_ls_lossless.dcm";

    /** Objects every door refuses, with the problem each must name. */
    private static final Map<Path, DicomRules.Problem> REFUSED = new LinkedHashMap<>();

    static {
        REFUSED.put(Samples.sopClass("ct-no-study-uid.dcm"), DicomRules.Problem.MISSING_ATTRIBUTE);
        REFUSED.put(Samples.sopClass("sr-no-study-uid.dcm"), DicomRules.Problem.MISSING_ATTRIBUTE);
        REFUSED.put(Samples.sopClass("hotiron.dcm"), DicomRules.Problem.NOT_KEPT);
        REFUSED.put(Samples.sopClass("ct-no-pixel-data.dcm"), DicomRules.Problem.MISSING_PIXEL_DATA);
        REFUSED.put(Samples.sopClass("rtplan_truncated.dcm"), DicomRules.Problem.TRUNCATED);
        REFUSED.put(Samples.dicom("MR_truncated.dcm"), DicomRules.Problem.TRUNCATED);
    }

    private static final String STOW_TYPE = "multipart/related; type=\"application/dicom\"; boundary=SOPCLASSES";
    private static final Pattern ERROR_COMMENT = Pattern.compile("\\(0000,0902\\) LO \\[([^\\]]*)\\]");
    /** storescu's debug form of a success ("DIMSE Status : 0x0000: Success"). */
    private static final Pattern SUCCESS = Pattern.compile("DIMSE Status\\s*: 0x0000");

    @TempDir
    static Path work;
    static StoreClient admin;
    /** The kept objects, one copy (new UIDs) for each door, so no door sees another's as a duplicate. */
    static TestStudy byHttp;
    static TestStudy byDimse;
    static TestStudy byStow;
    /** door -> file -> verdict ("stored", or the problem's words). */
    static final Map<String, Map<String, String>> VERDICTS = new TreeMap<>();

    @BeforeAll
    static void sendTheCorpusThroughEveryDoor() throws Exception {
        admin = StoreClient.admin(PacsStore.store());
        byHttp = TestStudy.create(work.resolve("http"), "SOP-HTTP", KEPT);
        byDimse = TestStudy.create(work.resolve("dimse"), "SOP-DIMSE", KEPT);
        byStow = TestStudy.create(work.resolve("stow"), "SOP-STOW", KEPT);
        for (TestStudy.Instance i : byHttp.instances()) {
            verdict("http", i.sample(), put(i.sample(), i.file()));
        }
        for (TestStudy.Instance i : byDimse.instances()) {
            verdict("dimse", i.sample(), storescu(sentAsStored(i), i.file()));
        }
        for (TestStudy.Instance i : byStow.instances()) {
            verdict("stow", i.sample(), stow(i.file()));
        }
        for (Path bad : REFUSED.keySet()) {
            String name = bad.getFileName().toString();
            verdict("http", name, put(name, bad));
            verdict("dimse", name, REFUSED.get(bad) == DicomRules.Problem.TRUNCATED ? rawCStore(bad)
                    : REFUSED.get(bad) == DicomRules.Problem.NOT_KEPT ? refusedInNegotiation(bad)
                    : storescu(List.of(), bad));
            verdict("stow", name, stow(bad));
        }
    }

    private static void verdict(String door, String file, String verdict) {
        VERDICTS.computeIfAbsent(door, d -> new TreeMap<>()).put(file, verdict);
    }

    @Test
    void everyDoorGivesEveryFileTheSameVerdictNamingTheSameProblem() {
        Map<String, String> expected = new TreeMap<>();
        KEPT.forEach(p -> expected.put(p.getFileName().toString(), "stored"));
        REFUSED.forEach((p, problem) -> expected.put(p.getFileName().toString(), problem.words));
        assertThat(VERDICTS.get("http")).as("HTTP PUT").isEqualTo(expected);
        assertThat(VERDICTS.get("dimse")).as("C-STORE").isEqualTo(expected);
        assertThat(VERDICTS.get("stow")).as("STOW-RS").isEqualTo(expected);
    }

    @Test
    void whatIsStoredIsWhatWasSentAndComesBackByteForByteOverWadoRs() throws Exception {
        for (TestStudy.Instance i : byHttp.instances()) {
            assertThat(Files.readAllBytes(images().resolve("it/sop-classes/" + i.sample()))).as(i.sample())
                    .isEqualTo(Files.readAllBytes(i.file()));
        }
        for (TestStudy study : List.of(byDimse, byStow)) {
            for (TestStudy.Instance i : study.instances()) {
                Path stored = images().resolve(study.storePath(i));
                assertThat(dataSet(stored)).as(i.sample()).isEqualTo(dataSet(i.file()));
                HttpResponse<byte[]> wado = admin.send(admin.request("/dicomweb/studies/" + study.studyUid()
                        + "/series/" + i.seriesUid() + "/instances/" + i.sopInstanceUid())
                        .header("Accept", "application/dicom"));
                assertThat(wado.statusCode()).as(i.sample()).isEqualTo(200);
                assertThat(wado.body()).as(i.sample()).isEqualTo(Files.readAllBytes(stored));
            }
        }
        for (Path bad : REFUSED.keySet()) { // nothing of a refused object anywhere
            assertThat(images().resolve("it/sop-classes/" + bad.getFileName())).doesNotExist();
        }
    }

    @Test
    void everyKeptObjectIsIndexedAndFoundByQidoRsAndCFind() throws Exception {
        for (TestStudy study : List.of(byHttp, byDimse, byStow)) {
            JsonArray instances = array(admin.getJson("/dicomweb/studies/" + study.studyUid() + "/instances").body());
            assertThat(instances).as(study.patientId()).hasSize(KEPT.size());
            Command.Result find = Dcmtk.find("-S", "QueryRetrieveLevel=IMAGE", "StudyInstanceUID=" + study.studyUid(),
                    "SeriesInstanceUID", "SOPInstanceUID", "SOPClassUID");
            assertThat(Dcmtk.matches(find)).as(study.patientId()).isEqualTo(KEPT.size());
            for (TestStudy.Instance i : study.instances()) {
                assertThat(find.output()).as(i.sample()).contains(i.sopInstanceUid());
            }
        }
        String patients = admin.getJson("/index/patients?PatientID=SOP-DIMSE").body();
        assertThat(patients).contains("\"NumberOfPatientRelatedInstances\":" + KEPT.size());
    }

    @Test
    void cGetAndCMoveReturnEveryKeptObjectAsStored() throws Exception {
        Path got = Files.createDirectories(work.resolve("got"));
        Command.Result get = Dcmtk.get(got, "QueryRetrieveLevel=STUDY", "StudyInstanceUID=" + byDimse.studyUid());
        // getscu takes every class only uncompressed: the JPEG-LS image arrives only where the store can decode it
        // for that peer (the transfer syntaxes' part, not this test's); every other object arrives as stored
        Matcher completed = Pattern.compile("Number of Completed Suboperations : (\\d+)").matcher(get.output());
        assertThat(completed.find()).as(get.output()).isTrue();
        assertThat(Integer.parseInt(completed.group(1))).as(get.output()).isBetween(KEPT.size() - 1, KEPT.size());
        assertArrivedAsStored(byDimse, got, JPEG_LS);

        try (Storescp destination = Storescp.start(PacsStore.DESTINATION_AE, PacsStore.moveDestinationPort(),
                work.resolve("moved"))) {
            Command.Result move = Dcmtk.move(PacsStore.DESTINATION_AE, "QueryRetrieveLevel=STUDY",
                    "StudyInstanceUID=" + byStow.studyUid());
            assertThat(move.output()).as(destination.log()).contains("Received Final Move Response (Success)");
            assertArrivedAsStored(byStow, destination.dir(), null);
        }
    }

    @Test
    void aStudyLevelCFindAnswersWhatQidoRsAnswers() throws Exception {
        String[] keys = {"StudyDescription", "InstitutionName", "Manufacturer", "ReferringPhysicianName",
                "AccessionNumber", "StudyDate", "ModalitiesInStudy", "NumberOfStudyRelatedSeries",
                "NumberOfStudyRelatedInstances"};
        List<String> args = new ArrayList<>(List.of("QueryRetrieveLevel=STUDY", "StudyInstanceUID=" + byHttp.studyUid()));
        args.addAll(List.of(keys));
        Command.Result find = Dcmtk.find("-S", args.toArray(String[]::new));
        assertThat(Dcmtk.matches(find)).isEqualTo(1);
        JsonObject qido = array(admin.getJson("/dicomweb/studies?StudyInstanceUID=" + byHttp.studyUid()
                + "&includefield=" + String.join(",", keys)).body()).getJsonObject(0);
        int compared = 0;
        for (String keyword : keys) {
            String byDimse = findValue(find.output(), keyword);
            String byWeb = qidoValue(qido, keyword);
            assertThat(byDimse).as(keyword + " by C-FIND and QIDO-RS").isEqualTo(byWeb);
            compared += byWeb.isEmpty() ? 0 : 1;
        }
        assertThat(compared).as("keys with a value").isGreaterThanOrEqualTo(6);
    }

    @Test
    void objectsWithoutPixelsSayWhyTheyDoNotRender() throws Exception {
        HttpResponse<String> png = admin.sendText(admin.request("/images/it/sop-classes/test-SR.dcm?render=png"));
        assertThat(png.statusCode()).isEqualTo(422);
        assertThat(png.body()).contains("no pixel data: structured report");
        TestStudy.Instance sr = byStow.instance("test-SR.dcm");
        HttpResponse<String> rendered = admin.sendText(admin.request("/dicomweb/studies/" + byStow.studyUid()
                + "/series/" + sr.seriesUid() + "/instances/" + sr.sopInstanceUid() + "/rendered"));
        assertThat(rendered.statusCode()).isEqualTo(404);
        assertThat(rendered.body()).contains("no pixel data: structured report");
        assertThat(PacsStore.store().log()).as("expected refusals log no stack trace")
                .doesNotContain("org.medjava.store.core.ingest.IngestFailure: ");
    }

    // ------------------------------------------------------------------------------------------------ the doors

    /** HTTP PUT: "stored" for 201, else the problem its 422 names. */
    private static String put(String name, Path file) throws Exception {
        HttpResponse<String> r = admin.put("/images/it/sop-classes/" + name, file);
        if (r.statusCode() == 201) {
            return "stored";
        }
        assertThat(r.statusCode()).as(name + ": " + r.body()).isEqualTo(422);
        return problem(name + " over HTTP", r.body());
    }

    /** storescu's options that send an instance in its own syntax (else it converts implicit VR to explicit). */
    private static List<String> sentAsStored(TestStudy.Instance i) {
        return switch (i.transferSyntaxUid()) {
            case "1.2.840.10008.1.2" -> List.of("-xi");
            case "1.2.840.10008.1.2.2" -> List.of("-xb");
            default -> i.storescuOptions();
        };
    }

    /** C-STORE by storescu: "stored" on success, else the problem its ErrorComment names. */
    private static String storescu(List<String> options, Path file) throws Exception {
        List<String> all = new ArrayList<>(options);
        all.add("-d"); // the debug output shows the response's status detail (ErrorComment)
        if (!all.contains("-R")) {
            all.add("-R"); // the file's own SOP class: storescu's default list lacks some (Encapsulated CDA)
        }
        Command.Result r = Dcmtk.store(all, file);
        int response = r.output().indexOf("Received Store Response");
        assertThat(response).as(file.getFileName() + " by C-STORE:\n" + r.output()).isNotNegative();
        String answer = r.output().substring(response);
        if (SUCCESS.matcher(answer).find()) {
            return "stored";
        }
        Matcher comment = ERROR_COMMENT.matcher(answer);
        return problem(file.getFileName() + " by C-STORE", comment.find() ? comment.group(1) : answer);
    }

    /**
     * C-STORE of an object whose SOP class the store does not keep: every context proposed for it is refused in
     * negotiation (abstract syntax not supported), so storescu sends no C-STORE and fails; the problem is the one the
     * other doors name. (storescu's debug dump of its own request also says "Presentation Contexts": the refusal is
     * DCMTK's wording of the A-ASSOCIATE-AC's result and its fatal error.)
     */
    private static String refusedInNegotiation(Path file) throws Exception {
        Command.Result r = Dcmtk.store(List.of("-d", "-R"), file);
        assertThat(r.exitCode()).as(file.getFileName() + " by C-STORE:\n" + r.output()).isNotZero();
        assertThat(r.output()).as(file.getFileName() + " by C-STORE").doesNotContain("Received Store Response")
                .contains("(Abstract Syntax Not Supported)", "No Acceptable Presentation Contexts")
                .doesNotContainPattern("Context ID:\\s+\\d+ \\(Accepted");
        return DicomRules.Problem.NOT_KEPT.words;
    }

    /**
     * C-STORE of a data set DCMTK cannot read (cut short): its bytes after the meta information, as they are, on a
     * context for its SOP class and syntax.
     */
    private static String rawCStore(Path file) throws Exception {
        Part10File meta = Part10File.read(file);
        LinkedList<PresentationContext> contexts = new LinkedList<>();
        contexts.add(new PresentationContext((byte) 1, meta.sopClassUid(), meta.transferSyntaxUid()));
        Association association = AssociationFactory.createNewAssociation("127.0.0.1", PacsStore.dicomPort(),
                PacsStore.AE, "STORESCU", contexts, null, false);
        try {
            Response response = new Response();
            association.setReceivedDataHandler(response);
            association.send((byte) 1, new CStoreRequestCommandMessage(meta.sopClassUid(), meta.sopInstanceUid())
                    .getBytes(), null);
            try (OutputStream out = association.getAssociationOutputStream((byte) 1);
                 InputStream in = meta.openDataSet()) {
                in.transferTo(out);
            }
            association.waitForPDataPDUsUntilHandlerReportsDone();
            return response.code == 0 ? "stored" : problem(file.getFileName() + " by raw C-STORE",
                    response.comment);
        } finally {
            association.release();
        }
    }

    /** STOW-RS of one part: "stored" for 200, else the problem its Warning names (409: nothing stored). */
    private static String stow(Path file) throws Exception {
        HttpResponse<String> r = admin.sendText(admin.request("/dicomweb/studies").header("Content-Type", STOW_TYPE)
                .header("Accept", "application/dicom+json").POST(HttpRequest.BodyPublishers.ofByteArray(
                        Multipart.dicom("SOPCLASSES", List.of(Files.readAllBytes(file))))));
        if (r.statusCode() == 200) {
            return "stored";
        }
        assertThat(r.statusCode()).as(file.getFileName() + ": " + r.body()).isEqualTo(409);
        return problem(file.getFileName() + " by STOW-RS", r.headers().firstValue("Warning").orElse(""));
    }

    /** The problem a refusal's reason names: its words, or the whole reason when it names none. */
    private static String problem(String what, String reason) {
        for (DicomRules.Problem p : DicomRules.Problem.values()) {
            if (reason.contains(p.words + ":")) {
                return p.words;
            }
        }
        return what + " refused without a named problem: " + reason;
    }

    /** The C-STORE response (PixelMed's response handler is the public way to receive one). */
    private static final class Response extends CompositeResponseHandler {
        String comment = "";
        int code = 0xFFFF;

        @Override
        protected void evaluateStatusAndSetSuccess(AttributeList list) {
            code = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Status, 0xFFFF);
            comment = Attribute.getSingleStringValueOrEmptyString(list, TagFromName.ErrorComment).trim();
            success = code == 0;
            setDone(true);
        }
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static Path images() {
        return PacsStore.store().dataDir().resolve("images");
    }

    private static byte[] dataSet(Path file) throws Exception {
        byte[] all = Files.readAllBytes(file);
        return java.util.Arrays.copyOfRange(all, (int) Part10File.read(file).dataSetOffset(), all.length);
    }

    /** Every instance of {@code study} arrived in {@code dir} as stored; {@code mayDiffer} (or null) need not. */
    private static void assertArrivedAsStored(TestStudy study, Path dir, String mayDiffer) throws Exception {
        try (var files = Files.list(dir)) {
            List<Path> received = files.toList();
            assertThat(received.size()).isBetween(mayDiffer == null ? KEPT.size() : KEPT.size() - 1, KEPT.size());
            for (TestStudy.Instance i : study.instances()) {
                if (i.sample().equals(mayDiffer)) {
                    continue;
                }
                Path arrived = received.stream().filter(p -> p.getFileName().toString().endsWith(i.sopInstanceUid()))
                        .findFirst().orElseThrow(() -> new AssertionError(i.sample() + " did not arrive"));
                Path stored = images().resolve(study.storePath(i));
                if (Part10File.read(arrived).transferSyntaxUid().equals(Part10File.read(stored).transferSyntaxUid())) {
                    assertThat(dataSet(arrived)).as(i.sample()).isEqualTo(dataSet(stored));
                } else { // converted for a peer that did not take the stored syntax (getscu: explicit VR first)
                    assertThat(content(arrived)).as(i.sample()).isEqualTo(content(stored));
                }
            }
        }
    }

    /** The attributes and values of a file's data set, whatever its encoding. */
    private static String content(Path file) throws Exception {
        AttributeList list = new AttributeList();
        list.read(file.toString());
        list.removeMetaInformationHeaderAttributes();
        list.removeGroupLengthAttributes();
        return list.toString().replaceAll("\\[starts at 0x[0-9a-f]+\\]", ""); // item offsets differ by encoding
    }

    private static JsonArray array(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readArray();
        }
    }

    /** A return key's value in findscu's verbose output ("(0008,0080) LO [X]  # 2, 1 InstitutionName"), or "". */
    private static String findValue(String output, String keyword) {
        int response = output.indexOf("Find Response:");
        return output.substring(Math.max(0, response)).lines().filter(l -> l.trim().endsWith(" " + keyword) && l.contains("("))
                .map(l -> l.contains("[") ? l.substring(l.indexOf('[') + 1, l.lastIndexOf(']')) : "")
                .findFirst().orElse("").trim();
    }

    /** A QIDO-RS attribute's value, as findscu prints it (values joined by '\', a name's alphabetic form), or "". */
    private static String qidoValue(JsonObject study, String keyword) {
        String tag = String.format("%08X", com.pixelmed.dicom.DicomDictionary.StandardDictionary
                .getTagFromName(keyword).getGroup() << 16 | com.pixelmed.dicom.DicomDictionary.StandardDictionary
                .getTagFromName(keyword).getElement());
        JsonObject attribute = study.getJsonObject(tag);
        if (attribute == null || !attribute.containsKey("Value")) {
            return "";
        }
        List<String> values = new ArrayList<>();
        for (var v : attribute.getJsonArray("Value")) {
            values.add(v instanceof JsonObject name ? name.getString("Alphabetic", "")
                    : v.toString().replaceAll("^\"|\"$", ""));
        }
        return String.join("\\", values).trim();
    }
}
