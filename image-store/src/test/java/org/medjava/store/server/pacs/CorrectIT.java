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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.peers.Pydicom;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The {@code correct} job on a real store: a study of a CT and two MR series stored by STOW-RS, its PatientName,
 * PatientID and AccessionNumber corrected; QIDO-RS answers with the new values and no longer knows the old patient,
 * WADO-RS gives instances that pydicom reads with the new values, the same UIDs and the same pixel data, thumbnails
 * are served, the audit trail has who, the old and the new values, the change feed lists the updates, and the
 * previous versions wait in the trash (restoring them undoes the correction); bad requests are refused before
 * anything is queued (400, 404, 409 for a study in the trash, 403 for a reader).
 */
@ExtendWith(PacsStore.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CorrectIT {
    private static final String BOUNDARY = "correct-it-boundary";
    /** What pydicom is asked of each file. */
    private static final List<String> KEYS = List.of("PatientName", "PatientID", "AccessionNumber",
            "StudyInstanceUID", "SeriesInstanceUID", "SOPInstanceUID", "SOPClassUID", "Modality");

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
        uploader = admin.account("corr-ulf", "uploader");
        reader = admin.account("corr-rita", "reader");
        study = TestStudy.create(work.resolve("source"), "CORR-WRONG-1", "CT_small.dcm", "MR_small.dcm",
                "MR_small_RLE.dcm");
        HttpResponse<String> r = admin.sendText(admin.request("/dicomweb/studies")
                .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + BOUNDARY)
                .header("Accept", "application/dicom+json").POST(HttpRequest.BodyPublishers.ofByteArray(
                        Multipart.dicom(BOUNDARY, study.instances().stream().map(i -> Samples.bytes(i.file()))
                                .toList()))));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    static JsonObject awaitJob(String id) throws Exception {
        return object(uploader.awaitJob(id, Duration.ofSeconds(120)));
    }

    static long lastChange() throws Exception {
        return object(reader.getJson("/changes?since=0&limit=10000").body()).getJsonNumber("last").longValue();
    }

    @Test
    @Order(1)
    void badRequestsAreRefusedBeforeQueueing() throws Exception {
        String uid = study.studyUid();
        Map<String, Integer> cases = Map.of(
                "{\"StudyInstanceUID\":\"" + uid + "\",\"SOPInstanceUID\":\"1.2.3\"}", 400,
                "{\"StudyInstanceUID\":\"" + uid + "\",\"Modality\":\"MR\"}", 400,
                "{\"StudyInstanceUID\":\"" + uid + "\",\"PatientBirthDate\":\"19991399\"}", 400,
                "{\"StudyInstanceUID\":\"" + uid + "\",\"PatientName\":\"\"}", 400,
                "{\"StudyInstanceUID\":\"" + uid + "\"}", 400,
                "{\"PatientID\":\"X\"}", 400,
                "{\"StudyInstanceUID\":\"1.2.3.999999\",\"PatientID\":\"X\"}", 404);
        for (var c : cases.entrySet()) {
            HttpResponse<String> r = uploader.sendText(uploader.request("/jobs")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"kind\":\"correct\",\"params\":" + c.getKey() + "}")));
            assertThat(r.statusCode()).as(c.getKey() + ": " + r.body()).isEqualTo(c.getValue());
        }
        assertThat(reader.submitJob("correct", Map.of("StudyInstanceUID", uid, "PatientID", "X")).statusCode())
                .isEqualTo(403);
        assertThat(uploader.submitJob("merge-patients", Map.of("sourcePatientID", "CORR-WRONG-1", "PatientID", "X"))
                .statusCode()).as("a merge is an administrator's").isEqualTo(403);
    }

    @Test
    @Order(2)
    void aCorrectionRewritesEveryInstanceWithItsUidsAndPixelsAndKeepsThePreviousVersions() throws Exception {
        long before = lastChange();
        HttpResponse<String> submitted = uploader.submitJob("correct", Map.of("StudyInstanceUID", study.studyUid(),
                "PatientID", "CORR-RIGHT-1", "PatientName", "Right^Patient", "AccessionNumber", "ACC-2",
                "reason", "registered under the wrong patient"));
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        JsonObject job = awaitJob(object(submitted.body()).getString("id"));
        assertThat(job.getString("state")).as(job.toString()).isEqualTo("DONE");
        JsonObject result = object(job.getString("result"));
        assertThat(result.getInt("corrected")).isEqualTo(3);
        String trashId = result.getJsonArray("studies").getJsonObject(0).getString("trashId");

        // QIDO-RS: the new values; the old patient is gone
        JsonObject found = array(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + study.studyUid()).body())
                .getJsonObject(0);
        assertThat(value(found, "00100020")).isEqualTo("CORR-RIGHT-1");
        assertThat(found.getJsonObject("00100010").toString()).contains("Right^Patient");
        assertThat(value(found, "00080050")).isEqualTo("ACC-2");
        assertThat(value(found, "00201208")).isEqualTo("3");
        assertThat(array(reader.getJson("/dicomweb/studies?PatientID=CORR-WRONG-1").body())).isEmpty();
        assertThat(reader.getJson("/index/patients?PatientID=CORR-WRONG-1").body()).doesNotContain("CORR-WRONG-1");

        // WADO-RS read by pydicom: new values, the same UIDs, the same pixel data
        HttpResponse<byte[]> wado = reader.send(reader.request("/dicomweb/studies/" + study.studyUid())
                .header("Accept", "multipart/related; type=\"application/dicom\"; transfer-syntax=*"));
        assertThat(wado.statusCode()).isEqualTo(200);
        List<Multipart.Part> parts = Multipart.parse(wado.body(), wado.headers().firstValue("Content-Type")
                .orElseThrow());
        assertThat(parts).hasSize(3);
        String python = Pydicom.python();
        assumeTrue(python != null, "python3 with pydicom not found: the independent check is skipped");
        Map<String, Map<String, String>> sources = new HashMap<>();
        for (TestStudy.Instance i : study.instances()) {
            sources.put(i.sopInstanceUid(), Pydicom.describe(python, i.file(), KEYS));
        }
        for (int n = 0; n < parts.size(); n++) {
            Map<String, String> d = Pydicom.describe(python, Files.write(work.resolve("corrected-" + n + ".dcm"),
                    parts.get(n).body()), KEYS);
            Map<String, String> s = sources.get(d.get("SOPInstanceUID"));
            assertThat(s).as("the same SOP Instance UID as a source: " + d).isNotNull();
            assertThat(d.get("PatientID")).isEqualTo("CORR-RIGHT-1");
            assertThat(d.get("PatientName")).isEqualTo("Right^Patient");
            assertThat(d.get("AccessionNumber")).isEqualTo("ACC-2");
            for (String same : List.of("StudyInstanceUID", "SeriesInstanceUID", "SOPClassUID", "TransferSyntaxUID",
                    "PixelDataSHA256", "Modality")) {
                assertThat(d.get(same)).as(same).isEqualTo(s.get(same));
            }
        }

        // thumbnails and renderings are served from the corrected objects
        HttpResponse<byte[]> thumb = reader.send(reader.request("/dicomweb/studies/" + study.studyUid()
                + "/thumbnail"));
        assertThat(thumb.statusCode()).isEqualTo(200);
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        assertThat(reader.send(reader.request("/dicomweb/studies/" + study.studyUid() + "/series/" + ct.seriesUid()
                + "/instances/" + ct.sopInstanceUid() + "/rendered")).statusCode()).isEqualTo(200);

        // the change feed: one "updated" per instance
        JsonArray changes = object(reader.getJson("/changes?since=" + before).body()).getJsonArray("changes");
        assertThat(changes.getValuesAs(JsonObject.class).stream().filter(c -> c.getString("kind").equals("updated"))
                .map(c -> c.getString("SOPInstanceUID")).toList()).containsExactlyInAnyOrderElementsOf(
                study.instances().stream().map(TestStudy.Instance::sopInstanceUid).toList());

        // the audit trail: who, the old and the new values, why
        List<String> audit = Files.readAllLines(PacsStore.store().dataDir().resolve("logs/audit.log"),
                StandardCharsets.UTF_8);
        assertThat(audit).anySatisfy(line -> assertThat(line).contains("110110", "corr-ulf", study.studyUid(),
                "CORR-WRONG-1", "CORR-RIGHT-1", "ACC-2", "registered under the wrong patient"));

        // the previous versions wait in the trash; restoring them undoes the correction
        JsonObject kept = object(admin.getJson("/trash/" + trashId).body());
        assertThat(kept.getString("level")).isEqualTo("VERSION");
        assertThat(kept.getInt("instances")).isEqualTo(3);
        HttpResponse<String> restored = uploader.sendText(uploader.request("/trash/" + trashId + "/restore")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(restored.statusCode()).as(restored.body()).isEqualTo(200);
        JsonObject back = array(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + study.studyUid()).body())
                .getJsonObject(0);
        assertThat(value(back, "00100020")).isEqualTo("CORR-WRONG-1");
        assertThat(value(back, "00201208")).isEqualTo("3");
    }

    @Test
    @Order(3)
    void aStudyInTheTrashIsNotCorrected() throws Exception {
        HttpResponse<String> deleted = uploader.sendText(uploader.request("/dicomweb/studies/" + study.studyUid())
                .DELETE());
        assertThat(deleted.statusCode()).as(deleted.body()).isIn(200, 202, 204);
        HttpResponse<String> r = uploader.submitJob("correct", Map.of("StudyInstanceUID", study.studyUid(),
                "PatientID", "CORR-RIGHT-1"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
        assertThat(r.body()).contains("in the trash");
    }
}
