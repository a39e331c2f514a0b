package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.medjava.store.server.pacs.DicomJson.array;
import static org.medjava.store.server.pacs.DicomJson.object;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.TcpRelay;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.peers.Orthanc;
import org.medjava.store.testkit.peers.Storescp;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Routing rules on a real store: what storescu sends in is forwarded by C-STORE to Orthanc and by STOW-RS to a
 * second store that cannot be reached when the instances arrive (a relay refuses its connections) and can be later
 * (the tasks wait by the back-off, then everything arrives once: the receiver refuses duplicates); a destination that does not answer ends in the
 * dead-letter list, and a retry from there sends once it answers; bad rules and callers are refused.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES) // Orthanc, and a destination tried until it is given up
class RoutingIT {
    static final String AE = "MEDJAVA";
    static final String ORTHANC_AE = "ORTHANC";
    static final String LATE_AE = "LATE";

    @TempDir
    static Path work;
    static PayaraStore store;
    static PayaraStore receiver;
    static Orthanc orthanc;
    static StoreClient admin;
    static int dicomPort;
    static int latePort;
    /** Between the sender and the receiver: the receiver unreachable, then back, at once and without a restart. */
    static TcpRelay toReceiver;
    /** Tries of a task, a second apart: it outlasts the few seconds the receiver is kept unreachable below. */
    static final int MAX_ATTEMPTS = 8;

    @BeforeAll
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // two stores
    static void start() throws Exception {
        dicomPort = Ports.free();
        int orthancDicom = Ports.free();
        int orthancHttp = Ports.free();
        latePort = Ports.free();
        receiver = PayaraStore.named("route-receiver").launch();
        toReceiver = TcpRelay.to(receiver.uri("/").getPort());
        store = PayaraStore.named("route-sender")
                .property("medjava.dicom.port", Integer.toString(dicomPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.aet", AE)
                .property("medjava.dicom.allowed-aets", "STORESCU")
                .property("medjava.dicom.remotes", ORTHANC_AE + "=127.0.0.1:" + orthancDicom + "," + LATE_AE
                        + "=127.0.0.1:" + latePort)
                .property("medjava.route.backoff-initial-seconds", "1")
                .property("medjava.route.backoff-max-seconds", "1")
                .property("medjava.route.max-attempts", String.valueOf(MAX_ATTEMPTS))
                .property("medjava.route.poll-seconds", "0.5")
                .launch();
        receiver.awaitReady();
        store.awaitReady();
        admin = StoreClient.admin(store);
        orthanc = Orthanc.start(Files.createDirectories(work.resolve("orthanc")), ORTHANC_AE, orthancDicom,
                orthancHttp, new Orthanc.Peer(AE, dicomPort, store.uri("/dicomweb/").toString(), "admin",
                        PayaraStore.ADMIN_PASSWORD));
    }

    @AfterAll
    static void stop() throws Exception {
        if (orthanc != null) {
            orthanc.close();
            orthanc.deleteFiles();
        }
        if (store != null) {
            store.close();
        }
        if (receiver != null) {
            receiver.close();
        }
        if (toReceiver != null) {
            toReceiver.close();
        }
    }

    private static HttpResponse<String> putRule(StoreClient client, String name, String json) throws Exception {
        return client.sendText(client.request("/routes/rules/" + name).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** {@code uri} with its port replaced by the relay's. */
    private static URI relayed(URI uri) throws Exception {
        return new URI(uri.getScheme(), null, uri.getHost(), toReceiver.port(), uri.getPath(), null, null);
    }

    private static void storescu(TestStudy study) throws Exception {
        for (TestStudy.Instance i : study.instances()) {
            String out = Dcmtk.store(dicomPort, i.storescuOptions(), i.file()).assertOk().output();
            assertThat(out).contains("Received Store Response (Success)");
        }
    }

    private static List<JsonObject> history(String study) throws Exception {
        return array(admin.getJson("/routes/history?study=" + study).body()).getValuesAs(JsonObject.class);
    }

    private static List<String> states(String study) throws Exception {
        return history(study).stream().map(t -> t.getString("state")).toList();
    }

    private static void await(String what, Duration timeout, Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(250);
        }
    }

    /** What Orthanc holds of {@code study}; -1 while it answers with an error (it may be busy storing). */
    private static int orthancInstances(String study) throws Exception {
        HttpResponse<String> r = orthanc.post("/tools/find", Orthanc.findQuery("Instance",
                Map.of("StudyInstanceUID", study)));
        if (r.statusCode() != 200 || !r.body().trim().startsWith("[")) {
            System.out.println("RoutingIT: Orthanc answered /tools/find " + r.statusCode() + ": " + r.body());
            return -1;
        }
        return array(r.body()).size();
    }

    private static int receiverInstances(String study) throws Exception {
        HttpResponse<String> r = StoreClient.admin(receiver).getJson("/dicomweb/studies/" + study + "/instances");
        return r.statusCode() == 200 ? array(r.body()).size() : 0;
    }

    @Test
    void forwardsTheCtsOfASourceToOrthancByCStoreAndAStudyOnDemand() throws Exception {
        HttpResponse<String> made = putRule(admin, "ct-to-orthanc", "{\"match\": {\"SourceAE\": \"STORE*\","
                + " \"Modality\": \"CT\", \"PatientID\": \"RT-DIMSE\"}, \"destination\": {\"kind\": \"dimse\","
                + " \"ae\": \"ORTHANC\"}}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        TestStudy study = TestStudy.create(work.resolve("dimse"), "RT-DIMSE", "CT_small.dcm", "MR_small.dcm");
        storescu(study);

        await("the CT in Orthanc", Duration.ofSeconds(60), () -> orthancInstances(study.studyUid()) == 1);
        await("the task sent", Duration.ofSeconds(30), () -> states(study.studyUid()).equals(List.of("sent")));
        assertThat(history(study.studyUid()).get(0).getString("sourceAe")).isEqualTo("STORESCU");
        assertThat(history(study.studyUid()).get(0).getString("sopInstanceUid"))
                .isEqualTo(study.instance("CT_small.dcm").sopInstanceUid());

        HttpResponse<String> run = admin.postJson("/routes/rules/ct-to-orthanc/run?study=" + study.studyUid(), "");
        assertThat(run.statusCode()).as(run.body()).isEqualTo(202);
        assertThat(object(run.body()).getInt("queued")).isEqualTo(2);
        await("the whole study in Orthanc", Duration.ofSeconds(60), () -> orthancInstances(study.studyUid()) == 2);
        await("every task sent", Duration.ofSeconds(30), () -> states(study.studyUid()).stream()
                .allMatch("sent"::equals) && states(study.studyUid()).size() == 3);
        await("the export audited", Duration.ofSeconds(30), () -> admin.getJson("/audit/events?type=export&study="
                + study.studyUid()).body().contains("route:ct-to-orthanc"));
    }

    @Test
    void sendsByStowRsToAStoreThatIsDownThenBackWithEveryInstanceOnce() throws Exception {
        String rule = "{\"match\": {\"PatientID\": \"RT-STOW\"}, \"destination\": {\"kind\": \"stow\", \"url\": \""
                + relayed(receiver.uri("/dicomweb/studies")) + "\", \"auth\": \"" + PayaraStore.admin() + "\"}}";
        HttpResponse<String> made = putRule(admin, "to-receiver", rule);
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        assertThat(made.body()).contains("(set)").doesNotContain(PayaraStore.admin());
        TestStudy study = TestStudy.create(work.resolve("stow"), "RT-STOW", "CT_small.dcm", "MR_small.dcm",
                "MR_small_RLE.dcm");
        toReceiver.refuse(true);
        storescu(study);

        await("three tasks failed twice", Duration.ofSeconds(60), () -> history(study.studyUid()).stream()
                .filter(t -> t.getString("state").equals("failed") && t.getInt("attempts") >= 2).count() == 3);
        assertThat(history(study.studyUid()).get(0).getString("lastError")).contains("cannot reach");
        toReceiver.refuse(false);

        await("every task sent", Duration.ofSeconds(90), () -> states(study.studyUid()).equals(List.of("sent",
                "sent", "sent")));
        assertThat(receiverInstances(study.studyUid())).isEqualTo(3);
        assertThat(history(study.studyUid())).allSatisfy(t -> assertThat(t.getInt("attempts")).isGreaterThan(2));

        // sent again on demand: the receiver refuses the duplicates, which counts as sent, and still holds three
        assertThat(admin.postJson("/routes/rules/to-receiver/run?study=" + study.studyUid(), "").statusCode())
                .isEqualTo(202);
        await("the second round sent", Duration.ofSeconds(60), () -> states(study.studyUid()).size() == 6
                && states(study.studyUid()).stream().allMatch("sent"::equals));
        assertThat(history(study.studyUid()).get(5).getString("lastError")).contains("held it already");
        assertThat(receiverInstances(study.studyUid())).isEqualTo(3);
    }

    @Test
    void aDestinationThatNeverAnswersEndsInTheDeadLettersAndARetrySendsOnceItAnswers() throws Exception {
        HttpResponse<String> made = putRule(admin, "to-late", "{\"match\": {\"PatientID\": \"RT-DEAD\"},"
                + " \"destination\": {\"kind\": \"dimse\", \"ae\": \"LATE\"}}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        TestStudy study = TestStudy.create(work.resolve("dead"), "RT-DEAD", "CT_small.dcm");
        storescu(study);

        await("the task dead", Duration.ofSeconds(60), () -> states(study.studyUid()).equals(List.of("dead")));
        JsonObject dead = history(study.studyUid()).get(0);
        assertThat(dead.getInt("attempts")).isEqualTo(MAX_ATTEMPTS);
        JsonObject queue = object(admin.getJson("/routes/queue?state=dead").body());
        assertThat(queue.getJsonObject("counts").getInt("dead")).isGreaterThanOrEqualTo(1);
        assertThat(queue.getJsonArray("tasks").getValuesAs(JsonObject.class))
                .anySatisfy(t -> assertThat(t.getInt("id")).isEqualTo(dead.getInt("id")));

        try (Storescp late = Storescp.start(LATE_AE, latePort, Files.createDirectories(work.resolve("late")))) {
            HttpResponse<String> retried = admin.postJson("/routes/tasks/" + dead.getInt("id") + "/retry", "");
            assertThat(retried.statusCode()).as(retried.body()).isEqualTo(200);
            await("sent after the retry", Duration.ofSeconds(30), () -> states(study.studyUid())
                    .equals(List.of("sent")));
            assertThat(late.received()).hasSize(1);
        }
        assertThat(admin.postJson("/routes/tasks/" + dead.getInt("id") + "/retry", "").statusCode()).isEqualTo(409);
        assertThat(admin.delete("/routes/tasks/" + dead.getInt("id")).statusCode()).isEqualTo(204);
        assertThat(history(study.studyUid())).isEmpty();
    }

    @Test
    void refusesBadRulesAndCallersWhoAreNotAdministrators() throws Exception {
        HttpResponse<String> unknown = putRule(admin, "bad", "{\"match\": {\"Modality\": \"CT\"}, \"destination\":"
                + " {\"kind\": \"dimse\", \"ae\": \"NOWHERE\"}}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("NOWHERE", "medjava.dicom.remotes");
        String everything = "{\"destination\": {\"kind\": \"dimse\", \"ae\": \"ORTHANC\"}, \"enabled\": false}";
        assertThat(putRule(admin, "everything", everything).statusCode()).isEqualTo(400);
        assertThat(admin.sendText(admin.request("/routes/rules/everything?confirm=true")
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(everything)))
                .statusCode()).isEqualTo(200);
        assertThat(admin.delete("/routes/rules/everything").statusCode()).isEqualTo(204);
        assertThat(putRule(admin, "bad", "{\"match\": {\"Colour\": \"red\"}, \"destination\": {\"kind\": \"stow\","
                + " \"url\": \"http://127.0.0.1:1/studies\"}}").statusCode()).isEqualTo(400);
        assertThat(admin.getJson("/routes/queue?state=lost").statusCode()).isEqualTo(400);
        assertThat(admin.getJson("/routes/rules/none").statusCode()).isEqualTo(404);
        assertThat(admin.postJson("/routes/tasks/999999/retry", "").statusCode()).isEqualTo(404);

        assertThat(admin.sendText(admin.request("/admin/users/rita").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"rita-pass-1\",\"role\":\"reader\"}")))
                .statusCode()).isIn(201, 204);
        StoreClient reader = new StoreClient(store, PayaraStore.basic("rita", "rita-pass-1"));
        assertThat(reader.getJson("/routes/rules").statusCode()).isEqualTo(403);
        assertThat(putRule(reader, "mine", "{\"match\": {\"Modality\": \"CT\"}, \"destination\": {\"kind\":"
                + " \"dimse\", \"ae\": \"ORTHANC\"}}").statusCode()).isEqualTo(403);
        assertThat(reader.getJson("/routes/queue").statusCode()).isEqualTo(403);
        assertThat(new StoreClient(store, null).getJson("/routes/rules").statusCode()).isEqualTo(401);
    }
}
