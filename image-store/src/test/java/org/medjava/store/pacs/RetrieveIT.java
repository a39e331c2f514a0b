package org.medjava.store.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.pacs.DicomJson.object;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testsupport.Dcmtk;
import org.medjava.store.testsupport.PacsOrthanc;
import org.medjava.store.testsupport.PacsStore;
import org.medjava.store.testsupport.PixelData;
import org.medjava.store.testsupport.StoreClient;
import org.medjava.store.testsupport.TestStudy;

/**
 * Retrieves from a peer that does not transcode (Orthanc 1.10 with {@code TranscodeDicomProtocol} off, holding
 * compressed objects as they were uploaded) and that fail in part for real: one instance of each study is in the
 * store already, so the store refuses it as a duplicate (0111) while the others, compressed ones among them, are
 * stored. The REST answer names the counts and the failed instance with its reason (for a C-MOVE, heard from the
 * store's own SCP, since Orthanc's final C000 names nothing); a retrieve as a job reports its progress and the same
 * result.
 */
@ExtendWith(PacsStore.class)
class RetrieveIT {

    @RegisterExtension
    static final PacsOrthanc peer = new PacsOrthanc("\"TranscodeDicomProtocol\": false,");
    @TempDir
    static Path work;
    static StoreClient admin;

    @BeforeAll
    static void admin() {
        admin = StoreClient.admin(PacsStore.store());
    }

    /**
     * A study of an uncompressed CT and two compressed MRs (RLE, JPEG 2000 lossless) in Orthanc, as uploaded; the CT
     * is in the store already.
     */
    private static TestStudy studyPartlyHere(String name) throws Exception {
        TestStudy study = TestStudy.create(work.resolve(name), name, "CT_small.dcm", "MR_small_RLE.dcm",
                "MR_small_jp2klossless.dcm");
        for (TestStudy.Instance i : study.instances()) {
            HttpResponse<String> r = peer.orthanc().upload(i.file());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        assertThat(Dcmtk.store(ct.storescuOptions(), ct.file()).exitCode()).isZero();
        return study;
    }

    private static void assertTheCompressedOnesAreStoredAsSent(TestStudy study) throws Exception {
        for (String sample : List.of("MR_small_RLE.dcm", "MR_small_jp2klossless.dcm")) {
            TestStudy.Instance i = study.instance(sample);
            Path stored = PacsStore.store().dataDir().resolve("images").resolve(study.storePath(i));
            assertThat(stored).as(sample).exists();
            assertThat(PixelData.of(stored)).as(sample).isEqualTo(PixelData.of(i.file()));
        }
    }

    private static void assertTheDuplicateIsNamed(JsonObject result, TestStudy study) {
        assertThat(result.getInt("failed")).as(result.toString()).isEqualTo(1);
        assertThat(result.getJsonArray("failedInstances")).hasSize(1);
        JsonObject failed = result.getJsonArray("failedInstances").getJsonObject(0);
        assertThat(failed.getString("sopInstanceUid")).isEqualTo(study.instance("CT_small.dcm").sopInstanceUid());
        assertThat(failed.getString("status")).isEqualTo("0111");
        assertThat(failed.getString("reason")).containsIgnoringCase("duplicate");
        assertThat(result.getInt("instancesInStore")).isEqualTo(3);
    }

    @Test
    void cGetBringsCompressedObjectsAndNamesWhatFailed() throws Exception {
        TestStudy study = studyPartlyHere("RET-GET");
        HttpResponse<String> r = admin.postJson("/pacs/remotes/ORTHANC/retrieve", "{\"StudyInstanceUID\":\""
                + study.studyUid() + "\",\"method\":\"get\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonObject result = object(r.body());
        assertThat(result.getInt("stored")).as(r.body()).isEqualTo(2);
        assertThat(result.getInt("completed")).isEqualTo(2);
        assertThat(result.getInt("status")).isEqualTo(0xB000);
        assertTheDuplicateIsNamed(result, study);
        assertTheCompressedOnesAreStoredAsSent(study);
    }

    @Test
    void cMoveAsAJobReportsProgressAndWhatFailed() throws Exception {
        TestStudy study = studyPartlyHere("RET-MOVE");
        HttpResponse<String> submitted = admin.postJson("/jobs",
                "{\"kind\":\"retrieve\",\"params\":{\"ae\":\"ORTHANC\",\"method\":\"move\",\"StudyInstanceUID\":\""
                        + study.studyUid() + "\"}}");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = object(submitted.body()).getString("id");
        JsonObject job = object(admin.getJson("/jobs/" + id).body());
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!List.of("DONE", "FAILED", "CANCELLED").contains(job.getString("state"))
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
            job = object(admin.getJson("/jobs/" + id).body());
        }
        assertThat(job.getString("state")).as(job.toString()).isEqualTo("DONE");
        assertThat(job.getInt("total")).as(job.toString()).isEqualTo(3);
        assertThat(job.getInt("done")).isEqualTo(3);
        JsonObject result = object(job.getString("result"));
        assertThat(result.getInt("stored")).as(result.toString()).isEqualTo(2);
        // Orthanc ends a C-MOVE with a sub-operation failed with C000 and no counts or list: the store heard its SCP
        assertThat(result.getInt("status")).isNotZero();
        assertTheDuplicateIsNamed(result, study);
        assertTheCompressedOnesAreStoredAsSent(study);

        assertThat(admin.postJson("/jobs",
                "{\"kind\":\"retrieve\",\"params\":{\"ae\":\"NOWHERE\",\"StudyInstanceUID\":\"1.2\"}}").statusCode())
                .isEqualTo(404);
        assertThat(admin.postJson("/jobs", "{\"kind\":\"send\",\"params\":{\"ae\":\"ORTHANC\"}}").statusCode())
                .isEqualTo(400);
    }
}
