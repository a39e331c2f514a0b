package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.medjava.store.server.pacs.DicomJson.array;
import static org.medjava.store.server.pacs.DicomJson.object;
import static org.medjava.store.server.pacs.DicomJson.value;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.peers.Pydicom;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The {@code deidentify} job on a real store: a study of a CT and two MR instances of one series (one of them RLE
 * compressed) copied as a new de-identified study, read back through QIDO-RS and WADO-RS and checked with pydicom (an
 * independent reader): the pseudonym, new UIDs shared consistently (one study, the series grouping kept), what PS3.15
 * says is recorded, dates shifted, transfer syntax and pixel data byte for byte, the source untouched; the audit
 * record; bad parameters (400, 404) and a reader (403) refused before anything is queued.
 */
@ExtendWith(PacsStore.class)
class DeidentifyIT {

    private static final int SHIFT = -30;
    private static final DateTimeFormatter DA = DateTimeFormatter.BASIC_ISO_DATE;

    @TempDir
    static Path work;
    static StoreClient admin;
    static StoreClient uploader;
    static StoreClient reader;
    static TestStudy study;

    @BeforeAll
    static void storeAStudy() throws Exception {
        PayaraStore store = PacsStore.store();
        admin = StoreClient.admin(store);
        uploader = admin.account("deid-ulf", "uploader");
        reader = admin.account("deid-rita", "reader");
        study = TestStudy.create(work.resolve("source"), "DEID-IT-1", "CT_small.dcm", "MR_small.dcm",
                "MR_small_RLE.dcm");
        // the two MR instances in one series, to see the grouping kept
        Command.run(Command.of("dcmodify", "-nb", "-m", "(0020,000E)=" + study.instance("MR_small.dcm").seriesUid(),
                study.instance("MR_small_RLE.dcm").file())).assertOk();
        for (TestStudy.Instance i : study.instances()) {
            HttpResponse<String> r = admin.put(path(i), i.file());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        }
    }

    static String path(TestStudy.Instance i) {
        return "/images/deid-it/" + study.patientId() + "/" + i.sopInstanceUid() + ".dcm";
    }

    static JsonObject awaitJob(String id) throws Exception {
        return object(uploader.awaitJob(id, Duration.ofSeconds(120)));
    }

    @Test
    void theJobWritesANewDeidentifiedStudyThatAnIndependentReaderConfirms() throws Exception {
        Map<String, String> params = new HashMap<>(Map.of("StudyInstanceUID", study.studyUid(),
                "options", "retain-longitudinal-modified-dates,retain-patient-characteristics",
                "dateShiftDays", Integer.toString(SHIFT), "patientName", "SUBJECT^ONE", "patientId", "DEID-SUBJ-1"));
        HttpResponse<String> submitted = uploader.submitJob("deidentify", params);
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        JsonObject job = awaitJob(object(submitted.body()).getString("id"));

        assertThat(job.getString("state")).as(job.toString()).isEqualTo("DONE");
        assertThat(job.getInt("done")).isEqualTo(3);
        JsonObject result = object(job.getString("result"));
        assertThat(result.getInt("stored")).isEqualTo(3);
        assertThat(result.getInt("refused")).isZero();
        assertThat(result.getInt("needsReview")).isZero();
        assertThat(result.getInt("series")).isEqualTo(2);
        assertThat(result.getString("PatientID")).isEqualTo("DEID-SUBJ-1");
        String newStudy = result.getString("StudyInstanceUID");
        assertThat(newStudy).startsWith("2.25.").isNotEqualTo(study.studyUid());

        // QIDO-RS: the new study under the pseudonym, its two series of 1 and 2 instances
        JsonObject found = array(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + newStudy).body())
                .getJsonObject(0);
        assertThat(value(found, "00100020")).isEqualTo("DEID-SUBJ-1");
        assertThat(found.getJsonObject("00100010").toString()).contains("SUBJECT^ONE");
        List<Integer> sizes = new ArrayList<>();
        for (var s : array(reader.getJson("/dicomweb/studies/" + newStudy + "/series").body())) {
            String series = value(s.asJsonObject(), "0020000E");
            assertThat(series).isNotIn(study.instances().stream().map(TestStudy.Instance::seriesUid).toList());
            sizes.add(array(reader.getJson("/dicomweb/studies/" + newStudy + "/series/" + series + "/instances")
                    .body()).size());
        }
        assertThat(sizes).containsExactlyInAnyOrder(1, 2);

        // WADO-RS: the objects as stored
        HttpResponse<byte[]> wado = reader.send(reader.request("/dicomweb/studies/" + newStudy)
                .header("Accept", "multipart/related; type=\"application/dicom\"; transfer-syntax=*"));
        assertThat(wado.statusCode()).isEqualTo(200);
        List<Multipart.Part> parts = Multipart.parse(wado.body(), wado.headers().firstValue("Content-Type")
                .orElseThrow());
        assertThat(parts).hasSize(3);
        List<Path> copies = new ArrayList<>();
        for (int n = 0; n < parts.size(); n++) {
            copies.add(Files.write(work.resolve("deid-" + n + ".dcm"), parts.get(n).body()));
        }

        String python = Pydicom.python();
        assumeTrue(python != null, "python3 with pydicom not found (bootstrap/install-deps.sh --test installs it):"
                + " the independent check is skipped");
        Map<String, Map<String, String>> sources = new HashMap<>();
        for (TestStudy.Instance i : study.instances()) {
            Map<String, String> s = describe(python, i.file());
            sources.put(s.get("Modality") + " " + s.get("TransferSyntaxUID"), s);
        }
        Set<String> newSeries = new java.util.HashSet<>();
        Set<String> newSops = new java.util.HashSet<>();
        for (Path copy : copies) {
            Map<String, String> d = describe(python, copy);
            Map<String, String> s = sources.get(d.get("Modality") + " " + d.get("TransferSyntaxUID"));
            assertThat(s).as("a source of the same modality and transfer syntax: " + d).isNotNull();
            assertThat(d.get("PatientName")).isEqualTo("SUBJECT^ONE");
            assertThat(d.get("PatientID")).isEqualTo("DEID-SUBJ-1");
            assertThat(d.get("StudyInstanceUID")).isEqualTo(newStudy);
            assertThat(d.get("SeriesInstanceUID")).isNotEqualTo(s.get("SeriesInstanceUID")).startsWith("2.25.");
            assertThat(d.get("SOPInstanceUID")).isNotEqualTo(s.get("SOPInstanceUID")).startsWith("2.25.");
            assertThat(d.get("PatientIdentityRemoved")).isEqualTo("YES");
            assertThat(d.get("DeidentificationCodes")).contains("113100", "113107", "113108");
            assertThat(d.get("StudyDate")).isEqualTo(LocalDate.parse(s.get("StudyDate"), DA).plusDays(SHIFT)
                    .format(DA));
            assertThat(d.get("PixelDataSHA256")).isEqualTo(s.get("PixelDataSHA256"));
            newSeries.add(d.get("Modality") + " " + d.get("SeriesInstanceUID"));
            newSops.add(d.get("SOPInstanceUID"));
        }
        assertThat(newSeries).hasSize(2);
        assertThat(newSops).hasSize(3);
        for (Path copy : copies) { // and PixelMed agrees with pydicom on the pixels
            Map<String, String> d = describe(python, copy);
            TestStudy.Instance source = study.instances().stream().filter(i -> i.transferSyntaxUid()
                    .equals(d.get("TransferSyntaxUID")) && i.sample().startsWith(d.get("Modality"))).findFirst()
                    .orElseThrow();
            assertThat(PixelData.of(copy)).isEqualTo(PixelData.of(source.file()));
        }

        // the source is untouched
        for (TestStudy.Instance i : study.instances()) {
            assertThat(reader.get(path(i)).body()).isEqualTo(Files.readAllBytes(i.file()));
        }
        JsonObject source = array(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + study.studyUid()).body())
                .getJsonObject(0);
        assertThat(value(source, "00100020")).isEqualTo("DEID-IT-1");
        assertThat(value(source, "00201208")).isEqualTo("3");

        // the audit trail: who copied which study of which patient into which new study
        List<String> audit = Files.readAllLines(PacsStore.store().dataDir().resolve("logs/audit.log"),
                StandardCharsets.UTF_8);
        assertThat(audit).anySatisfy(line -> assertThat(line).contains("110103", "deid-ulf", study.studyUid(),
                "DEID-IT-1", newStudy));
    }

    @Test
    void badParametersAnUnknownStudyAndAReaderAreRefusedBeforeQueueing() throws Exception {
        Map<String, Integer> cases = Map.of(
                "{\"StudyInstanceUID\":\"" + study.studyUid() + "\",\"options\":\"retain-everything\"}", 400,
                "{\"StudyInstanceUID\":\"" + study.studyUid() + "\",\"options\":\"retain-uids\"}", 400,
                "{\"StudyInstanceUID\":\"" + study.studyUid() + "\",\"secret\":\"0123456789abcdef0123\"}", 400,
                "{\"StudyInstanceUID\":\"" + study.studyUid() + "\",\"dateShiftDays\":\"soon\"}", 400,
                "{\"StudyInstanceUID\":\"" + study.studyUid() + "\",\"patientId\":\"DEID-IT-1\"}", 400,
                "{}", 400,
                "{\"StudyInstanceUID\":\"1.2.3.999999\"}", 404,
                "{\"StudyInstanceUID\":\"" + study.studyUid() + "\",\"SeriesInstanceUID\":\"1.2.3.999999\"}", 404);
        for (var c : cases.entrySet()) {
            HttpResponse<String> r = uploader.sendText(uploader.request("/jobs")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"kind\":\"deidentify\",\"params\":" + c.getKey() + "}")));
            assertThat(r.statusCode()).as(c.getKey() + ": " + r.body()).isEqualTo(c.getValue());
        }
        HttpResponse<String> unknown = uploader.submitJob("deidentify", Map.of("StudyInstanceUID", study.studyUid(),
                "options", "nope"));
        assertThat(unknown.body()).contains("retain-longitudinal-modified-dates", "clean-descriptors");
        assertThat(reader.submitJob("deidentify", Map.of("StudyInstanceUID", study.studyUid())).statusCode())
                .isEqualTo(403);
    }

    /** What pydicom reads of a file: this test's attributes and the de-identification method's codes. */
    private static Map<String, String> describe(String python, Path file) throws Exception {
        return Pydicom.describe(python, file, List.of("PatientName", "PatientID", "StudyInstanceUID",
                "SeriesInstanceUID", "SOPInstanceUID", "Modality", "StudyDate", "PatientIdentityRemoved"),
                "codes = [i.CodeValue for i in ds.get('DeidentificationMethodCodeSequence', [])]",
                "print('DeidentificationCodes=' + ','.join(codes))");
    }
}
