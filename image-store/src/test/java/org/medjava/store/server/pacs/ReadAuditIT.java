package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import javax.json.Json;
import javax.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.peers.Storescp;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The audit of reads on a real store, door by door: one study read by a reader through the front ({@code /images/},
 * thumbnails), the container ({@code /images/} with a query), DICOMweb (WADO-RS, metadata, rendered) and QIDO-RS;
 * an administrator finds each door's reads at {@code GET /audit/events} with the user, the client, the study and
 * the patient — one event per door for the window however many requests, the requests all counted — and the DICOM
 * messages in audit.log. Over DIMSE, DCMTK's C-FIND, C-GET and C-MOVE are a query, a read and an export by the
 * calling AE title.
 */
@ExtendWith(PacsStore.class)
class ReadAuditIT {

    @TempDir
    static Path work;
    static StoreClient admin;
    static StoreClient reader;
    static TestStudy study;

    @BeforeAll
    static void setUp() throws Exception {
        PayaraStore store = PacsStore.store();
        admin = StoreClient.admin(store);
        reader = admin.account("auditreader", "reader");
        study = TestStudy.create(work.resolve("s"), "AUDIT-READS-" + UUID.randomUUID().toString().substring(0, 8),
                "CT_small.dcm", "CT_small.dcm");
        for (TestStudy.Instance i : study.instances()) {
            assertThat(admin.put(path(i), i.file()).statusCode()).isEqualTo(201);
        }
    }

    static String path(TestStudy.Instance i) {
        return "/images/read-audit/" + study.patientId() + "/" + i.sopInstanceUid() + ".dcm";
    }

    static List<JsonObject> events(String query) throws Exception {
        var answer = admin.getJson("/audit/events?" + query);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return Json.createReader(new StringReader(answer.body())).readArray().getValuesAs(JsonObject.class);
    }

    static int requests(JsonObject event) {
        return Integer.parseInt(event.getString("description").replaceAll(".*\\((\\d+) requests?\\).*", "$1"));
    }

    @Test
    void eachDoorsReadsOfAStudyAreOneEventWithUserClientStudyAndPatient() throws Exception {
        TestStudy.Instance one = study.instances().get(0);
        TestStudy.Instance two = study.instances().get(1);
        String wado = "/dicomweb/studies/" + study.studyUid();
        String instance = wado + "/series/" + one.seriesUid() + "/instances/" + one.sopInstanceUid();
        int made = 0;
        for (String p : List.of(path(one), path(one), path(two))) { // the front's plain reads
            assertThat(reader.get(p).statusCode()).isEqualTo(200);
            made++;
        }
        assertThat(reader.get(path(one) + "?download").statusCode()).isEqualTo(200); // the container's
        made++;
        assertThat(reader.send(reader.request(wado).header("Accept", "multipart/related; type=\"application/dicom\""))
                .statusCode()).isEqualTo(200);
        assertThat(reader.getJson(wado + "/metadata").statusCode()).isEqualTo(200);
        assertThat(reader.send(reader.request(instance + "/rendered").header("Accept", "image/jpeg")).statusCode())
                .isEqualTo(200);
        assertThat(reader.send(reader.request(wado + "/thumbnail").header("Accept", "image/jpeg")).statusCode())
                .isEqualTo(200);
        made += 4;

        List<JsonObject> reads = events("study=" + study.studyUid() + "&type=read&user=auditreader");
        assertThat(reads).extracting(e -> e.getString("door")).doesNotHaveDuplicates()
                .contains("front", "http", "dicomweb");
        assertThat(reads).allSatisfy(e -> {
            assertThat(e.getString("eventId")).isEqualTo("110103");
            assertThat(e.getString("action")).isEqualTo("R");
            assertThat(e.getString("PatientID")).isEqualTo(study.patientId());
            assertThat(e.getString("address")).isEqualTo("127.0.0.1");
        });
        assertThat(reads.stream().mapToInt(ReadAuditIT::requests).sum()).isEqualTo(made);
        assertThat(events("patient=" + study.patientId() + "&type=read&user=auditreader")).hasSameSizeAs(reads);

        // the search closed the window: the next reads are the next event of their door
        assertThat(reader.get(path(two)).statusCode()).isEqualTo(200);
        List<JsonObject> after = events("study=" + study.studyUid() + "&type=read&user=auditreader&door=front");
        assertThat(after.get(0).getString("door")).isEqualTo("front");
        assertThat(requests(after.get(0))).isEqualTo(1);

        String log = Files.readString(PacsStore.store().dataDir().resolve("logs/audit.log"), StandardCharsets.UTF_8);
        assertThat(log.lines().filter(l -> l.contains("csd-code=\"110103\"") && l.contains("EventActionCode=\"R\"")
                && l.contains("ParticipantObjectID=\"" + study.studyUid() + "\"")
                && l.contains("ParticipantObjectID=\"" + study.patientId() + "\"")
                && l.contains("UserID=\"auditreader\""))).isNotEmpty();
    }

    @Test
    void queriesAreAuditedWithTheQueryAndThePatientTheyName() throws Exception {
        String qido = "/dicomweb/studies?PatientID=" + study.patientId() + "&includefield=StudyDate";
        assertThat(reader.getJson(qido).statusCode()).isEqualTo(200);
        assertThat(reader.getJson(qido).statusCode()).isEqualTo(200);
        List<JsonObject> queries = events("patient=" + study.patientId() + "&type=query&user=auditreader");
        assertThat(queries).hasSize(1);
        assertThat(queries.get(0).getString("eventId")).isEqualTo("110112");
        assertThat(queries.get(0).getString("door")).isEqualTo("dicomweb");
        assertThat(requests(queries.get(0))).isEqualTo(2);
        String log = Files.readString(PacsStore.store().dataDir().resolve("logs/audit.log"), StandardCharsets.UTF_8);
        String asked = java.util.Base64.getEncoder().encodeToString(("PatientID=" + study.patientId()
                + "&includefield=StudyDate").getBytes(StandardCharsets.UTF_8));
        assertThat(log).contains("<ParticipantObjectQuery>" + asked + "</ParticipantObjectQuery>");
    }

    @Test
    void dimseQueriesRetrievesAndMovesAreEventsOfTheCallingAe() throws Exception {
        String uid = "StudyInstanceUID=" + study.studyUid();
        Command.Result find = Dcmtk.find("-S", "QueryRetrieveLevel=STUDY", uid, "PatientID=" + study.patientId(),
                "StudyDate").assertOk();
        assertThat(Dcmtk.matches(find)).as(find.output()).isEqualTo(1);
        Command.Result got = Dcmtk.get(Files.createDirectories(work.resolve("got")), "QueryRetrieveLevel=STUDY", uid)
                .assertOk();
        assertThat(got.output()).contains("Number of Completed Suboperations : 2");
        try (Storescp destination = Storescp.start(PacsStore.DESTINATION_AE, PacsStore.moveDestinationPort(),
                work.resolve("moved"))) {
            Command.Result moved = Dcmtk.move(PacsStore.DESTINATION_AE, "QueryRetrieveLevel=STUDY", uid);
            assertThat(moved.output()).as(destination.log()).contains("Received Final Move Response (Success)");
        }

        JsonObject query = single("study=" + study.studyUid() + "&type=query&user=FINDSCU");
        assertThat(query.getString("eventId")).isEqualTo("110112");
        assertThat(query.getString("PatientID")).isEqualTo(study.patientId());
        JsonObject read = single("study=" + study.studyUid() + "&type=read&user=GETSCU");
        assertThat(read.getString("description")).startsWith("2 instances read over dimse");
        JsonObject export = single("study=" + study.studyUid() + "&type=export&user=MOVESCU");
        assertThat(export.getString("eventId")).isEqualTo("110106");
        assertThat(export.getString("description")).startsWith("2 instances sent to " + PacsStore.DESTINATION_AE);
        for (JsonObject e : List.of(query, read, export)) {
            assertThat(e.getString("door")).isEqualTo("dimse");
            assertThat(e.getString("address")).isEqualTo("127.0.0.1");
            assertThat(e.getString("StudyInstanceUID")).isEqualTo(study.studyUid());
            assertThat(e.getString("PatientID")).isEqualTo(study.patientId());
        }
        String log = Files.readString(PacsStore.store().dataDir().resolve("logs/audit.log"), StandardCharsets.UTF_8);
        String asked = java.util.Base64.getEncoder().encodeToString(("QueryRetrieveLevel=STUDY&PatientID=" + study.patientId()
                + "&" + uid).getBytes(StandardCharsets.UTF_8));
        assertThat(log).contains("<ParticipantObjectQuery>" + asked + "</ParticipantObjectQuery>");
    }

    static JsonObject single(String query) throws Exception {
        List<JsonObject> found = events(query);
        assertThat(found).as(query).hasSize(1);
        return found.get(0);
    }

    @Test
    void aRefusedRequestIsAnEventOfItsUserWithThePath() throws Exception {
        assertThat(reader.getJson("/admin/users").statusCode()).isEqualTo(403);
        List<JsonObject> refused = events("type=read&user=auditreader").stream()
                .filter(e -> e.getInt("outcome") != 0 && e.getString("description").contains("/admin/users")).toList();
        assertThat(refused).singleElement().satisfies(e -> {
            assertThat(e.getString("door")).isEqualTo("http");
            assertThat(e.getString("address")).isEqualTo("127.0.0.1");
            assertThat(e.getString("description")).contains("GET /admin/users refused", "lacks the admin role");
        });
    }

    @Test
    void onlyAdministratorsSearchAndBadQuestionsAreRefused() throws Exception {
        assertThat(reader.getJson("/audit/events").statusCode()).isEqualTo(403);
        assertThat(admin.getJson("/audit/events?type=opened").statusCode()).isEqualTo(400);
        assertThat(admin.getJson("/audit/events?since=yesterday").statusCode()).isEqualTo(400);
        assertThat(admin.getJson("/audit/events?limit=0").statusCode()).isEqualTo(400);
        assertThat(events("type=login&user=admin&limit=1")).singleElement()
                .satisfies(e -> assertThat(e.getString("eventId")).isEqualTo("110114"));
    }
}
