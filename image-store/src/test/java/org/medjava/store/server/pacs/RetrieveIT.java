package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.server.pacs.DicomJson.object;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
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
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.testsupport.PixelData;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsOrthanc;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Retrieves from a peer that does not transcode (Orthanc 1.10 with {@code TranscodeDicomProtocol} off, holding
 * compressed objects as they were uploaded) and that fail in part for real: one instance of each study is in the
 * store already, so the store refuses the copy as a duplicate (0111) and counts it as already held, not failed; one
 * has no Pixel Data, so the store refuses it (C000) with a reason longer than the 64 characters of a DIMSE
 * ErrorComment; the others, compressed ones among them, are stored. The REST answer names the counts and the failed
 * instance with its whole reason (for a C-MOVE, heard from the store's own SCP, since Orthanc's final C000 names
 * nothing); a retrieve as a job reports its progress and the same result.
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

    static final String NO_PIXELS_REASON = "missing Pixel Data: CT Image needs Pixel Data (7FE0,0010) and "
            + "this data set, complete otherwise, has none";

    /**
     * A study of an uncompressed CT and two compressed MRs (RLE, JPEG 2000 lossless) in Orthanc, as uploaded, and a
     * CT without Pixel Data (in Orthanc only: its UID is returned); the CT is in the store already.
     */
    private static TestStudy studyPartlyHere(String name, String[] noPixelsUid) throws Exception {
        TestStudy study = TestStudy.create(work.resolve(name), name, "CT_small.dcm", "MR_small_RLE.dcm",
                "MR_small_jp2klossless.dcm");
        for (TestStudy.Instance i : study.instances()) {
            HttpResponse<String> r = peer.orthanc().upload(i.file());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        TestStudy.Instance ct = study.instance("CT_small.dcm");
        assertThat(Dcmtk.store(ct.storescuOptions(), ct.file()).exitCode()).isZero();
        noPixelsUid[0] = TestStudy.newUid();
        Path noPixels = withoutPixelData(TestDicom.ct().patient(name, "No^Pixels").study(study.studyUid(), "20240105")
                .series(ct.seriesUid(), "CT", 1).instance(noPixelsUid[0], 9).writeTo(work.resolve(name + "-np.dcm")));
        HttpResponse<String> r = peer.orthanc().upload(noPixels);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return study;
    }

    private static Path withoutPixelData(Path file) throws Exception {
        AttributeList list = new AttributeList();
        list.read(file.toFile());
        list.remove(TagFromName.PixelData);
        list.write(file.toFile(), TransferSyntax.ExplicitVRLittleEndian, true, true);
        return file;
    }

    private static void assertTheCompressedOnesAreStoredAsSent(TestStudy study) throws Exception {
        for (String sample : List.of("MR_small_RLE.dcm", "MR_small_jp2klossless.dcm")) {
            TestStudy.Instance i = study.instance(sample);
            Path stored = PacsStore.store().dataDir().resolve("images").resolve(study.storePath(i));
            assertThat(stored).as(sample).exists();
            assertThat(PixelData.of(stored)).as(sample).isEqualTo(PixelData.of(i.file()));
        }
    }

    /** The CT held already is counted as such, not failed; the one without pixels failed, with its whole reason. */
    private static void assertTheHeldAndTheFailedAreTold(JsonObject result, String noPixelsUid) {
        assertThat(result.getInt("alreadyHeld")).as(result.toString()).isEqualTo(1);
        assertThat(result.getInt("failed")).as(result.toString()).isEqualTo(1);
        assertThat(result.getJsonArray("failedInstances")).hasSize(1);
        JsonObject failed = result.getJsonArray("failedInstances").getJsonObject(0);
        assertThat(failed.getString("sopInstanceUid")).isEqualTo(noPixelsUid);
        assertThat(failed.getString("status")).isEqualTo("C000");
        assertThat(failed.getString("reason")).isEqualTo(NO_PIXELS_REASON); // not cut to ErrorComment's 64
        assertThat(result.getJsonArray("errors").getString(0)).isEqualTo(noPixelsUid + ": " + NO_PIXELS_REASON);
        assertThat(result.getInt("instancesInStore")).isEqualTo(3);
    }

    @Test
    void cGetBringsCompressedObjectsAndNamesWhatFailed() throws Exception {
        String[] noPixels = new String[1];
        TestStudy study = studyPartlyHere("RET-GET", noPixels);
        HttpResponse<String> r = admin.postJson("/pacs/remotes/ORTHANC/retrieve", "{\"StudyInstanceUID\":\""
                + study.studyUid() + "\",\"method\":\"get\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        JsonObject result = object(r.body());
        assertThat(result.getInt("stored")).as(r.body()).isEqualTo(2);
        assertThat(result.getInt("completed")).isEqualTo(2);
        assertThat(result.getInt("status")).isEqualTo(0xB000);
        assertTheHeldAndTheFailedAreTold(result, noPixels[0]);
        assertTheCompressedOnesAreStoredAsSent(study);
    }

    @Test
    void cMoveAsAJobReportsProgressAndWhatFailed() throws Exception {
        String[] noPixels = new String[1];
        TestStudy study = studyPartlyHere("RET-MOVE", noPixels);
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
        assertThat(job.getInt("total")).as(job.toString()).isEqualTo(4);
        assertThat(job.getInt("done")).isEqualTo(4);
        JsonObject result = object(job.getString("result"));
        assertThat(result.getInt("stored")).as(result.toString()).isEqualTo(2);
        // Orthanc ends a C-MOVE with a sub-operation failed with C000 and no counts or list: the store heard its SCP
        assertThat(result.getInt("status")).isNotZero();
        assertTheHeldAndTheFailedAreTold(result, noPixels[0]);
        assertTheCompressedOnesAreStoredAsSent(study);

        assertThat(admin.postJson("/jobs",
                "{\"kind\":\"retrieve\",\"params\":{\"ae\":\"NOWHERE\",\"StudyInstanceUID\":\"1.2\"}}").statusCode())
                .isEqualTo(404);
        assertThat(admin.postJson("/jobs", "{\"kind\":\"send\",\"params\":{\"ae\":\"ORTHANC\"}}").statusCode())
                .isEqualTo(400);
    }
}
