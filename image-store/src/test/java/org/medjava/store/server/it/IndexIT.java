package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/** The DICOM index over HTTP, kept in step with PUT and DELETE, and rebuildable from the files. */
@ExtendWith(SharedStore.class)
class IndexIT {

    static StoreClient admin;
    static final String CT_STUDY = "1.3.6.1.4.1.5962.1.2.1.20040119072730.12322";

    @BeforeAll
    static void connect() {
        admin = StoreClient.admin(SharedStore.store());
    }

    @Test
    void followsPutsAndDeletes(@TempDir Path work) throws Exception {
        // its own UIDs: the shared store holds other files of MR_small's SOP Instance UID, one instance with them
        TestStudy mr = TestStudy.create(work, "IDX-FOLLOWS", "MR_small.dcm");
        admin.put("/images/it/index/mr.dcm", mr.instances().get(0).file());
        HttpResponse<String> studies = admin.getJson("/index/studies?StudyInstanceUID=" + mr.studyUid());
        assertThat(studies.statusCode()).isEqualTo(200);
        assertThat(studies.body()).contains("\"ModalitiesInStudy\":[\"MR\"]",
                "\"NumberOfStudyRelatedInstances\":1");

        HttpResponse<String> series = admin.getJson("/index/studies/" + mr.studyUid() + "/series");
        assertThat(series.body()).contains("\"Modality\":\"MR\"");
        String seriesUid = mr.instances().get(0).seriesUid();
        assertThat(admin.getJson("/index/series/" + seriesUid + "/instances").body())
                .contains("\"path\":\"it/index/mr.dcm\"");

        assertThat(admin.delete("/images/it/index/mr.dcm").statusCode()).isEqualTo(204);
        assertThat(admin.getJson("/index/series/" + seriesUid + "/instances").body())
                .doesNotContain("it/index/mr.dcm");
    }

    @Test
    void matchesWithDicomRules() throws Exception {
        admin.put("/images/it/index/ct.dcm", Samples.bytes(Samples.dicom("CT_small.dcm")));
        assertThat(admin.getJson("/index/studies?PatientID=1CT*").body()).contains(CT_STUDY);
        assertThat(admin.getJson("/index/studies?StudyDate=20040101-20041231&PatientID=1CT1").body()).contains(CT_STUDY);
        assertThat(admin.getJson("/index/studies?StudyDate=-19991231&PatientID=1CT1").body()).doesNotContain(CT_STUDY);
        assertThat(admin.getJson("/index/studies?StudyInstanceUID=1.2.3%5C" + CT_STUDY).body()).contains(CT_STUDY);
        assertThat(admin.getJson("/index/patients?PatientID=1CT1").body()).contains("\"PatientID\":\"1CT1\"");

        HttpResponse<String> badKey = admin.getJson("/index/studies?Colour=red");
        assertThat(badKey.statusCode()).isEqualTo(400);
        assertThat(badKey.body()).contains("Colour", "PatientName");
        HttpResponse<String> month13 = admin.getJson("/index/studies?StudyDate=20231301");
        assertThat(month13.statusCode()).isEqualTo(400);
        assertThat(month13.body()).contains("2023-13-01 is not a day");
        HttpResponse<String> maybe = admin.getJson("/index/studies?fuzzymatching=maybe");
        assertThat(maybe.statusCode()).isEqualTo(400);
        assertThat(maybe.body()).contains("fuzzymatching=maybe is neither true nor false");
    }

    @Test
    void rebuildsFromTheFiles() throws Exception {
        admin.put("/images/it/index/rebuild/ct.dcm", Samples.bytes(Samples.dicom("CT_small.dcm")));
        // A file dropped into the data directory behind the store's back is found by a rebuild.
        Path behindTheBack = SharedStore.store().dataDir().resolve("images/it/index/rebuild/mr-rle.dcm");
        Files.copy(Samples.dicom("MR_small_RLE.dcm"), behindTheBack);
        assertThat(admin.getJson("/index/studies?ModalitiesInStudy=MR&limit=0").body())
                .doesNotContain("rebuild/mr-rle.dcm");

        HttpResponse<String> report = admin.sendText(admin.request("/admin/index/rebuild")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(report.statusCode()).isEqualTo(200);
        assertThat(report.body()).contains("indexed");
        assertThat(admin.getJson("/images/it/index/rebuild/").body()).contains("\"name\":\"mr-rle.dcm\"",
                "\"Modality\":\"MR\"");
    }

    @Test
    void rebuildsAsABackgroundJob() throws Exception {
        admin.put("/images/it/index/job/ct.dcm", Samples.bytes(Samples.dicom("CT_small.dcm")));
        Path behindTheBack = SharedStore.store().dataDir().resolve("images/it/index/job/mr.dcm");
        Files.copy(Samples.dicom("MR_small.dcm"), behindTheBack);

        HttpResponse<String> refused = admin.sendText(admin.request("/jobs").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"kind\":\"no-such-job\"}")));
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("index-rebuild", "render-series", "retrieve");

        HttpResponse<String> accepted = admin.sendText(admin.request("/jobs").header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"kind\":\"index-rebuild\"}")));
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
        String job = accepted.headers().firstValue("Location").orElseThrow();
        String path = job.substring(job.indexOf("/jobs/"));
        String status = "";
        for (int i = 0; i < 600 && !status.contains("\"state\":\"DONE\"") && !status.contains("FAILED"); i++) {
            Thread.sleep(100);
            status = admin.getJson(path).body();
        }
        assertThat(status).contains("\"state\":\"DONE\"", "\"kind\":\"index-rebuild\"", "indexed");
        assertThat(admin.getJson("/jobs").body()).contains(path.substring("/jobs/".length()));
        assertThat(admin.getJson("/images/it/index/job/").body()).contains("\"name\":\"mr.dcm\"",
                "\"Modality\":\"MR\"");
    }
}
