package org.medjava.store.server.webapp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.json.Json;
import javax.json.JsonArrayBuilder;
import javax.json.JsonObjectBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.peers.Orthanc;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The web applications in a real browser: starts a store, fills it with the studies the browser tests expect
 * (described to them in a fixtures JSON file), and runs the Node test files in {@code web/e2e/} against it
 * ({@link NodeBrowserTests}). Each browser test is a Node test; their report is this test's output, and any failure
 * fails it. {@code -Dmedjava.e2e=REGEX} runs only the files whose names match (e.g. {@code 55-api}); the store is
 * filled all the same. The single sign-on's browser tests ({@code web/e2e/sso/}) are {@link SingleSignOnBrowserIT}'s.
 */
class WebAppBrowserIT {

    /** The upload limit the browser tests meet (413 shown as a readable message). */
    static final long UPLOAD_LIMIT = 24L * 1024 * 1024;
    static final int SERIES_JOB_COUNT = 6;
    static final int TRASH_COUNT = 3;
    /** The deletion guard's minimum: below the 100-image study, above every other study. */
    static final int GUARDED_COUNT = 50;

    @TempDir
    static Path work;
    static PayaraStore store;
    static Orthanc pacs;
    static Path fixtures;

    @BeforeAll
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // a store started and 121 objects stored
    static void storeWithStudies() throws Exception {
        // Orthanc as the remote PACS of the admin console's PACS page (query, retrieve, send)
        int dicomPort = Ports.free();
        int pacsDicomPort = Ports.free();
        int pacsHttpPort = Ports.free();
        store = PayaraStore.named("webapp").seedPlugins()
                .property("medjava.upload.max-bytes", Long.toString(UPLOAD_LIMIT))
                .property("medjava.dicom.port", Integer.toString(dicomPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.aet", PacsStore.AE)
                .property("medjava.dicom.allowed-aets", PacsStore.ORTHANC_AE + "=127.0.0.1")
                .property("medjava.dicom.move-destinations", PacsStore.ORTHANC_AE + "=127.0.0.1:" + pacsDicomPort)
                .property("medjava.dicom.remotes", PacsStore.ORTHANC_AE + "=127.0.0.1:" + pacsDicomPort)
                .property("medjava.dicom.duplicate-policy", "reject")
                // The deletion guard held by the 100-image study only (the trash's browser tests meet its 409)
                .property("medjava.delete.guard-share", "0.5")
                .property("medjava.delete.guard-min-instances", Integer.toString(GUARDED_COUNT))
                // The routes' browser tests see a refused send wait for its retry, then the dead-letter list
                .property("medjava.route.backoff-initial-seconds", "4")
                .property("medjava.route.backoff-max-seconds", "4")
                .property("medjava.route.max-attempts", "2")
                .property("medjava.route.poll-seconds", "0.5")
                .start();
        pacs = Orthanc.start(work.resolve("orthanc"), PacsStore.ORTHANC_AE, pacsDicomPort, pacsHttpPort,
                new Orthanc.Peer(PacsStore.AE, dicomPort, store.uri("/dicomweb/").toString(), "admin",
                        PayaraStore.ADMIN_PASSWORD));
        StoreClient admin = StoreClient.admin(store);
        JsonObjectBuilder users = Json.createObjectBuilder()
                .add("admin", Json.createObjectBuilder().add("password", PayaraStore.ADMIN_PASSWORD).add("role", "admin"));
        for (String[] u : new String[][] {{"rita", "reader-pass-1", "reader"}, {"uma", "uploader-pass-1", "uploader"}}) {
            HttpResponse<String> r = admin.sendText(admin.request("/admin/users/" + u[0])
                    .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                            "{\"password\":\"" + u[1] + "\",\"role\":\"" + u[2] + "\"}")));
            assertThat(r.statusCode()).as(r.body()).isIn(200, 201, 204);
            users.add(u[0], Json.createObjectBuilder().add("password", u[1]).add("role", u[2]));
        }

        // One study of each kind a reader meets: CT and MR (16-bit), a 30-frame US, JPEG 2000, and the 1760² CR
        // (6 MB, from the shared test data beside the repository, like the viewer's large-image tests).
        List<Path> files = new ArrayList<>(Stream.of("CT_small.dcm", "MR_small.dcm", "examples_ybr_color.dcm",
                "JPEG2000.dcm").map(Samples::dicom).toList());
        Path cr = Path.of("..", "..", "shared", "testdata", "dicom", "RG3_UNCR.dcm").toAbsolutePath().normalize();
        assertThat(cr).as("the shared test data (../shared/testdata) holds the 1760² CR").exists();
        files.add(cr);
        TestStudy mixed = TestStudy.create(work.resolve("mixed"), "WEB-E2E-1", files);
        JsonArrayBuilder instances = Json.createArrayBuilder();
        for (TestStudy.Instance i : mixed.instances()) {
            String path = "/images/" + mixed.storePath(i);
            HttpResponse<String> r = admin.put(path, i.file());
            assertThat(r.statusCode()).as(path + ": " + r.body()).isIn(201, 204);
            instances.add(Json.createObjectBuilder().add("sample", i.sample()).add("path", path)
                    .add("seriesUid", i.seriesUid()).add("sopInstanceUid", i.sopInstanceUid()));
        }

        // A 100-image CT series for stack scrolling (copies of CT_small with their own UIDs and positions).
        String stackStudy = TestStudy.newUid();
        String stackSeries = TestStudy.newUid();
        for (int n = 1; n <= 100; n++) {
            Path file = TestDicom.ct().patient("WEB-E2E-2", "Stack^Hundred").study(stackStudy, "20240102")
                    .series(stackSeries, "CT", 7).instance(TestStudy.newUid(), n)
                    .set("ImagePositionPatient", "0\\0\\" + (n * 2.5)).set("SliceLocation", Double.toString(n * 2.5))
                    .writeTo(work.resolve("stack-" + n + ".dcm"));
            HttpResponse<String> r = admin.put("/images/e2e/stack/" + n + ".dcm", file);
            assertThat(r.statusCode()).as(r.body()).isIn(201, 204);
        }

        // A 6-image CT series of its own study for "Apply to the whole series" (its derived series lands there).
        String jobStudy = TestStudy.newUid();
        String jobSeries = TestStudy.newUid();
        for (int n = 1; n <= SERIES_JOB_COUNT; n++) {
            Path file = TestDicom.ct().patient("SERIES-JOB-E2E", "Series^Job").study(jobStudy, "20240103")
                    .series(jobSeries, "CT", 8).instance(TestStudy.newUid(), n).writeTo(work.resolve("job-" + n + ".dcm"));
            HttpResponse<String> r = admin.put("/images/e2e/series-job/" + n + ".dcm", file);
            assertThat(r.statusCode()).as(r.body()).isIn(201, 204);
        }

        // A 3-image study the trash's browser tests delete, restore and purge, and one they store and delete themselves.
        String trashStudy = TestStudy.newUid();
        String trashSeries = TestStudy.newUid();
        for (int n = 1; n <= TRASH_COUNT; n++) {
            Path file = TestDicom.ct().patient("TRASH-E2E", "Trash^Study").study(trashStudy, "20240104")
                    .set("StudyDescription", "Study to delete").series(trashSeries, "CT", 9)
                    .instance(TestStudy.newUid(), n).writeTo(work.resolve("trash-" + n + ".dcm"));
            HttpResponse<String> r = admin.put("/images/e2e/trash/" + n + ".dcm", file);
            assertThat(r.statusCode()).as(r.body()).isIn(201, 204);
        }
        // An old RF study the retention rules' browser tests preview and run (the store's only RF, and before 1991).
        String retentionStudy = TestStudy.newUid();
        put(admin, "/images/e2e/retention/1.dcm", TestDicom.ct().patient("RETENTION-E2E", "Retention^Old")
                .study(retentionStudy, "19900101").series(TestStudy.newUid(), "RF", 1).instance(TestStudy.newUid(), 1)
                .sourceAe("RF_WARD").writeTo(work.resolve("retention.dcm")));
        // A 2-image study the corrections' browser tests correct, and two patients of one study each they merge.
        String correctStudy = TestStudy.newUid();
        String correctSeries = TestStudy.newUid();
        for (int n = 1; n <= 2; n++) {
            put(admin, "/images/e2e/correct/" + n + ".dcm", TestDicom.ct().patient("CORRECT-E2E", "Misspeled^Name")
                    .study(correctStudy, "20240106").set("AccessionNumber", "ACC-OLD")
                    .set("StudyDescription", "Study to correct").series(correctSeries, "CT", 10)
                    .instance(TestStudy.newUid(), n).writeTo(work.resolve("correct-" + n + ".dcm")));
        }
        String[] mergeStudies = {TestStudy.newUid(), TestStudy.newUid()};
        String[][] mergePatients = {{"MERGE-E2E-SRC", "Merge^Source"}, {"MERGE-E2E-DST", "Merge^Target"}};
        for (int n = 0; n < 2; n++) {
            put(admin, "/images/e2e/merge/" + n + ".dcm", TestDicom.ct().patient(mergePatients[n][0],
                    mergePatients[n][1]).study(mergeStudies[n], "20240107").series(TestStudy.newUid(), "CT", 1)
                    .instance(TestStudy.newUid(), 1).writeTo(work.resolve("merge-" + n + ".dcm")));
        }
        // A 2-image study the routes' browser tests send (to the store itself by STOW-RS, and to a closed port).
        String routesStudy = TestStudy.newUid();
        String routesSeries = TestStudy.newUid();
        for (int n = 1; n <= 2; n++) {
            put(admin, "/images/e2e/routes/" + n + ".dcm", TestDicom.ct().patient("ROUTES-E2E", "Routes^Study")
                    .study(routesStudy, "20240108").series(routesSeries, "CT", 1).instance(TestStudy.newUid(), n)
                    .writeTo(work.resolve("routes-" + n + ".dcm")));
        }
        String changesStudy = TestStudy.newUid();
        Path changesFile = TestDicom.ct().patient("CHANGES-E2E", "Changes^Feed").study(changesStudy, "20240105")
                .series(TestStudy.newUid(), "CT", 1).instance(TestStudy.newUid(), 1)
                .writeTo(work.resolve("changes.dcm"));

        // The PACS holds the mixed study (which the store holds too) and a study of its own.
        TestStudy fresh = TestStudy.create(work.resolve("pacs-fresh"), "WEB-E2E-PACS", "CT_small.dcm", "MR_small.dcm");
        for (Path file : Stream.concat(mixed.instances().stream(), fresh.instances().stream())
                .map(TestStudy.Instance::file).toList()) {
            HttpResponse<String> r = pacs.upload(file);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }

        fixtures = work.resolve("fixtures.json");
        Files.writeString(fixtures, Json.createObjectBuilder()
                .add("url", store.uri("/").toString().replaceAll("/$", ""))
                .add("users", users)
                .add("uploadLimit", UPLOAD_LIMIT)
                .add("mixed", Json.createObjectBuilder().add("patientId", mixed.patientId())
                        .add("studyUid", mixed.studyUid()).add("instances", instances))
                .add("stack", Json.createObjectBuilder().add("patientId", "WEB-E2E-2").add("studyUid", stackStudy)
                        .add("seriesUid", stackSeries).add("count", 100))
                .add("seriesJob", Json.createObjectBuilder().add("studyUid", jobStudy).add("seriesUid", jobSeries)
                        .add("count", SERIES_JOB_COUNT))
                .add("trash", Json.createObjectBuilder().add("patientId", "TRASH-E2E").add("studyUid", trashStudy)
                        .add("count", TRASH_COUNT).add("description", "Study to delete")
                        .add("changesFile", changesFile.toString()).add("changesStudyUid", changesStudy))
                .add("retention", Json.createObjectBuilder().add("studyUid", retentionStudy).add("modality", "RF")
                        .add("sourceAe", "RF_WARD"))
                .add("correct", Json.createObjectBuilder().add("patientId", "CORRECT-E2E").add("studyUid", correctStudy)
                        .add("patientName", "Misspeled^Name").add("accession", "ACC-OLD").add("count", 2))
                .add("merge", Json.createObjectBuilder().add("source", "MERGE-E2E-SRC").add("sourceStudyUid",
                        mergeStudies[0]).add("target", "MERGE-E2E-DST").add("targetName", "Merge^Target"))
                .add("routes", Json.createObjectBuilder().add("studyUid", routesStudy).add("count", 2))
                .add("pacs", Json.createObjectBuilder().add("ae", PacsStore.ORTHANC_AE)
                        .add("freshStudyUid", fresh.studyUid()).add("freshCount", fresh.instances().size())
                        .add("heldStudyUid", mixed.studyUid()).add("heldCount", mixed.instances().size()))
                .add("samples", Path.of("..", "testdata", "samples").toAbsolutePath().normalize().toString())
                .add("work", work.toString())
                .build().toString());
    }

    private static void put(StoreClient admin, String path, Path file) throws Exception {
        HttpResponse<String> r = admin.put(path, file);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isIn(201, 204);
    }

    @AfterAll
    static void stop() throws Exception {
        if (pacs != null) {
            pacs.close();
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES) // about 2 minutes here; the suite's default is for single checks
    void theBrowserTestsPass() throws Exception {
        List<String> files = NodeBrowserTests.in("e2e");
        // -Dmedjava.e2e=REGEX runs only the files whose names match (e.g. "35-filters|36-series" while working on them)
        String only = System.getProperty("medjava.e2e", "");
        if (!only.isBlank()) {
            files = files.stream().filter(n -> java.util.regex.Pattern.compile(only).matcher(n).find()).toList();
        }
        assertThat(files).as("browser tests in web/e2e").isNotEmpty();
        NodeBrowserTests.run(files, fixtures, work, Duration.ofMinutes(19));
    }
}
