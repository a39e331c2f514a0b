package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.server.pacs.DicomJson.array;
import static org.medjava.store.server.pacs.DicomJson.object;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.testsupport.KeyObjectNote;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Deleting studies, series and instances on a real store: into the trash and out of every door at once (QIDO-RS,
 * WADO-RS, the index, reads and listings by path), listed in /trash and the change feed, restored byte for byte,
 * purged by the background purge when the grace period ends (a few seconds here), the guard against deleting a
 * large share, roles, bad requests, and the audit trail.
 */
class TrashIT {
    /** Deletions of 4 instances or more that take over 30% of the store are held unless forced. */
    private static final int GUARD_MIN = 4;

    @TempDir
    static Path work;

    static PayaraStore store;
    static StoreClient admin;
    static StoreClient uploader;
    static StoreClient reader;
    static int dicomPort;

    @BeforeAll
    static void start() throws Exception {
        dicomPort = Ports.free();
        store = PayaraStore.named("trash-it")
                .property("medjava.dicom.port", Integer.toString(dicomPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.allowed-aets", "STORESCU")
                .property("medjava.trash.grace-hours", "0.002") // 7.2 s
                .property("medjava.trash.purge-interval-seconds", "1")
                .property("medjava.delete.guard-share", "0.3")
                .property("medjava.delete.guard-min-instances", Integer.toString(GUARD_MIN))
                .start();
        admin = StoreClient.admin(store);
        for (String[] account : List.of(new String[] {"ulf", "uploader"}, new String[] {"rita", "reader"})) {
            assertThat(admin.sendText(admin.request("/admin/users/" + account[0])
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                            "{\"password\":\"" + account[0] + "-pass-1\",\"role\":\"" + account[1] + "\"}")))
                    .statusCode()).isIn(201, 204);
        }
        uploader = new StoreClient(store, PayaraStore.basic("ulf", "ulf-pass-1"));
        reader = new StoreClient(store, PayaraStore.basic("rita", "rita-pass-1"));
        upload("BALLAST", "CT_small.dcm", "MR_small.dcm", "CT_small.dcm");
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    /** A new study of copies of {@code samples}, PUT under /images/trash/{patient}/. */
    static TestStudy upload(String patient, String... samples) throws Exception {
        TestStudy study = TestStudy.create(work.resolve(patient + "-" + UUID.randomUUID()), patient, samples);
        for (TestStudy.Instance i : study.instances()) {
            assertThat(admin.put(path(study, i), i.file()).statusCode()).isEqualTo(201);
        }
        return study;
    }

    static String path(TestStudy study, TestStudy.Instance i) {
        return "/images/trash/" + study.patientId() + "/" + i.sopInstanceUid() + ".dcm";
    }

    static long lastChange() throws Exception {
        return object(reader.getJson("/changes?since=0&limit=10000").body()).getJsonNumber("last").longValue();
    }

    static HttpResponse<String> post(StoreClient client, String path) throws Exception {
        return client.sendText(client.request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    @Test
    void aDeletedStudyLeavesEveryDoorAtOnceAndARestoreBringsItBackByteForByte() throws Exception {
        TestStudy study = upload("TRASH-1", "CT_small.dcm", "MR_small.dcm");
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        long before = lastChange();

        HttpResponse<String> deleted = uploader.delete("/dicomweb/studies/" + study.studyUid()
                + "?reason=wrong%20patient");

        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        JsonObject deletion = object(deleted.body());
        String trashId = deletion.getString("trashId");
        assertThat(deletion.getString("level")).isEqualTo("STUDY");
        assertThat(deletion.getString("StudyInstanceUID")).isEqualTo(study.studyUid());
        assertThat(deletion.getInt("instances")).isEqualTo(2);
        assertThat(deletion.getString("reason")).isEqualTo("wrong patient");
        assertThat(deletion.getString("location")).endsWith("/trash/" + trashId);

        assertThat(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + study.studyUid()).body())
                .doesNotContain(study.studyUid());
        assertThat(reader.getJson("/dicomweb/studies/" + study.studyUid() + "/metadata").statusCode())
                .isEqualTo(404);
        assertThat(reader.getJson("/index/studies").body()).doesNotContain(study.studyUid());
        assertThat(reader.get(path(study, ct)).statusCode()).isEqualTo(404);
        assertThat(reader.getJson("/images/trash/TRASH-1/").body()).doesNotContain(ct.sopInstanceUid());
        assertThat(Files.exists(store.dataDir().resolve("images").resolve(path(study, ct).substring(8)))).isTrue();

        JsonArray changes = object(reader.getJson("/changes?since=" + before).body()).getJsonArray("changes");
        assertThat(changes).hasSize(2).allSatisfy(c -> {
            assertThat(c.asJsonObject().getString("kind")).isEqualTo("deleted");
            assertThat(c.asJsonObject().getString("trashId")).isEqualTo(trashId);
            assertThat(c.asJsonObject().getString("StudyInstanceUID")).isEqualTo(study.studyUid());
        });
        assertThat(uploader.getJson("/trash").body()).contains(trashId);
        JsonObject listed = object(uploader.getJson("/trash/" + trashId).body());
        assertThat(listed.getJsonArray("files")).hasSize(2);
        assertThat(reader.getJson("/trash").statusCode()).isEqualTo(403);

        HttpResponse<String> restored = post(uploader, "/trash/" + trashId + "/restore");

        assertThat(restored.statusCode()).as(restored.body()).isEqualTo(200);
        assertThat(object(restored.body()).getInt("restored")).isEqualTo(2);
        assertThat(reader.get(path(study, ct)).body()).isEqualTo(Files.readAllBytes(ct.file()));
        assertThat(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + study.studyUid()).body())
                .contains(study.studyUid());
        assertThat(reader.getJson("/images/trash/TRASH-1/").body()).contains(ct.sopInstanceUid());
        assertThat(uploader.getJson("/trash/" + trashId).statusCode()).isEqualTo(404);
        assertThat(reader.getJson("/changes?since=" + before).body()).contains("\"restored\"");
    }

    @Test
    void aSeriesAndAnInstanceAreDeletedAloneAndReadersCannotDelete() throws Exception {
        TestStudy study = upload("TRASH-2", "CT_small.dcm", "MR_small.dcm");
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        TestStudy.Instance mr = study.instance("MR_small.dcm");
        String series = "/dicomweb/studies/" + study.studyUid() + "/series/" + ct.seriesUid();

        assertThat(reader.delete(series).statusCode()).isEqualTo(403);
        assertThat(reader.get(path(study, ct)).statusCode()).isEqualTo(200);

        assertThat(uploader.delete(series).statusCode()).isEqualTo(200);
        assertThat(reader.get(path(study, ct)).statusCode()).isEqualTo(404);
        assertThat(reader.get(path(study, mr)).statusCode()).isEqualTo(200);
        HttpResponse<String> instance = uploader.delete("/dicomweb/studies/" + study.studyUid() + "/series/"
                + mr.seriesUid() + "/instances/" + mr.sopInstanceUid());
        assertThat(object(instance.body()).getString("level")).isEqualTo("INSTANCE");
        assertThat(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + study.studyUid()).body())
                .doesNotContain(study.studyUid());
        assertThat(uploader.delete(series).statusCode()).isEqualTo(404); // nothing left to delete there
    }

    @Test
    void theGuardHoldsALargeDeletionUntilAnAdministratorForcesIt() throws Exception {
        TestStudy study = upload("TRASH-3", "CT_small.dcm", "CT_small.dcm", "MR_small.dcm", "MR_small.dcm");
        String url = "/dicomweb/studies/" + study.studyUid();

        HttpResponse<String> held = uploader.delete(url);
        assertThat(held.statusCode()).isEqualTo(409);
        assertThat(held.body()).contains("medjava.delete.guard-share", "force=true");
        assertThat(uploader.delete(url + "?force=true").statusCode()).isEqualTo(403);
        assertThat(reader.getJson("/dicomweb/studies?StudyInstanceUID=" + study.studyUid()).body())
                .contains(study.studyUid());

        HttpResponse<String> forced = admin.delete(url + "?force=true");
        assertThat(forced.statusCode()).as(forced.body()).isEqualTo(200);
        assertThat(object(forced.body()).getInt("instances")).isEqualTo(GUARD_MIN);
    }

    @Test
    void thePurgeRemovesTheFilesWhenTheGracePeriodEndsAndAnAdministratorCanPurgeEarlier() throws Exception {
        TestStudy study = upload("TRASH-4", "CT_small.dcm");
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        Path file = store.dataDir().resolve("images").resolve(path(study, ct).substring("/images/".length()));
        long before = lastChange();
        String trashId = object(uploader.delete("/dicomweb/studies/" + study.studyUid()).body())
                .getString("trashId");

        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(250);
        }
        assertThat(file).doesNotExist();
        assertThat(uploader.getJson("/trash/" + trashId).statusCode()).isEqualTo(404);
        assertThat(reader.getJson("/changes?since=" + before).body()).contains("\"purged\"");

        TestStudy early = upload("TRASH-5", "MR_small.dcm");
        TestStudy.Instance mr = early.instance("MR_small.dcm");
        String earlyId = object(uploader.delete("/dicomweb/studies/" + early.studyUid()).body())
                .getString("trashId");
        assertThat(uploader.delete("/trash/" + earlyId).statusCode()).isEqualTo(403);
        HttpResponse<String> purged = admin.delete("/trash/" + earlyId);
        assertThat(purged.statusCode()).isIn(200, 404); // 404: the background purge was quicker
        assertThat(store.dataDir().resolve("images").resolve(path(early, mr).substring("/images/".length())))
                .doesNotExist();
    }

    @Test
    void badRequestsAreRefusedWithAReason() throws Exception {
        assertThat(uploader.delete("/dicomweb/studies/not-a-uid").statusCode()).isEqualTo(400);
        assertThat(uploader.delete("/dicomweb/studies/1.2.3.999999").statusCode()).isEqualTo(404);
        assertThat(uploader.delete("/dicomweb/studies/1.2.3?reason=" + "x".repeat(300)).statusCode())
                .isEqualTo(400);
        assertThat(reader.getJson("/changes?since=x").statusCode()).isEqualTo(400);
        assertThat(reader.getJson("/changes?limit=0").statusCode()).isEqualTo(400);
        assertThat(reader.getJson("/changes?limit=10001").statusCode()).isEqualTo(400);
        assertThat(uploader.getJson("/trash/nonsense").statusCode()).isEqualTo(404);
        assertThat(post(uploader, "/trash/" + UUID.randomUUID() + "/restore").statusCode()).isEqualTo(404);
        assertThat(new StoreClient(store, null).getJson("/changes").statusCode()).isEqualTo(401);
    }

    @Test
    void deletionsAreInTheAuditTrailAsDicomStudyDeleted() throws Exception {
        TestStudy study = upload("TRASH-6", "CT_small.dcm");
        assertThat(uploader.delete("/dicomweb/studies/" + study.studyUid()).statusCode()).isEqualTo(200);

        Path audit = store.dataDir().resolve("logs/audit.log");
        List<String> lines = Files.readAllLines(audit, StandardCharsets.UTF_8);
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("110105", study.studyUid(), "ulf",
                "TRASH-6"));
    }

    @Test
    void aStudyWrittenAgainAfterItsDeletionIsNewAndTheOldOneIsNotRestoredOverIt() throws Exception {
        TestStudy study = upload("TRASH-7", "CT_small.dcm");
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        String trashId = object(uploader.delete("/dicomweb/studies/" + study.studyUid()).body())
                .getString("trashId");
        assertThat(admin.put(path(study, ct), ct.file()).statusCode()).isEqualTo(201); // sent again
        assertThat(reader.get(path(study, ct)).statusCode()).isEqualTo(200);

        JsonObject outcome = object(post(uploader, "/trash/" + trashId + "/restore").body());

        assertThat(outcome.getInt("replaced")).isEqualTo(1);
        assertThat(outcome.getInt("restored")).isZero();
        assertThat(reader.get(path(study, ct)).body()).isEqualTo(Files.readAllBytes(ct.file()));
    }

    @Test
    void aRetentionRuleIsPreviewedRunIntoTheTrashAndHeldByTheGuardWhenItWouldTakeTooMuch() throws Exception {
        for (int n = 1; n <= 2; n++) { // two old XA studies: the only XA in the store
            Path xa = org.medjava.store.core.index.TestDicom.ct().patient("RET-" + n, "Retention^Test")
                    .study("1.2.826.51." + n, "19990101").series("1.2.826.51." + n + ".1", "XA", 1)
                    .instance("1.2.826.51." + n + ".1.1", 1).writeTo(work.resolve("xa-" + n + ".dcm"));
            assertThat(admin.put("/images/trash/retention/xa-" + n + ".dcm", xa).statusCode()).isEqualTo(201);
        }
        String draft = "{\"name\": \"XA after ten years\", \"basis\": \"STUDY_DATE\", \"olderThanDays\": 3652,"
                + " \"modality\": \"XA\", \"enabled\": false}";
        assertThat(uploader.postJson("/retention/rules", draft).statusCode()).isEqualTo(403);
        assertThat(uploader.postJson("/retention/rules/preview", draft).statusCode()).isEqualTo(403);
        JsonObject dryRun = object(admin.postJson("/retention/rules/preview", draft).body()); // before it is made
        assertThat(dryRun.getJsonArray("studies")).hasSize(2);
        assertThat(dryRun.getJsonObject("rule").containsKey("id")).isFalse();
        assertThat(array(admin.getJson("/retention/rules").body())).isEmpty();
        HttpResponse<String> made = admin.postJson("/retention/rules", draft);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        String id = object(made.body()).getString("id");

        JsonObject preview = object(admin.getJson("/retention/rules/" + id + "/preview").body());
        assertThat(preview.getJsonArray("studies")).hasSize(2);
        assertThat(preview.getInt("instances")).isEqualTo(2);
        assertThat(reader.getJson("/dicomweb/studies?StudyInstanceUID=1.2.826.51.1").body()).contains("1.2.826.51.1");

        JsonObject run = object(post(admin, "/retention/rules/" + id + "/run").body());
        assertThat(run.getString("outcome")).isEqualTo("deleted");
        assertThat(run.getJsonArray("trashIds")).hasSize(2);
        assertThat(reader.getJson("/dicomweb/studies?StudyInstanceUID=1.2.826.51.1").body())
                .doesNotContain("1.2.826.51.1");
        assertThat(uploader.getJson("/trash").body()).contains("retention rule XA after ten years");
        JsonObject lastRun = array(admin.getJson("/retention/rules").body()).getJsonObject(0).getJsonObject("lastRun");
        assertThat(lastRun.getString("outcome")).isEqualTo("deleted");
        assertThat(lastRun.getInt("studies")).isEqualTo(2);

        HttpResponse<String> everything = admin.postJson("/retention/rules", "{\"name\": \"everything\","
                + " \"basis\": \"RECEIVED\", \"olderThanDays\": 1, \"enabled\": true}");
        assertThat(everything.statusCode()).isEqualTo(201); // nothing was received a day ago
        HttpResponse<String> allOld = admin.postJson("/retention/rules", "{\"name\": \"all old\","
                + " \"basis\": \"STUDY_DATE\", \"olderThanDays\": 1, \"enabled\": true}");
        assertThat(allOld.statusCode()).isEqualTo(409);
        assertThat(allOld.body()).contains("confirm=true");
        assertThat(admin.postJson("/retention/rules", "{\"name\": \"bad\", \"basis\": \"TOMORROW\","
                + " \"olderThanDays\": 1}").statusCode()).isEqualTo(400);
        assertThat(array(admin.getJson("/retention/rules").body())).hasSize(2);
        assertThat(admin.delete("/retention/rules/" + id).statusCode()).isEqualTo(204);
        assertThat(admin.delete("/retention/rules/" + id).statusCode()).isEqualTo(404);
    }

    @Test
    void aRetentionRuleNarrowedBySourceAeOrLabelSelectsOnlyThoseStudies() throws Exception {
        TestStudy sent = TestStudy.create(work.resolve("by-dimse"), "RET-AE", "CT_small.dcm");
        Dcmtk.store(dicomPort, sent.instances().get(0).storescuOptions(), sent.instances().get(0).file()).assertOk();
        TestStudy put = upload("RET-PUT", "CT_small.dcm"); // its file names MEDJAVATEST
        assertThat(admin.sendText(admin.request("/index/studies/" + put.studyUid() + "/labels/teaching")
                .PUT(HttpRequest.BodyPublishers.noBody())).statusCode()).isIn(200, 201, 204);
        String old = "{\"name\": \"old\", \"basis\": \"STUDY_DATE\", \"olderThanDays\": 1, ";

        // storescu calls as STORESCU: the Source AE Title of what the store received
        assertThat(selected(old + "\"sourceAe\": \"STORESCU\"}")).containsExactly(sent.studyUid());
        assertThat(selected(old + "\"label\": \"teaching\"}")).containsExactly(put.studyUid());
        assertThat(selected(old + "\"sourceAe\": \"STORESCU\", \"label\": \"teaching\"}")).isEmpty();
        HttpResponse<String> bad = admin.postJson("/retention/rules/preview", old + "\"sourceAe\": \"A\\\\B\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("sourceAe");
        assertThat(admin.postJson("/retention/rules/preview", old + "\"label\": \"two words\"}").statusCode())
                .isEqualTo(400);
    }

    /** The StudyInstanceUIDs a retention rule's draft selects now. */
    private static List<String> selected(String draft) throws Exception {
        HttpResponse<String> preview = admin.postJson("/retention/rules/preview", draft);
        assertThat(preview.statusCode()).as(preview.body()).isEqualTo(200);
        return object(preview.body()).getJsonArray("studies").getValuesAs(JsonObject.class).stream()
                .map(s -> s.getString("StudyInstanceUID")).toList();
    }

    @Test
    void anIocmRejectionNoteSentByStowMovesTheInstancesItNamesToTheTrash() throws Exception {
        TestStudy study = upload("TRASH-8", "CT_small.dcm", "MR_small.dcm");
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        TestStudy.Instance mr = study.instance("MR_small.dcm");
        Path note = work.resolve("rejection-" + UUID.randomUUID() + ".dcm");
        KeyObjectNote.write(note, study.patientId(), study.studyUid(), "113001", "Rejected for Quality Reasons",
                ct.seriesUid(), ct.sopClassUid(), List.of(ct.sopInstanceUid()));

        long before = lastChange();
        HttpResponse<String> stored = uploader.sendText(uploader.request("/dicomweb/studies")
                .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=IOCM")
                .header("Accept", "application/dicom+json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom("IOCM",
                        List.of(Files.readAllBytes(note))))));

        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
        assertThat(reader.get(path(study, ct)).statusCode()).isEqualTo(404);
        assertThat(reader.get(path(study, mr)).statusCode()).isEqualTo(200);
        assertThat(reader.getJson("/dicomweb/studies/" + study.studyUid() + "/instances").body())
                .doesNotContain(ct.sopInstanceUid()).contains(mr.sopInstanceUid());
        assertThat(uploader.getJson("/trash").body()).contains("Rejected for Quality Reasons");
        assertThat(object(reader.getJson("/changes?since=" + before + "&limit=100").body()).getJsonArray("changes")
                .getValuesAs(JsonObject.class)).filteredOn(c -> c.getString("SOPInstanceUID", "").equals(
                        ct.sopInstanceUid())).extracting(c -> c.getString("kind")).containsExactly("rejected");
    }
}
