package org.medjava.store.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.cluster.ClusterHarness;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.peers.Orthanc;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Routing and the change feed on three coordinated nodes (one PostgreSQL, one S3Proxy, real Payara processes): a rule
 * made on one node routes what any node receives, each instance reaches Orthanc (by C-STORE) exactly once and the
 * queue reads the same on every node; a node killed with kill -9 while it holds leased tasks loses none of them
 * (another node sends them once the lease ran out); the change feed is one sequence on every node. Orthanc counts
 * every C-STORE it receives in its log (a Lua filter), and can hold them while a file exists, so that tasks stay
 * leased by the node that claimed them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterRoutingIT {
    static final String ORTHANC_AE = "ORTHANC";
    static final String RULE = "cluster-to-orthanc";
    static final String RECEIVED = "medjava-received ";
    static final int LEASE_SECONDS = 30; // well past the time Orthanc holds the sends, on a loaded machine too

    @TempDir
    static Path work;
    static ClusterHarness cluster;
    static Orthanc orthanc;
    static Path hold;

    @BeforeAll
    @Timeout(value = 420, unit = TimeUnit.SECONDS)
    static void start() throws Exception {
        int orthancDicom = Ports.free();
        hold = work.resolve("orthanc-hold");
        Path lua = Files.writeString(work.resolve("received.lua"), """
                function ReceivedInstanceFilter(dicom, origin, info)
                  print('%s' .. dicom.SOPInstanceUID)
                  while true do
                    local f = io.open('%s', 'r')
                    if f == nil then break end
                    f:close()
                    os.execute('sleep 0.2')
                  end
                  return true
                end
                """.formatted(RECEIVED, hold));
        orthanc = Orthanc.start(Files.createDirectories(work.resolve("orthanc")), ORTHANC_AE, orthancDicom,
                Ports.free(), new Orthanc.Peer("MEDJAVA", Ports.free(), "http://127.0.0.1:1/dicomweb/", "admin",
                        PayaraStore.ADMIN_PASSWORD), "\"LuaScripts\": [\"" + lua + "\"],");
        cluster = ClusterHarness.nodes(3).coordination(true)
                .property("medjava.dicom.remotes", ORTHANC_AE + "=127.0.0.1:" + orthancDicom)
                .property("medjava.route.lease-seconds", Integer.toString(LEASE_SECONDS))
                .property("medjava.route.poll-seconds", "0.5")
                .property("medjava.route.backoff-initial-seconds", "1")
                .property("medjava.route.backoff-max-seconds", "4")
                .property("medjava.route.max-attempts", "30")
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (orthanc != null) {
            orthanc.close();
        }
    }

    @Test
    @Order(1)
    void aRuleMadeOnOneNodeRoutesWhatEveryNodeReceivesExactlyOnce() throws Exception {
        HttpResponse<String> made = client(1).sendText(client(1).request("/routes/rules/" + RULE)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"match\": {\"PatientID\": \"CRT-*\"}, \"destination\": {\"kind\": \"dimse\", \"ae\": \""
                                + ORTHANC_AE + "\"}}")));
        assertThat(made.statusCode()).as(made.body()).isEqualTo(200);
        for (int node = 2; node <= 3; node++) {
            HttpResponse<String> seen = client(node).getJson("/routes/rules/" + RULE);
            assertThat(seen.statusCode()).as("the rule on node %d: %s", node, seen.body()).isEqualTo(200);
            assertThat(object(seen.body()).getJsonObject("destination").getString("ae")).isEqualTo(ORTHANC_AE);
        }
        Thread.sleep(2_500); // a node reuses the rules it read for 2 s (Routing.RULES_FRESH) before reading again

        List<TestStudy> studies = new ArrayList<>();
        for (int node = 1; node <= 3; node++) {
            TestStudy study = TestStudy.create(work.resolve("route-n" + node), "CRT-N" + node,
                    Collections.nCopies(4, Samples.dicom("CT_small.dcm")));
            stow(node, study);
            studies.add(study);
        }
        Set<String> sops = sops(studies);
        for (TestStudy study : studies) {
            await("every task of " + study.patientId() + " sent", Duration.ofSeconds(90),
                    () -> states(history(1, study)).equals(Collections.nCopies(4, "sent")));
        }

        JsonArray found = array(orthanc.post("/tools/find", "{\"Level\": \"Instance\", \"Expand\": true, \"Query\":"
                + " {\"PatientID\": \"CRT-N*\"}}").body());
        List<String> inOrthanc = found.getValuesAs(JsonObject.class).stream()
                .map(i -> i.getJsonObject("MainDicomTags").getString("SOPInstanceUID")).toList();
        assertThat(inOrthanc).as("Orthanc holds exactly what the three nodes received").hasSize(12)
                .containsExactlyInAnyOrderElementsOf(sops);
        assertThat(receptions()).as("C-STOREs Orthanc received, by SOP Instance UID: each once")
                .isEqualTo(sops.stream().collect(Collectors.toMap(s -> s, s -> 1L, (a, b) -> a, TreeMap::new)));

        Map<String, Long> senders = new TreeMap<>();
        for (TestStudy study : studies) {
            List<JsonObject> seen = history(1, study);
            assertThat(seen).allSatisfy(t -> {
                assertThat(t.getInt("attempts")).as("task %s", t).isEqualTo(1);
                assertThat(t.getString("destination")).contains(ORTHANC_AE);
            });
            seen.forEach(t -> senders.merge(t.getString("node"), 1L, Long::sum));
            for (int node = 2; node <= 3; node++) {
                assertThat(history(node, study)).as("%s's history read on node %d", study.patientId(), node)
                        .isEqualTo(seen);
            }
        }
        System.out.println("ClusterRoutingIT: 12 instances routed, sent by " + senders);
        JsonObject counts = object(client(1).getJson("/routes/queue?state=sent&limit=1000").body());
        for (int node = 2; node <= 3; node++) {
            assertThat(object(client(node).getJson("/routes/queue?state=sent&limit=1000").body()))
                    .as("the queue read on node %d", node).isEqualTo(counts);
        }
        assertThat(counts.getJsonObject("counts").getInt("sent")).isEqualTo(12);

        // routed again on demand from two nodes at once: queued once, each instance sent once more
        TestStudy again = studies.get(0);
        List<CompletableFuture<HttpResponse<String>>> runs = new ArrayList<>();
        for (int node = 2; node <= 3; node++) {
            StoreClient c = client(node);
            runs.add(c.sendAsyncText(c.request("/routes/rules/" + RULE + "/run?study=" + again.studyUid())
                    .POST(HttpRequest.BodyPublishers.noBody())));
        }
        int queued = 0;
        for (var run : runs) {
            HttpResponse<String> r = run.get(60, TimeUnit.SECONDS);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            queued += object(r.body()).getInt("queued");
        }
        assertThat(queued).as("queued by the two runs together").isEqualTo(4);
        await("the second round sent", Duration.ofSeconds(60), () -> states(history(1, again))
                .equals(Collections.nCopies(8, "sent")));
        Map<String, Long> received = receptions();
        assertThat(again.instances()).allSatisfy(i -> assertThat(received.get(i.sopInstanceUid()))
                .as("C-STOREs of %s", i.sopInstanceUid()).isEqualTo(2));
    }

    @Test
    @Order(2)
    void theChangeFeedIsTheSameSequenceOnEveryNodeAfterWritesAndADeleteOnDifferentNodes() throws Exception {
        long start = lastSeq(1);
        TestStudy a = TestStudy.create(work.resolve("feed-a"), "FEED-A", "CT_small.dcm", "MR_small.dcm");
        TestStudy b = TestStudy.create(work.resolve("feed-b"), "FEED-B", "CT_small.dcm");
        TestStudy routed = TestStudy.create(work.resolve("feed-r"), "CRT-FEED", "MR_small.dcm");
        stow(1, a);
        stow(2, b);
        stow(3, routed);
        HttpResponse<String> deleted = client(3).delete("/dicomweb/studies/" + a.studyUid());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        await("the routed study sent", Duration.ofSeconds(60), () -> states(history(2, routed)).equals(List.of(
                "sent")));

        List<String> feed = feed(1, start, 1000);
        assertThat(feed).as("node 1's feed").hasSize(7);
        for (TestStudy s : List.of(a, b, routed)) {
            for (TestStudy.Instance i : s.instances()) {
                assertThat(feed).as("node 1's feed").anyMatch(e -> e.endsWith(" created " + i.sopInstanceUid()));
            }
        }
        TestStudy.Instance sent = routed.instances().get(0);
        assertThat(indexOf(feed, " routed " + sent.sopInstanceUid())).as("routed after its creation")
                .isGreaterThan(indexOf(feed, " created " + sent.sopInstanceUid()));
        for (TestStudy.Instance i : a.instances()) {
            int created = indexOf(feed, " created " + i.sopInstanceUid());
            int gone = indexOf(feed, " deleted " + i.sopInstanceUid());
            assertThat(gone).as("the delete of %s on node 3, after its creation", i.sopInstanceUid())
                    .isGreaterThan(created);
        }
        for (int node = 2; node <= 3; node++) {
            assertThat(feed(node, start, 1000)).as("node %d's feed", node).isEqualTo(feed);
            assertThat(feed(node, start, 2)).as("node %d's feed, two at a time", node).isEqualTo(feed);
        }
    }

    @Test
    @Order(3)
    void tasksLeasedByANodeKilledWithKill9AreSentByAnotherOnceTheLeaseRanOut() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("kill"), "CRT-KILL",
                Collections.nCopies(12, Samples.dicom("CT_small.dcm")));
        Files.createFile(hold); // Orthanc holds every C-STORE: the nodes that claimed tasks keep them leased
        List<JsonObject> leased;
        try {
            stow(1, study);
            await("the twelve tasks queued", Duration.ofSeconds(30), () -> history(2, study).size() == 12);
            Thread.sleep(3_000); // several polls: every node's worker has claimed a batch and is stuck sending it
            leased = history(2, study).stream().filter(t -> t.getString("state").equals("sending")).toList();
            assertThat(leased).as("tasks leased while Orthanc holds them").isNotEmpty();
            Map<String, Long> byNode = leased.stream().collect(Collectors.groupingBy(t -> t.getString("node"),
                    TreeMap::new, Collectors.counting()));
            String victim = byNode.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            System.out.println("ClusterRoutingIT: leased while Orthanc held them: " + byNode + "; states "
                    + states(history(2, study)) + "; killing " + victim);
            leased = leased.stream().filter(t -> t.getString("node").equals(victim)).toList();
            cluster.kill(nodeNumber(victim));
        } finally {
            Files.delete(hold);
        }
        String victim = leased.get(0).getString("node");
        int survivor = nodeNumber(victim) % 3 + 1;
        int other = survivor % 3 + 1;
        await("every task sent", Duration.ofSeconds(90), () -> states(history(survivor, study))
                .equals(Collections.nCopies(12, "sent")));

        List<JsonObject> after = history(survivor, study);
        for (JsonObject before : leased) {
            JsonObject now = after.stream().filter(t -> t.getInt("id") == before.getInt("id")).findFirst()
                    .orElseThrow();
            assertThat(now.getString("node")).as("task %d, leased by the killed %s", before.getInt("id"), victim)
                    .isNotEqualTo(victim);
            assertThat(Instant.parse(now.getString("sent"))).as("task %d sent after the lease ran out: %s",
                    before.getInt("id"), now).isAfterOrEqualTo(Instant.parse(before.getString("leaseUntil")));
        }
        assertThat(history(other, study)).as("the history read on both surviving nodes").isEqualTo(after);
        Set<String> sops = sops(List.of(study));
        assertThat(array(orthanc.post("/tools/find", Orthanc.findQuery("Instance", Map.of("StudyInstanceUID",
                study.studyUid()))).body())).as("Orthanc has every instance").hasSize(12);
        Map<String, Long> received = receptions();
        assertThat(received.keySet()).containsAll(sops);
        Set<String> victims = leased.stream().map(t -> t.getString("sopInstanceUid")).collect(Collectors.toSet());
        List<String> twice = sops.stream().filter(s -> received.get(s) > 1).toList();
        assertThat(twice).as("sent twice: at most the one the killed node had in flight").hasSizeLessThanOrEqualTo(1)
                .allSatisfy(s -> assertThat(victims).contains(s));
        assertThat(sops.stream().mapToLong(received::get).max().orElseThrow()).isLessThanOrEqualTo(2);
        System.out.println("ClusterRoutingIT: after the kill of " + victim + ", " + leased.size() + " leased tasks"
                + " taken over; C-STOREs per instance: " + sops.stream().map(received::get).toList());
    }

    // ------------------------------------------------------------------------------------------------ helpers

    static StoreClient client(int node) {
        return StoreClient.admin(cluster.node(node));
    }

    static void stow(int node, TestStudy study) throws Exception {
        List<byte[]> parts = new ArrayList<>();
        for (TestStudy.Instance i : study.instances()) {
            parts.add(Files.readAllBytes(i.file()));
        }
        HttpResponse<String> stored = client(node).sendText(client(node).request("/dicomweb/studies")
                .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=CRT-B")
                .header("Accept", "application/dicom+json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom("CRT-B", parts))));
        assertThat(stored.statusCode()).as("STOW-RS of %s on node %d: %s", study.patientId(), node, stored.body())
                .isEqualTo(200);
    }

    static Set<String> sops(List<TestStudy> studies) {
        Set<String> sops = new HashSet<>();
        studies.forEach(s -> s.instances().forEach(i -> sops.add(i.sopInstanceUid())));
        return sops;
    }

    static List<JsonObject> history(int node, TestStudy study) throws IOException, InterruptedException {
        HttpResponse<String> r = client(node).getJson("/routes/history?study=" + study.studyUid());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return array(r.body()).getValuesAs(JsonObject.class);
    }

    static List<String> states(List<JsonObject> tasks) {
        return tasks.stream().map(t -> t.getString("state")).toList();
    }

    /** The C-STOREs Orthanc has received (duplicates included), by SOP Instance UID. */
    static Map<String, Long> receptions() throws IOException {
        Matcher m = Pattern.compile(Pattern.quote(RECEIVED) + "([0-9.]+)").matcher(orthanc.log());
        Map<String, Long> n = new TreeMap<>();
        while (m.find()) {
            n.merge(m.group(1), 1L, Long::sum);
        }
        return n;
    }

    /** The number of the latest change as {@code node} sees it. */
    static long lastSeq(int node) throws IOException, InterruptedException {
        long last = 0;
        while (true) {
            JsonObject page = object(client(node).getJson("/changes?since=" + last + "&limit=10000").body());
            last = page.getJsonNumber("last").longValue();
            if (page.getBoolean("done")) {
                return last;
            }
        }
    }

    /** The changes after {@code since} as {@code node} gives them, {@code limit} a page: "seq kind SOPInstanceUID". */
    static List<String> feed(int node, long since, int limit) throws IOException, InterruptedException {
        List<String> feed = new ArrayList<>();
        long last = since;
        while (true) {
            HttpResponse<String> r = client(node).getJson("/changes?since=" + last + "&limit=" + limit);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonObject page = object(r.body());
            Function<JsonObject, String> entry = c -> c.getJsonNumber("seq").longValue() + " " + c.getString("kind")
                    + " " + c.getString("SOPInstanceUID");
            page.getJsonArray("changes").getValuesAs(JsonObject.class).forEach(c -> feed.add(entry.apply(c)));
            last = page.getJsonNumber("last").longValue();
            if (page.getBoolean("done")) {
                return feed;
            }
        }
    }

    static int indexOf(List<String> feed, String suffix) {
        for (int i = 0; i < feed.size(); i++) {
            if (feed.get(i).endsWith(suffix)) {
                return i;
            }
        }
        return -1;
    }

    static int nodeNumber(String name) {
        Matcher m = Pattern.compile("node(\\d+)").matcher(name);
        assertThat(m.find()).as("a node's name: %s", name).isTrue();
        return Integer.parseInt(m.group(1));
    }

    static void await(String what, Duration timeout, Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.call()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(250);
        }
    }

    static JsonObject object(String json) {
        return Json.createReader(new StringReader(json)).readObject();
    }

    static JsonArray array(String json) {
        return Json.createReader(new StringReader(json)).readArray();
    }
}
