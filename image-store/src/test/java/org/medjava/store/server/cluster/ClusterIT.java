package org.medjava.store.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.testsupport.TestPlugins;
import org.medjava.store.server.it.GeneratedPng;
import org.medjava.store.server.it.Scrape;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.cluster.ClusterHarness;
import org.medjava.store.testkit.cluster.WriteSeams;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.peers.Nginx;
import org.medjava.store.testkit.store.PayaraStore;

/**
 * Three coordinated store nodes (medjava.cluster.enabled) on one PostgreSQL and one S3Proxy behind nginx, all real
 * processes: a write on one node is seen on the others, writers of one path on different nodes give one winner,
 * accounts and plugins changed on one node are effective on all, DICOMweb works across nodes, an instance stored
 * through two nodes at once is kept once, a node killed with kill -9 during uploads loses no acknowledged write,
 * a restarted PostgreSQL is reconnected to without a manual step, and a browser session made on one node is
 * accepted on the others until a logout on any of them.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterIT {

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(40);
    static final byte[] CT = Samples.bytes(Samples.dicom("CT_small.dcm"));
    static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));

    /** Each node's object cache: CT_small (39 KB) and the GIF (14 KB) are copied, up to 6 CTs at once. */
    static final long CACHE_BYTES = 256 * 1024;

    static ClusterHarness cluster;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    static Path work;

    @BeforeAll
    @Timeout(value = 420, unit = TimeUnit.SECONDS)
    static void start() throws Exception {
        // a small object cache, so a test can fill it past its bound
        cluster = ClusterHarness.nodes(3).coordination(true).spares(1)
                .property("medjava.storage.cache.max-bytes", Long.toString(CACHE_BYTES)).start();
    }

    @AfterAll
    static void stop() {
        for (PayaraStore node : leftRunning) {
            try {
                node.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(0)
    void everyNodeIsReadyAndTheLoadBalancerSpreadsRequests() throws Exception {
        for (int node = 1; node <= 3; node++) {
            HttpResponse<String> ready = send(node, "/health/ready", "GET", null, Map.of());
            assertThat(ready.statusCode()).as("node %d /health/ready: %s", node, ready.body()).isEqualTo(200);
        }
        Set<String> served = new HashSet<>();
        for (int n = 0; n < 9; n++) {
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(cluster.lb("/health/ready"))
                    .timeout(REQUEST_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(200);
            // the node that answered: the last one tried (the spare slot, empty, is tried and passed over)
            String tried = ready.headers().firstValue("X-Upstream").orElse("?");
            served.add(tried.substring(tried.lastIndexOf(' ') + 1));
        }
        assertThat(served).as("round robin over the three nodes").containsExactlyInAnyOrderElementsOf(
                cluster.nodes().stream().map(n -> "127.0.0.1:" + n.port()).toList());
    }

    @Test
    @Order(1)
    void aWriteOnOneNodeIsReadOnTheOthers() throws Exception {
        HttpResponse<String> put = send(1, "/images/cluster/a/ct.dcm", "PUT", CT, Map.of());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        String etag = put.headers().firstValue("ETag").orElseThrow();
        String sop = sopOf("cluster/a/ct.dcm", 1);
        for (int node : List.of(2, 3)) {
            HttpResponse<byte[]> got = getBytes(node, "/images/cluster/a/ct.dcm");
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).isEqualTo(CT);
            assertThat(got.headers().firstValue("ETag")).contains(etag);
            HttpResponse<String> indexed = send(node, "/dicomweb/instances?SOPInstanceUID=" + sop, "GET", null,
                    Map.of("Accept", "application/dicom+json"));
            assertThat(indexed.statusCode()).isEqualTo(200);
            assertThat(indexed.body()).as("indexed, seen from node %d", node).contains(sop);
        }
        // a conditional write on another node sees the same state
        assertThat(send(3, "/images/cluster/a/ct.dcm", "PUT", CT, Map.of("If-None-Match", "*")).statusCode())
                .isEqualTo(412);
        assertThat(send(2, "/images/cluster/a/ct.dcm", "PUT", CT, Map.of("If-Match", "\"stale\"")).statusCode())
                .isEqualTo(412);
        assertThat(send(2, "/images/cluster/a/ct.dcm", "PUT", CT, Map.of("If-Match", etag)).statusCode())
                .isEqualTo(204);
    }

    @Test
    @Order(2)
    void writersOfOnePathOnDifferentNodesGiveOneCompleteWinner() throws Exception {
        int writers = 9;
        List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            bodies.add(i % 2 == 0 ? CT : GIF); // different sizes: a torn object would show
        }
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<HttpResponse<String>>> created = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                int node = 1 + i % 3;
                byte[] body = bodies.get(i);
                created.add(pool.submit(() -> {
                    go.await();
                    return send(node, "/images/cluster/race/once", "PUT", body, Map.of("If-None-Match", "*"));
                }));
            }
            go.countDown();
            int wins = 0;
            for (Future<HttpResponse<String>> f : created) {
                int status = f.get(60, TimeUnit.SECONDS).statusCode();
                assertThat(status).isIn(201, 412);
                wins += status == 201 ? 1 : 0;
            }
            assertThat(wins).as("If-None-Match: * across three nodes: one creator").isEqualTo(1);

            CountDownLatch again = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> replaced = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                int node = 1 + i % 3;
                byte[] body = bodies.get(i);
                replaced.add(pool.submit(() -> {
                    again.await();
                    return send(node, "/images/cluster/race/once", "PUT", body, Map.of());
                }));
            }
            again.countDown();
            for (Future<HttpResponse<String>> f : replaced) {
                assertThat(f.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(204);
            }
        } finally {
            pool.shutdownNow();
        }
        byte[] stored = getBytes(2, "/images/cluster/race/once").body();
        assertThat(Arrays.equals(stored, CT) || Arrays.equals(stored, GIF)).as("one complete winner").isTrue();
        for (int node = 1; node <= 3; node++) {
            assertThat(getBytes(node, "/images/cluster/race/once").body()).isEqualTo(stored);
        }
    }

    @Test
    @Order(3)
    void accountsChangedOnOneNodeAreEffectiveOnAll() throws Exception {
        HttpResponse<String> created = send(1, "/admin/users/carol", "PUT",
                "{\"password\":\"carol-pass-1\",\"role\":\"uploader\"}".getBytes(),
                Map.of("Content-Type", "application/json"));
        assertThat(created.statusCode()).as(created.body()).isIn(200, 201, 204);
        String carol = PayaraStore.basic("carol", "carol-pass-1");
        for (int node = 1; node <= 3; node++) {
            int n = node;
            assertThat(statusOnceKnown(n, "carol", true, "/images/cluster/", carol)).as("carol on node %d", node)
                    .isEqualTo(200);
        }
        assertThat(send(2, "/admin/users/carol", "DELETE", null, Map.of()).statusCode()).isIn(200, 204);
        for (int node = 1; node <= 3; node++) {
            int n = node;
            assertThat(statusOnceKnown(n, "carol", false, "/images/cluster/", carol)).as("carol gone on node %d", node)
                    .isEqualTo(401);
        }
    }

    @Test
    @Order(4)
    void pluginsChangedOnOneNodeAreLiveOnAllWithinASecond() throws Exception {
        Path jar = TestPlugins.fill(work.resolve("fill-10.jar"), 10);
        assertThat(manifestTags()).as("the same manifest ETag on every node").hasSize(1); // also warms the nodes up
        HttpResponse<String> installed = send(1, "/filters/it-fill.jar", "PUT", Files.readAllBytes(jar),
                Map.of("Content-Type", "application/java-archive"));
        assertThat(installed.statusCode()).as(installed.body()).isIn(200, 201);
        long t0 = System.nanoTime();
        for (int node = 2; node <= 3; node++) {
            int n = node;
            assertThat(eventually(() -> send(n, "/filters", "GET", null, Map.of()).body().contains("\"it-fill\"")
                    ? 1 : 0, 1)).as("it-fill in node %d's manifest", node).isEqualTo(1);
        }
        long spread = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        System.out.println("ClusterIT: a plugin installed on node 1 was in the manifests of nodes 2 and 3 after "
                + spread + " ms");
        assertThat(spread).as("applied on every node within a second (and some slack for a loaded machine)")
                .isLessThan(2_000);
        for (int node = 2; node <= 3; node++) {
            assertThat(renderStatus(node, "fill")).as("fill renders on node %d", node).isEqualTo(200);
        }
        assertThat(manifestTags()).as("the same manifest ETag on every node").hasSize(1);

        assertThat(send(2, "/filters/it-fill/suspend", "POST", null, Map.of()).statusCode()).isIn(200, 204);
        assertThat(eventually(() -> renderStatus(3, "fill"), 409)).as("suspended on node 2, refused on node 3")
                .isEqualTo(409);
        assertThat(send(3, "/filters/it-fill/resume", "POST", null, Map.of()).statusCode()).isIn(200, 204);
        assertThat(eventually(() -> renderStatus(1, "fill"), 200)).isEqualTo(200);
        assertThat(send(3, "/filters/it-fill.jar", "DELETE", null, Map.of()).statusCode()).isEqualTo(204);
        assertThat(eventually(() -> renderStatus(1, "fill"), 400)).as("removed on node 3, unknown on node 1")
                .isEqualTo(400);
        assertThat(manifestTags()).hasSize(1);
    }

    @Test
    @Order(5)
    void stowOnOneNodeQidoAndWadoOnAnother() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("study"), "CLUSTER-1", "CT_small.dcm", "MR_small.dcm");
        List<byte[]> parts = new ArrayList<>();
        for (TestStudy.Instance i : study.instances()) {
            parts.add(Files.readAllBytes(i.file()));
        }
        HttpResponse<String> stored = send(1, "/dicomweb/studies", "POST", Multipart.dicom("CLUSTER-B", parts),
                Map.of("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=CLUSTER-B",
                        "Accept", "application/dicom+json"));
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);

        HttpResponse<String> qido = send(2, "/dicomweb/studies/" + study.studyUid() + "/instances", "GET", null,
                Map.of("Accept", "application/dicom+json"));
        assertThat(qido.statusCode()).isEqualTo(200);
        for (TestStudy.Instance i : study.instances()) {
            assertThat(qido.body()).contains(i.sopInstanceUid());
        }
        TestStudy.Instance first = study.instances().get(0);
        HttpResponse<byte[]> wado = http.send(request(3, "/dicomweb/studies/" + study.studyUid() + "/series/"
                + first.seriesUid() + "/instances/" + first.sopInstanceUid())
                .header("Accept", "multipart/related; type=\"application/dicom\"").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(wado.statusCode()).isEqualTo(200);
        List<Multipart.Part> got = Multipart.parse(wado.body(), wado.headers().firstValue("Content-Type").orElse(""));
        assertThat(got).singleElement().satisfies(p -> assertThat(p.body()).isEqualTo(parts.get(0)));

        // the study's metadata, made ready on node 2, changed at once on every node by a deletion on node 3
        String metadata = "/dicomweb/studies/" + study.studyUid() + "/metadata";
        Map<String, String> json = Map.of("Accept", "application/dicom+json");
        assertThat(send(2, metadata, "GET", null, json).body()).contains(study.instances().get(1).sopInstanceUid());
        assertThat(send(3, "/dicomweb/studies/" + study.studyUid() + "/series/" + study.instances().get(1)
                .seriesUid() + "?force=true", "DELETE", null, Map.of()).statusCode()).isEqualTo(200);
        for (int node = 1; node <= 3; node++) {
            assertThat(send(node, metadata, "GET", null, json).body()).as("node " + node)
                    .contains(first.sopInstanceUid()).doesNotContain(study.instances().get(1).sopInstanceUid());
        }
    }

    @Test
    @Order(6)
    void oneInstanceStoredThroughTwoNodesAtOnceIsKeptOnce() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("dup"), "CLUSTER-DUP", "CT_small.dcm");
        byte[] part = Files.readAllBytes(study.instances().get(0).file());
        byte[] body = Multipart.dicom("DUP-B", List.of(part));
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<HttpResponse<String>>> answers = new ArrayList<>();
            for (int node : List.of(1, 2)) {
                answers.add(pool.submit(() -> {
                    go.await();
                    return send(node, "/dicomweb/studies", "POST", body, Map.of("Content-Type",
                            "multipart/related; type=\"application/dicom\"; boundary=DUP-B",
                            "Accept", "application/dicom+json"));
                }));
            }
            go.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<HttpResponse<String>> f : answers) {
                statuses.add(f.get(60, TimeUnit.SECONDS).statusCode());
            }
            assertThat(statuses).as("duplicate policy reject, across nodes").containsExactlyInAnyOrder(200, 409);
        } finally {
            pool.shutdownNow();
        }
        HttpResponse<String> qido = send(3, "/dicomweb/instances?SOPInstanceUID="
                + study.instances().get(0).sopInstanceUid(), "GET", null, Map.of("Accept", "application/dicom+json"));
        assertThat(qido.body().split("\"00080018\"", -1)).as("indexed once").hasSize(2);
    }

    @Test
    @Order(7)
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aNodeKilledDuringUploadsLosesNoAcknowledgedWrite() throws Exception {
        Map<String, byte[]> acknowledged = new ConcurrentHashMap<>();
        List<String> failures = new ArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> uploaders = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            int thread = t;
            uploaders.add(pool.submit(() -> {
                for (int n = 0; running.get() && n < 400; n++) {
                    String path = "/images/cluster/kill/t" + thread + "-" + n + ".gif";
                    try {
                        HttpResponse<String> r = http.send(HttpRequest.newBuilder(cluster.lb(path))
                                .timeout(REQUEST_TIMEOUT).header("Authorization", PayaraStore.admin())
                                .PUT(HttpRequest.BodyPublishers.ofByteArray(GIF)).build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 201) {
                            acknowledged.put(path, GIF);
                        } else {
                            synchronized (failures) {
                                failures.add(r.statusCode() + " " + path);
                            }
                        }
                    } catch (IOException e) {
                        synchronized (failures) {
                            failures.add(e + " " + path); // in flight on the killed node: not acknowledged
                        }
                    }
                }
                return null;
            }));
        }
        List<String> getErrors = new ArrayList<>();
        int[] gets = {0};
        Future<?> reader = pool.submit(() -> { // idempotent requests: nginx retries them on a live node
            while (running.get()) {
                try {
                    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(cluster.lb("/images/cluster/a/ct.dcm"))
                            .timeout(REQUEST_TIMEOUT).header("Authorization", PayaraStore.admin()).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    gets[0]++;
                    if (r.statusCode() != 200 || !Arrays.equals(r.body(), CT)) {
                        getErrors.add("HTTP " + r.statusCode());
                    }
                } catch (IOException e) {
                    getErrors.add(e.toString());
                }
            }
            return null;
        });
        Thread.sleep(2_000);
        cluster.kill(2);
        Thread.sleep(4_000 + 1_000L * Nginx.FAIL_TIMEOUT_SECONDS); // past nginx's fail_timeout: it tries node 2 again
        running.set(false);
        for (Future<?> f : uploaders) {
            f.get(120, TimeUnit.SECONDS);
        }
        reader.get(60, TimeUnit.SECONDS);
        pool.shutdownNow();
        System.out.println("ClusterIT: " + gets[0] + " GETs through the load balancer meanwhile, " + getErrors.size()
                + " errors");
        assertThat(getErrors).as("GETs through the load balancer while node 2 was dead").isEmpty();
        System.out.println("ClusterIT: kill -9 of node 2 during uploads through the load balancer: "
                + acknowledged.size() + " acknowledged, " + failures.size() + " not (" + failures.stream().limit(5)
                .toList() + ")");
        assertThat(acknowledged).hasSizeGreaterThan(10);
        assertThat(failures.size()).as("uploads refused or cut off by the kill").isLessThan(acknowledged.size());
        for (Map.Entry<String, byte[]> e : acknowledged.entrySet()) {
            HttpResponse<byte[]> got = http.send(HttpRequest.newBuilder(cluster.lb(e.getKey())).timeout(REQUEST_TIMEOUT)
                    .header("Authorization", PayaraStore.admin()).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(got.statusCode()).as("acknowledged %s", e.getKey()).isEqualTo(200);
            assertThat(got.body()).as("acknowledged %s", e.getKey()).isEqualTo(e.getValue());
        }
        cluster.restart(2);
        assertThat(getBytes(2, "/images/cluster/a/ct.dcm").body()).isEqualTo(CT);
        assertThat(send(2, "/images/cluster/kill/after-restart.gif", "PUT", GIF, Map.of()).statusCode())
                .isEqualTo(201);
    }

    @Test
    @Order(8)
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aRestartedDatabaseIsReconnectedToWithoutAManualStep() throws Exception {
        cluster.postgres().stopServer();
        try {
            HttpResponse<String> refused = send(1, "/images/cluster/pg/while-down.gif", "PUT", GIF, Map.of());
            assertThat(refused.statusCode()).as("a write while PostgreSQL is down: %s", refused.body()).isEqualTo(503);
            assertThat(refused.body()).contains("medjava.db.url");
            HttpResponse<byte[]> served = getBytes(2, "/images/cluster/a/ct.dcm");
            assertThat(served.statusCode()).as("stored objects are still served: %s", new String(served.body(),
                    java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(200);
            assertThat(served.body()).isEqualTo(CT);
            assertThat(send(3, "/dicomweb/studies", "GET", null, Map.of("Accept", "application/dicom+json"))
                    .statusCode()).as("queries: 503, not 500").isEqualTo(503);
            long t0 = System.nanoTime();
            HttpResponse<String> query = send(3, "/dicomweb/studies", "GET", null,
                    Map.of("Accept", "application/dicom+json"));
            long queryMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(query.statusCode()).isEqualTo(503);
            assertThat(query.headers().firstValue("Retry-After")).isPresent();
            assertThat(queryMillis).as("a query once the database is known to be away").isLessThan(1_000);
            HttpResponse<String> ready = send(2, "/health/ready", "GET", null, Map.of());
            assertThat(ready.statusCode()).as("still ready, for reads: %s", ready.body()).isEqualTo(200);
            assertThat(ready.body()).contains("\"reachable\":\"false\"", "objects by path");
            System.out.println("ClusterIT: with PostgreSQL down, a query answered 503 in " + queryMillis
                    + " ms; readiness: " + ready.body().replaceAll("\\s+", " "));
        } finally {
            cluster.postgres().startAgain();
        }
        for (int node = 1; node <= 3; node++) {
            int n = node;
            // 201, or 204 when an earlier try stored the object but was not confirmed (503: the index was away)
            assertThat(eventually(() -> {
                int status = send(n, "/images/cluster/pg/n" + n + ".gif", "PUT", GIF, Map.of()).statusCode();
                return status == 204 ? 201 : status;
            }, 201, Duration.ofSeconds(60))).as("a write on node %d after the restart", node).isEqualTo(201);
        }
        // the change notifications flow again
        assertThat(send(1, "/admin/users/dave", "PUT", "{\"password\":\"dave-pass-1\",\"role\":\"reader\"}"
                .getBytes(), Map.of("Content-Type", "application/json")).statusCode()).isIn(200, 201, 204);
        String dave = PayaraStore.basic("dave", "dave-pass-1");
        assertThat(statusOnceKnown(3, "dave", true, "/images/cluster/", dave)).isEqualTo(200);
        HttpResponse<String> index = send(2, "/dicomweb/studies", "GET", null, Map.of("Accept", "application/dicom+json"));
        assertThat(index.statusCode()).isEqualTo(200);
    }

    @Test
    @Order(9)
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aNodeWithAnotherStorageIsRefused() throws Exception {
        PayaraStore stray = cluster.extraNode("stray").property("medjava.storage.s3.prefix", "elsewhere").launch();
        try {
            assertThat(logWhenStarted(stray, "must share one storage")).as("the stray node's log")
                    .contains("must share one storage").contains("medjava.storage.s3");
            // the store is not deployed on the stray node, so neither is its front: nothing answers on its port
            assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(stray.uri("/images/")).timeout(REQUEST_TIMEOUT)
                    .header("Authorization", PayaraStore.admin()).build(), HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(java.net.ConnectException.class);
        } finally {
            stray.kill();
        }
        PayaraStore alone = cluster.extraNode("alone").property("medjava.db.url", " ").launch();
        try {
            assertThat(logWhenStarted(alone, "needs the database")).as("a cluster node without the shared database")
                    .contains("needs the database all nodes share").contains("medjava.db.url");
        } finally {
            alone.kill();
        }
    }

    @Test
    @Order(10)
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aJobSurvivesTheLossOfItsNodeAndItsProgressIsVisibleEverywhere() throws Exception {
        String study = TestStudy.newUid();
        String series = TestStudy.newUid();
        List<byte[]> parts = new ArrayList<>();
        Path dir = Files.createDirectories(work.resolve("series"));
        for (int i = 0; i < 80; i++) {
            Path file = dir.resolve(i + ".dcm");
            Files.copy(Samples.dicom("CT_small.dcm"), file);
            Command.run(Command.of("dcmodify", "-nb", "-m", "(0010,0020)=CLUSTER-JOB", "-m", "(0020,000D)=" + study,
                    "-m", "(0020,000E)=" + series, "-m", "(0008,0018)=" + TestStudy.newUid(), "-m",
                    "(0020,0013)=" + (i + 1), file)).assertOk();
            parts.add(Files.readAllBytes(file));
        }
        HttpResponse<String> stored = send(1, "/dicomweb/studies", "POST", Multipart.dicom("JOB-B", parts),
                Map.of("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=JOB-B",
                        "Accept", "application/dicom+json"));
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);

        HttpResponse<String> submitted = send(1, "/jobs", "POST", ("{\"kind\":\"render-series\",\"params\":{"
                + "\"SeriesInstanceUID\":\"" + series + "\",\"filter\":\"oil-paint|blur:n=9|despeckle:n=5|emboss\","
                + "\"impl\":\"straightforward\"}}").getBytes(), Map.of("Content-Type", "application/json"));
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String location = submitted.headers().firstValue("Location").orElseThrow();
        String id = location.substring(location.lastIndexOf('/') + 1);

        String running = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (running == null && System.nanoTime() < end) {
            String job = send(3, "/jobs/" + id, "GET", null, Map.of()).body();
            if (job.contains("\"state\":\"RUNNING\"") && job.contains("\"node\":\"node")) {
                running = field(job, "node");
            } else if (job.contains("\"state\":\"DONE\"")) {
                throw new AssertionError("the job ended before a node could be killed: " + job);
            } else {
                Thread.sleep(20);
            }
        }
        assertThat(running).as("the job started on some node").isNotNull();
        int victim = Integer.parseInt(running.substring("node".length()));
        cluster.kill(victim);
        int watcher = victim % 3 + 1;
        System.out.println("ClusterIT: render-series job " + id + " started on " + running + ", killed; watching"
                + " from node" + watcher);

        String last = "";
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!last.contains("\"state\":\"DONE\"") && !last.contains("\"state\":\"FAILED\"")
                && System.nanoTime() < end) {
            Thread.sleep(250);
            last = send(watcher, "/jobs/" + id, "GET", null, Map.of()).body();
        }
        System.out.println("ClusterIT: the job after the kill: " + last);
        assertThat(last).contains("\"state\":\"DONE\"").contains("\"done\":80").contains("\"total\":80")
                .doesNotContain("\"node\":\"" + running + "\"");
        assertThat(Integer.parseInt(field(last, "attempts"))).as("run again after the kill").isGreaterThanOrEqualTo(2);
        HttpResponse<String> derived = send(watcher, "/images/derived/" + series + "/", "GET", null,
                Map.of("Accept", "application/json"));
        assertThat(derived.statusCode()).isEqualTo(200);
        assertThat(derived.body().split("\"kind\":\"file\"", -1)).as("one rendered image per instance").hasSize(81);
        assertThat(derived.body()).contains("\"contentType\":\"image/png\"");
        cluster.restart(victim);
    }

    @Test
    @Order(11)
    void aSessionMadeOnOneNodeIsAcceptedOnAllAndItsLogoutHoldsEverywhere() throws Exception {
        HttpResponse<String> created = send(1, "/admin/users/sam", "PUT",
                "{\"password\":\"sam-pass-1\",\"role\":\"uploader\"}".getBytes(),
                Map.of("Content-Type", "application/json"));
        assertThat(created.statusCode()).as(created.body()).isIn(201, 204);
        String sam = PayaraStore.basic("sam", "sam-pass-1");
        for (int node = 2; node <= 3; node++) {
            int n = node;
            assertThat(statusOnceKnown(n, "sam", true, "/auth/me", sam)).isEqualTo(200);
        }
        HttpResponse<String> login = http.send(HttpRequest.newBuilder(cluster.nodeUri(1, "/auth/login"))
                .timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers
                        .ofString("{\"username\":\"sam\",\"password\":\"sam-pass-1\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(login.statusCode()).as(login.body()).isEqualTo(200);
        String cookie = login.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        assertThat(cookie).startsWith("medjava_session=");
        String origin = "http://127.0.0.1:" + cluster.lb("/").getPort(); // medjava.public-url: the load balancer

        for (int node = 1; node <= 3; node++) {
            HttpResponse<String> me = withCookie(cluster.nodeUri(node, "/auth/me"), cookie, "GET", null);
            assertThat(me.statusCode()).as("node %d: %s", node, me.body()).isEqualTo(200);
            assertThat(me.body()).contains("\"user\":\"sam\"", "\"role\":\"uploader\"");
        }
        HttpResponse<String> put = withCookie(cluster.nodeUri(3, "/images/cluster/session/by-sam.gif"), cookie, "PUT",
                HttpRequest.newBuilder().header("Origin", origin).header("Content-Type", "image/gif"));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        assertThat(withCookie(cluster.lb("/images/cluster/session/by-sam.gif"), cookie, "GET", null).statusCode())
                .as("through nginx").isEqualTo(200);
        assertThat(cluster.nodes()).allSatisfy(n -> assertThat(n.dataDir().resolve("session.key"))
                .as("the cluster's key is in the shared database, not on a node").doesNotExist());

        HttpResponse<String> logout = withCookie(cluster.nodeUri(2, "/auth/logout"), cookie, "POST",
                HttpRequest.newBuilder().header("Origin", origin));
        assertThat(logout.statusCode()).isEqualTo(204);
        for (int node : List.of(1, 3, 2)) {
            HttpResponse<String> after = withCookie(cluster.nodeUri(node, "/auth/me"), cookie, "GET", null);
            assertThat(after.statusCode()).as("node %d right after the logout on node 2", node).isEqualTo(401);
            assertThat(after.body()).contains("logout");
        }
        assertThat(send(1, "/admin/users/sam", "DELETE", null, Map.of()).statusCode()).isEqualTo(204);
    }

    static HttpResponse<String> withCookie(java.net.URI uri, String cookie, String method, HttpRequest.Builder base)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = (base == null ? HttpRequest.newBuilder() : base).uri(uri).timeout(REQUEST_TIMEOUT)
                .header("Cookie", cookie).method(method, method.equals("PUT")
                        ? HttpRequest.BodyPublishers.ofByteArray(GIF) : HttpRequest.BodyPublishers.noBody());
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The node's log once it shows {@code refusal} or Payara is up (at most 200 s). */
    static String logWhenStarted(PayaraStore node, String refusal) throws IOException, InterruptedException {
        String log = "";
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(200);
        while (System.nanoTime() < end && !log.contains(refusal) && !log.contains("ready in")) {
            Thread.sleep(500);
            log = node.log();
        }
        return log;
    }

    @Test
    @Order(12)
    void aStudyDeletedOnOneNodeIsGoneOnAllAndItsRestoreAndPurgeHoldEverywhere() throws Exception {
        TestStudy study = TestStudy.create(work.resolve("trash"), "CLUSTER-TRASH", "CT_small.dcm", "MR_small.dcm");
        List<byte[]> parts = new ArrayList<>();
        for (TestStudy.Instance i : study.instances()) {
            parts.add(Files.readAllBytes(i.file()));
        }
        assertThat(send(1, "/dicomweb/studies", "POST", Multipart.dicom("CLUSTER-T", parts), Map.of("Content-Type",
                "multipart/related; type=\"application/dicom\"; boundary=CLUSTER-T", "Accept",
                "application/dicom+json")).statusCode()).isEqualTo(200);
        String file = "/images/" + study.storePath(study.instances().get(0));
        String qido = "/dicomweb/studies?StudyInstanceUID=" + study.studyUid();

        HttpResponse<String> deleted = send(2, "/dicomweb/studies/" + study.studyUid(), "DELETE", null, Map.of());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(200);
        String trashId = field(deleted.body(), "trashId");

        for (int node : List.of(1, 3)) { // the index doors at once, reads by path within a second
            assertThat(send(node, qido, "GET", null, Map.of("Accept", "application/dicom+json")).body())
                    .as("QIDO on node %d right after the delete", node).doesNotContain(study.studyUid());
            assertThat(eventually(() -> getBytes(node, file).statusCode(), 404, Duration.ofSeconds(3)))
                    .as("GET %s on node %d", file, node).isEqualTo(404);
        }
        assertThat(send(3, "/trash/" + trashId, "GET", null, Map.of()).body()).contains(study.studyUid());

        HttpResponse<String> restored = send(3, "/trash/" + trashId + "/restore", "POST", null, Map.of());
        assertThat(field(restored.body(), "restored")).isEqualTo("2");
        assertThat(eventually(() -> getBytes(1, file).statusCode(), 200, Duration.ofSeconds(3))).isEqualTo(200);
        assertThat(getBytes(1, file).body()).isEqualTo(parts.get(0));
        assertThat(send(2, qido, "GET", null, Map.of("Accept", "application/dicom+json")).body())
                .contains(study.studyUid());

        String again = field(send(1, "/dicomweb/studies/" + study.studyUid(), "DELETE", null, Map.of()).body(),
                "trashId");
        HttpResponse<String> purged = send(3, "/trash/" + again, "DELETE", null, Map.of());
        assertThat(field(purged.body(), "purged")).isEqualTo("2");
        String key = cluster.prefix() + "/" + study.storePath(study.instances().get(0));
        assertThatThrownBy(() -> cluster.s3().headObject(b -> b.bucket(cluster.bucket()).key(key)))
                .as("the object is gone from S3").hasMessageContaining("404");
        assertThat(send(2, "/trash/" + again, "GET", null, Map.of()).statusCode()).isEqualTo(404);
    }

    @Test
    @Order(13)
    void theChangeFeedIsOneOrderOnEveryNodeAndAFollowerUnderConcurrentWritesMissesNothing() throws Exception {
        long start = lastOf(1);
        ExecutorService writers = Executors.newFixedThreadPool(3);
        AtomicBoolean writing = new AtomicBoolean(true);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int node = 1; node <= 3; node++) {
                int n = node;
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 15; i++) {
                        assertThat(send(n, "/images/cluster/feed/n" + n + "-" + i + ".dcm", "PUT", CT, Map.of())
                                .statusCode()).isEqualTo(201);
                    }
                    return null;
                }));
            }
            // a follower on node 1 asks for what came after the last number it saw, while the others write
            List<Long> followed = new ArrayList<>();
            long last = start;
            Future<?> all = writers.submit(() -> {
                for (Future<?> f : done) {
                    f.get();
                }
                writing.set(false);
                return null;
            });
            while (true) {
                boolean stillWriting = writing.get();
                String page = send(1, "/changes?since=" + last + "&limit=7", "GET", null, Map.of()).body();
                List<Long> seqs = seqs(page);
                followed.addAll(seqs);
                last = Long.parseLong(field(page, "last"));
                if (!stillWriting && seqs.isEmpty()) {
                    break;
                }
            }
            all.get();
            for (int node = 1; node <= 3; node++) {
                List<Long> feed = seqs(send(node, "/changes?since=" + start + "&limit=10000", "GET", null, Map.of())
                        .body());
                assertThat(feed).as("node %d's feed", node).hasSize(45).isSorted().isEqualTo(followed);
            }
        } finally {
            writers.shutdownNow();
        }
    }

    @Test
    @Order(14)
    void aNodeNeverServesAnOlderVersionAfterAnotherNodesAcknowledgedOverwrite() throws Exception {
        String path = "/images/cluster/fresh/object";
        String before = null;
        for (int round = 0; round < 12; round++) {
            // the versions alternate in size (a read of the one before, or of a mix, shows) and each has its ETag
            byte[] body = round % 2 == 0 ? CT : GIF;
            int writer = 1 + round % 3;
            HttpResponse<String> put = send(writer, path, "PUT", body, Map.of());
            assertThat(put.statusCode()).as(put.body()).isIn(201, 204);
            String written = put.headers().firstValue("ETag").orElseThrow();
            // at once, on every node (each read the version before in the previous round)
            for (int node = 1; node <= 3; node++) {
                HttpResponse<byte[]> got = getBytes(node, path);
                assertThat(got.statusCode()).isEqualTo(200);
                assertThat(got.body()).as("round %d, written on node %d, read on node %d", round, writer, node)
                        .isEqualTo(body);
                assertThat(got.headers().firstValue("ETag")).contains(written);
                if (before != null) { // a client holding the version before is sent the new one, not a 304
                    HttpResponse<byte[]> revalidated = http.send(request(node, path).header("If-None-Match", before)
                            .build(), HttpResponse.BodyHandlers.ofByteArray());
                    assertThat(revalidated.statusCode()).isEqualTo(200);
                    assertThat(revalidated.body()).isEqualTo(body);
                }
                HttpResponse<byte[]> current = http.send(request(node, path).header("If-None-Match", written)
                        .build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(current.statusCode()).isEqualTo(304);
                assertThat(current.body()).isEmpty();
            }
            before = written;
        }
    }

    @Test
    @Order(15)
    void aNodeReadsThroughItsObjectCacheEvictsAtItsBoundAndDropsWhatAnotherNodeChanged() throws Exception {
        String path = "/images/cluster/cache/one.png";
        byte[] png = GeneratedPng.bytes(200, 180, 1); // 39 KB
        assertThat(send(1, path, "PUT", png, Map.of()).statusCode()).isEqualTo(201);
        // node 2: the first read asks S3 and keeps a copy; the next ones (plain, conditional, ranged) are hits
        Scrape start = scrape(2);
        HttpResponse<byte[]> first = getBytes(2, path);
        assertThat(first.body()).isEqualTo(png);
        String etag = first.headers().firstValue("ETag").orElseThrow();
        assertThat(getBytes(2, path).body()).isEqualTo(png);
        assertThat(http.send(request(2, path).header("If-None-Match", etag).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(304);
        HttpResponse<byte[]> range = http.send(request(2, path).header("Range", "bytes=6-9").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(range.statusCode()).isEqualTo(206);
        assertThat(range.body()).isEqualTo(Arrays.copyOfRange(png, 6, 10));
        Scrape read = scrape(2);
        assertThat(added(start, read, "medjava_object_cache_reads", "outcome", "miss")).isEqualTo(1);
        assertThat(added(start, read, "medjava_object_cache_reads", "outcome", "hit")).isEqualTo(3);

        // another node overwrites it (same size, other pixels): node 2's copy is gone before the write is answered
        byte[] other = GeneratedPng.bytes(200, 180, 2);
        HttpResponse<String> put = send(3, path, "PUT", other, Map.of());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(204);
        HttpResponse<byte[]> after = getBytes(2, path);
        assertThat(after.body()).isEqualTo(other);
        assertThat(after.headers().firstValue("ETag")).contains(put.headers().firstValue("ETag").orElseThrow());
        assertThat(http.send(request(2, path).header("If-None-Match", etag).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
        Scrape overwritten = scrape(2);
        assertThat(added(read, overwritten, "medjava_object_cache_dropped", "reason", "invalidated")).isEqualTo(1);
        assertThat(added(read, overwritten, "medjava_object_cache_reads", "outcome", "miss")).isEqualTo(1);
        // ... and deletes it: gone from node 2 at once
        assertThat(send(1, path, "DELETE", null, Map.of()).statusCode()).isEqualTo(204);
        assertThat(getBytes(2, path).statusCode()).isEqualTo(404);

        // the bound: eight 39 KB images read on node 2 do not fit in 256 KiB; the least recently read go first
        int count = 8;
        List<byte[]> images = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            images.add(GeneratedPng.bytes(200, 180, 10 + i));
            assertThat(send(1, "/images/cluster/cache/" + i + ".png", "PUT", images.get(i), Map.of()).statusCode())
                    .isEqualTo(201);
        }
        Scrape before = scrape(2);
        for (int i = 0; i < count; i++) {
            assertThat(getBytes(2, "/images/cluster/cache/" + i + ".png").body()).isEqualTo(images.get(i));
        }
        Scrape filled = scrape(2);
        assertThat(filled.value("medjava_object_cache_bytes")).isLessThanOrEqualTo(CACHE_BYTES)
                .isGreaterThan(CACHE_BYTES - 2 * png.length);
        // at least the two first of them (copies the earlier tests left were older still)
        assertThat(added(before, filled, "medjava_object_cache_dropped", "reason", "evicted"))
                .isGreaterThanOrEqualTo(count - CACHE_BYTES / png.length);
        assertThat(getBytes(2, "/images/cluster/cache/" + (count - 1) + ".png").body()).isEqualTo(images.get(7));
        assertThat(getBytes(2, "/images/cluster/cache/0.png").body()).isEqualTo(images.get(0));
        Scrape again = scrape(2);
        assertThat(added(filled, again, "medjava_object_cache_reads", "outcome", "hit")).as("the last read")
                .isEqualTo(1);
        assertThat(added(filled, again, "medjava_object_cache_reads", "outcome", "miss")).as("the first, evicted")
                .isEqualTo(1);
    }

    private static Scrape scrape(int node) throws Exception {
        HttpResponse<String> r = send(node, "/metrics", "GET", null, Map.of("Accept", "text/plain"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Scrape.of(r.body());
    }

    private static double added(Scrape before, Scrape after, String name, String... labels) {
        return after.value(name, labels) - before.value(name, labels);
    }

    @Test
    @Order(20)
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aWriteInFlightWhenTheDatabaseGoesIsAcknowledgedOnlyIndexedAndTheRestIsFoundOrGone() throws Exception {
        String study = TestStudy.newUid();
        String series = TestStudy.newUid();
        Map<String, String> acknowledged = new ConcurrentHashMap<>(); // path -> SOP Instance UID
        Map<String, String> unacknowledged = new ConcurrentHashMap<>();
        Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            int thread = t;
            writers.add(pool.submit(() -> {
                Path file = work.resolve("pg-fault-" + thread + ".dcm");
                for (int n = 0; running.get() && n < 2000; n++) {
                    String sop = TestStudy.newUid();
                    byte[] body = Files.readAllBytes(org.medjava.store.core.index.TestDicom.ct()
                            .patient("PGFAULT", "Fault^Pg").study(study, "20260101").series(series, "CT", 1)
                            .instance(sop, thread * 10_000 + n).writeTo(file));
                    String path = "/images/cluster/pg-fault/t" + thread + "-" + n + ".dcm";
                    try {
                        int status = http.send(HttpRequest.newBuilder(cluster.lb(path)).timeout(REQUEST_TIMEOUT)
                                .header("Authorization", PayaraStore.admin()).header("Content-Type",
                                        "application/dicom").PUT(HttpRequest.BodyPublishers.ofByteArray(body))
                                .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        statuses.merge(status, 1, Integer::sum);
                        (status == 201 ? acknowledged : unacknowledged).put(path, sop);
                    } catch (IOException e) {
                        unacknowledged.put(path, sop);
                    }
                }
                return null;
            }));
        }
        while (acknowledged.size() < 5) {
            Thread.sleep(100);
        }
        cluster.postgres().stopServer();
        int before;
        try {
            Thread.sleep(3_000);
        } finally {
            before = acknowledged.size();
            cluster.postgres().startAgain();
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (acknowledged.size() < before + 10 && System.nanoTime() < end) { // writes go on once it is back
            Thread.sleep(100);
        }
        running.set(false);
        for (Future<?> f : writers) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdownNow();
        System.out.println("ClusterIT: PostgreSQL stopped for 3 s under DICOM PUTs: " + acknowledged.size()
                + " acknowledged, " + unacknowledged.size() + " not; statuses " + statuses);
        assertThat(acknowledged).as("acknowledged after the restart").hasSizeGreaterThanOrEqualTo(before + 10);
        assertThat(statuses.keySet()).as("answers while the database was away").isSubsetOf(201, 503);
        for (int node = 1; node <= 3; node++) {
            int n = node;
            Set<String> found = eventuallyIndexed(node, study, acknowledged.values(), Duration.ofSeconds(30));
            // the database was back before the load ended; the nodes may need a moment to reconnect, not to index
            assertThat(found).as("every acknowledged write is found by QIDO on node %d", n)
                    .containsAll(acknowledged.values());
        }
        // each write not acknowledged is either there and indexed, or not there at all, once the store settled it
        Set<String> stored = new HashSet<>();
        for (Map.Entry<String, String> e : unacknowledged.entrySet()) {
            int status = getBytes(1, e.getKey()).statusCode();
            assertThat(status).as("%s", e.getKey()).isIn(200, 404);
            if (status == 200) {
                stored.add(e.getValue());
            }
        }
        for (int node = 1; node <= 3; node++) {
            assertThat(eventuallyIndexed(node, study, stored, Duration.ofSeconds(30)))
                    .as("unacknowledged but stored writes are indexed by the cluster on node %d", node)
                    .containsAll(stored);
        }
        System.out.println("ClusterIT: of the writes not acknowledged, " + stored.size() + " were stored and are now"
                + " indexed, " + (unacknowledged.size() - stored.size()) + " left nothing");
    }

    @Test
    @Order(21)
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aWriteTheIndexRefusedIsNotAcknowledgedAndAnotherNodeIndexesItAfterItsWriterDied() throws Exception {
        String study = TestStudy.newUid();
        String sop = TestStudy.newUid();
        Path file = work.resolve("refused.dcm");
        byte[] body = Files.readAllBytes(org.medjava.store.core.index.TestDicom.ct().patient("REFUSED", "Refused^Ix")
                .study(study, "20260102").series(TestStudy.newUid(), "CT", 1).instance(sop, 1).writeTo(file));
        String path = "/images/cluster/refused/one.dcm";
        // the index database refuses this node role's new rows: the object is stored, its row cannot be
        cluster.postgres().execute(ClusterHarness.DATABASE, "REVOKE INSERT, UPDATE ON mj_instance FROM "
                + ClusterHarness.NODE_ROLE);
        HttpResponse<String> refused;
        try {
            refused = send(1, path, "PUT", body, Map.of("Content-Type", "application/dicom"));
            assertThat(refused.statusCode()).as("%s", refused.body()).isEqualTo(503);
            assertThat(refused.body()).contains("not confirmed");
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            cluster.kill(1); // its writer dies before the index is back: another node must settle the write
        } finally {
            cluster.postgres().execute(ClusterHarness.DATABASE, "GRANT INSERT, UPDATE ON mj_instance TO "
                    + ClusterHarness.NODE_ROLE);
        }
        for (int node = 2; node <= 3; node++) {
            assertThat(eventuallyIndexed(node, study, List.of(sop), Duration.ofSeconds(60)))
                    .as("indexed by a surviving node, seen on node %d", node).contains(sop);
        }
        cluster.restart(1);
        assertThat(eventuallyIndexed(1, study, List.of(sop), Duration.ofSeconds(10))).contains(sop);
        assertThat(cluster.postgres().queryOne(ClusterHarness.DATABASE, "select count(*) from medjava_write"))
                .as("no write left unsettled").isEqualTo("0");
    }

    @Test
    @Order(22)
    void theNodesLogInAsARoleThatIsNoSuperuserAndHoldFewConnections() {
        assertThat(cluster.postgres().queryOne(ClusterHarness.DATABASE, "select rolsuper from pg_roles where"
                + " rolname = '" + ClusterHarness.NODE_ROLE + "'")).isEqualTo("f");
        String held = cluster.postgres().queryOne(ClusterHarness.DATABASE, "select count(*) from pg_stat_activity"
                + " where usename = '" + ClusterHarness.NODE_ROLE + "'");
        System.out.println("ClusterIT: the three nodes hold " + held + " connections to PostgreSQL after the tests");
        assertThat(Integer.parseInt(held)).as("three nodes at medjava.db.max-connections=12")
                .isLessThanOrEqualTo(3 * 12);
    }

    @Test
    @Order(23)
    @Timeout(value = 480, unit = TimeUnit.SECONDS)
    void sixNodesShareOnePostgresAtItsDefaultConnectionLimitUnderConcurrentWrites() throws Exception {
        List<PayaraStore> extra = new ArrayList<>();
        try {
            for (int n = 4; n <= 6; n++) {
                extra.add(cluster.extraNode("node" + n).launch());
            }
            for (PayaraStore node : extra) {
                node.awaitReady();
            }
            List<java.util.function.Function<String, java.net.URI>> nodes = new ArrayList<>();
            for (int n = 1; n <= 3; n++) {
                int i = n;
                nodes.add(path -> cluster.nodeUri(i, path));
            }
            extra.forEach(node -> nodes.add(node::uri));
            Map<Integer, Integer> statuses = new ConcurrentHashMap<>();
            Map<String, Integer> refusals = new ConcurrentHashMap<>(); // why a node said 503, by message
            ExecutorService pool = Executors.newFixedThreadPool(32);
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                int thread = t;
                writers.add(pool.submit(() -> {
                    for (int n = 0; n < 6; n++) {
                        java.net.URI uri = nodes.get((thread + n) % nodes.size())
                                .apply("/images/cluster/six/t" + thread + "-" + n + ".gif");
                        // as a client does: a 503 (a node shedding load) is sent again after its Retry-After
                        for (int attempt = 0; attempt < 30; attempt++) {
                            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
                                    .header("Authorization", PayaraStore.admin())
                                    .PUT(HttpRequest.BodyPublishers.ofByteArray(GIF)).build(),
                                    HttpResponse.BodyHandlers.ofString());
                            statuses.merge(r.statusCode(), 1, Integer::sum);
                            if (r.statusCode() != 503) {
                                break;
                            }
                            refusals.merge(field(r.body(), "message").replaceAll("[0-9]+", "N"), 1, Integer::sum);
                            Thread.sleep(1_000L * Math.min(2, Long.parseLong(r.headers().firstValue("Retry-After")
                                    .orElse("1"))));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : writers) {
                f.get(300, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
            String held = cluster.postgres().queryOne(ClusterHarness.DATABASE, "select count(*) from"
                    + " pg_stat_activity where usename = '" + ClusterHarness.NODE_ROLE + "'");
            String limit = cluster.postgres().queryOne(ClusterHarness.DATABASE, "show max_connections");
            System.out.println("ClusterIT: six nodes, 32 writers: " + statuses + " (503s: " + refusals
                    + "); the nodes hold " + held + " of PostgreSQL's " + limit + " connections");
            assertThat(statuses.get(201)).as("every one of the 192 writes stored").isEqualTo(192);
            assertThat(statuses.keySet()).as("answers: stored, or busy for a moment").isSubsetOf(201, 503);
            assertThat(refusals.keySet()).as("no write refused for want of a database connection")
                    .noneMatch(m -> m.contains("too many clients") || m.contains("medjava.db.url")
                            || m.contains("connection"));
            assertThat(limit).isEqualTo("100");
            assertThat(Integer.parseInt(held)).as("six nodes at medjava.db.max-connections=12")
                    .isLessThanOrEqualTo(6 * 12);
            assertThat(cluster.postgres().queryOne(ClusterHarness.DATABASE, "select 1"))
                    .as("an administrator still gets in").isEqualTo("1");
        } finally {
            // left running for the write cuts (order 25), which kill them: starting nodes is the slow part
            leftRunning.addAll(extra);
        }
    }

    /** Extra nodes a test left running for a later one to use up; the last test of the class stops what is left. */
    private static final List<PayaraStore> leftRunning = new ArrayList<>();

    @Test
    @Order(24)
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void readsGoOnThroughTheLoadBalancerWhilePostgresOrS3IsAwayWithoutA502() throws Exception {
        Map<String, Integer> whileDatabaseAway;
        cluster.postgres().stopServer();
        try {
            whileDatabaseAway = readThroughTheLoadBalancer(Duration.ofSeconds(8));
        } finally {
            cluster.postgres().startAgain();
        }
        for (int node = 1; node <= 3; node++) { // each node's probe has seen the database back
            int n = node;
            assertThat(eventually(() -> send(n, "/dicomweb/studies", "GET", null,
                    Map.of("Accept", "application/dicom+json")).statusCode(), 200, Duration.ofSeconds(60)))
                    .isEqualTo(200);
        }
        Map<String, Integer> whileStorageAway;
        cluster.s3Server().kill();
        try {
            whileStorageAway = readThroughTheLoadBalancer(Duration.ofSeconds(8));
        } finally {
            cluster.s3Server().restart();
        }
        System.out.println("ClusterIT: reads through nginx, PostgreSQL away: " + whileDatabaseAway
                + "; S3 away: " + whileStorageAway);
        for (Map<String, Integer> statuses : List.of(whileDatabaseAway, whileStorageAway)) {
            assertThat(statuses.keySet()).as("no 502 nor another failure than 503: %s", statuses)
                    .allMatch(k -> k.endsWith(" 200") || k.endsWith(" 503"));
        }
        assertThat(whileDatabaseAway).as("objects by path are served without the index")
                .containsKey("object 200").doesNotContainKey("object 503");
        assertThat(whileStorageAway).as("queries are answered without the storage")
                .containsKey("query 200").doesNotContainKey("query 503");
        assertThat(eventually(() -> getBytes(2, "/images/cluster/a/ct.dcm").statusCode(), 200,
                Duration.ofSeconds(60))).isEqualTo(200);
    }

    @Test
    @Order(26)
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aNodeJoinsAndLeavesUnderKeepAliveReadsWithoutAFailedRequestOrAReload() throws Exception {
        String generation = http.send(HttpRequest.newBuilder(cluster.lb("/_nginx/generation")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Map<String, Integer> outcomes = new ConcurrentHashMap<>();
        Set<String> upstreams = ConcurrentHashMap.newKeySet();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService readers = Executors.newFixedThreadPool(2);
        List<Future<?>> reading = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            reading.add(readers.submit(() -> {
                HttpClient keepAlive = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                while (running.get()) {
                    String outcome;
                    try {
                        HttpResponse<byte[]> r = keepAlive.send(HttpRequest.newBuilder(
                                cluster.lb("/images/cluster/a/ct.dcm")).timeout(REQUEST_TIMEOUT)
                                .header("Authorization", PayaraStore.admin()).build(),
                                HttpResponse.BodyHandlers.ofByteArray());
                        outcome = r.statusCode() == 200 && Arrays.equals(r.body(), CT) ? "200" : "" + r.statusCode();
                        r.headers().firstValue("X-Upstream").ifPresent(upstreams::add);
                    } catch (IOException e) {
                        outcome = e.getClass().getSimpleName();
                    }
                    outcomes.merge(outcome, 1, Integer::sum);
                }
                return null;
            }));
        }
        Thread.sleep(1_000);
        PayaraStore joined = cluster.addNode(); // on a slot nginx has listed from the start
        String address = "127.0.0.1:" + joined.port();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (upstreams.stream().noneMatch(u -> u.contains(address)) && System.nanoTime() < end) {
            Thread.sleep(100);
        }
        assertThat(upstreams).as("the new node gets requests").anyMatch(u -> u.contains(address));
        Map<String, Integer> whileJoining = Map.copyOf(outcomes);
        joined.stop(); // leaves: SIGTERM, in-flight requests end or are retried on another node
        Thread.sleep(2L * Nginx.FAIL_TIMEOUT_SECONDS * 1000); // nginx tries the empty slot again meanwhile
        running.set(false);
        for (Future<?> f : reading) {
            f.get(60, TimeUnit.SECONDS);
        }
        readers.shutdownNow();
        System.out.println("ClusterIT: keep-alive GETs through nginx while node 4 joined on a spare slot: "
                + whileJoining + "; until after it left: " + outcomes);
        assertThat(outcomes.keySet()).as("every GET answered 200 with the object").containsOnly("200");
        assertThat(http.send(HttpRequest.newBuilder(cluster.lb("/_nginx/generation")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).as("nginx was not reloaded").isEqualTo(generation);
    }

    /** A write cut at one of its steps, how its client was answered (-1: no answer) and what became of it. */
    private record Cut(String how, String path, String sop, int status) {
    }

    @Test
    @Order(25)
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aWriteCutAtAnyStepByAKilledNodeOrAStoppedDatabaseIsAcknowledgedOnlyWhenFoundEverywhere() throws Exception {
        WriteSeams seams = cluster.seams();
        String study = TestStudy.newUid();
        String series = TestStudy.newUid();
        List<Cut> cuts = new ArrayList<>();
        while (leftRunning.size() < WriteSeams.STEPS.size()) { // they start while the database cuts run
            leftRunning.add(cluster.extraNode("victim" + leftRunning.size()).launch());
        }
        // PostgreSQL stops while node 1 holds a write at each step; the write then goes on without it
        for (String step : WriteSeams.STEPS) {
            String path = "cluster/cut/database-" + step + ".dcm";
            String sop = TestStudy.newUid();
            writable(cluster.nodeUri(1, "/images/cluster/cut/before-" + step + ".gif"));
            seams.arm(step, path);
            var answer = http.sendAsync(putDicom(cluster.nodeUri(1, "/images/" + path), study, series, sop,
                    cuts.size()), HttpResponse.BodyHandlers.ofString());
            held(seams, step, answer);
            cluster.postgres().stopServer();
            int status;
            try {
                seams.release(step);
                status = answer.get(60, TimeUnit.SECONDS).statusCode();
            } finally {
                cluster.postgres().startAgain();
            }
            cuts.add(new Cut("PostgreSQL stopped at " + step, path, sop, status));
            assertThat(eventually(() -> send(1, "/dicomweb/studies?limit=1", "GET", null,
                    Map.of("Accept", "application/dicom+json")).statusCode(), 200, Duration.ofSeconds(60)))
                    .as("node 1 finds the database back").isEqualTo(200);
        }
        // a node killed (kill -9) while it holds a write at each step: four more nodes, one per step (those the six
        // nodes' test left running, and what is missing started now)
        List<PayaraStore> victims = new ArrayList<>();
        try {
            victims.addAll(leftRunning); // filled to one per step at the start of this test
            leftRunning.clear();
            for (PayaraStore victim : victims) {
                victim.awaitReady();
            }
            for (int i = 0; i < victims.size(); i++) {
                String step = WriteSeams.STEPS.get(i);
                String path = "cluster/cut/killed-" + step + ".dcm";
                String sop = TestStudy.newUid();
                writable(victims.get(i).uri("/images/cluster/cut/before-" + step + ".gif"));
                seams.arm(step, path);
                var answer = http.sendAsync(putDicom(victims.get(i).uri("/images/" + path), study, series, sop,
                        cuts.size()), HttpResponse.BodyHandlers.ofString());
                held(seams, step, answer);
                victims.get(i).kill();
                seams.release(step);
                int status;
                try {
                    status = answer.get(60, TimeUnit.SECONDS).statusCode();
                } catch (java.util.concurrent.ExecutionException e) {
                    status = -1; // the connection died with the node
                }
                cuts.add(new Cut("node killed at " + step, path, sop, status));
            }
        } finally {
            for (PayaraStore victim : victims) {
                victim.kill();
            }
        }
        // within a bounded time every cut write is either stored and found by QIDO on every node, or gone from all
        long t0 = System.nanoTime();
        Map<String, String> outcomes = new java.util.LinkedHashMap<>();
        for (Cut cut : cuts) {
            boolean stored = storedOrGone(cut.path(), Duration.ofSeconds(60));
            if (cut.status() == 201) {
                assertThat(stored).as("%s: acknowledged, so stored", cut.how()).isTrue();
            }
            for (int node = 1; node <= 3; node++) {
                Set<String> found = eventuallyIndexed(node, study, stored ? List.of(cut.sop()) : List.of(),
                        Duration.ofSeconds(60));
                if (stored) {
                    assertThat(found).as("%s (answered %d): stored, so found by QIDO on node %d", cut.how(),
                            cut.status(), node).contains(cut.sop());
                } else {
                    assertThat(found).as("%s (answered %d): gone, so not found on node %d", cut.how(),
                            cut.status(), node).doesNotContain(cut.sop());
                    assertThat(getBytes(node, "/images/" + cut.path()).statusCode()).isEqualTo(404);
                }
            }
            outcomes.put(cut.how(), (cut.status() == -1 ? "no answer" : "answered " + cut.status())
                    + (stored ? ", stored and found everywhere" : ", gone"));
        }
        System.out.printf("ClusterIT: writes cut at each step, settled within %d s: %s%n",
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0), outcomes);
        // what each cut must give, step by step (the store's design, not only "found or gone")
        assertThat(outcomes).containsEntry("PostgreSQL stopped at JOURNALED", "answered 503, gone")
                .containsEntry("PostgreSQL stopped at OBJECT_CHANGED", "answered 503, stored and found everywhere")
                .containsEntry("PostgreSQL stopped at ANSWERING", "answered 201, stored and found everywhere")
                .containsEntry("node killed at JOURNALED", "no answer, gone")
                .containsEntry("node killed at OBJECT_CHANGED", "no answer, stored and found everywhere")
                .containsEntry("node killed at INDEXED", "no answer, stored and found everywhere")
                .containsEntry("node killed at ANSWERING", "no answer, stored and found everywhere");
        assertThat(outcomes.get("PostgreSQL stopped at INDEXED")).endsWith("stored and found everywhere");
        assertThat(cluster.postgres().queryOne(ClusterHarness.DATABASE, "select count(*) from medjava_write"))
                .as("no write lease left behind").isEqualTo("0");
    }

    /** Waits until a PUT to {@code uri} is stored (the node's database and storage answer, its leases too). */
    private static void writable(java.net.URI uri) throws Exception {
        assertThat(eventually(() -> http.send(HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT)
                .header("Authorization", PayaraStore.admin()).PUT(HttpRequest.BodyPublishers.ofByteArray(GIF))
                .build(), HttpResponse.BodyHandlers.discarding()).statusCode() / 100 == 2 ? 1 : 0, 1,
                Duration.ofSeconds(60))).as("%s takes writes", uri).isEqualTo(1);
    }

    /** Waits until the write is held at {@code step}; fails at once, saying why, when it was answered before. */
    private static void held(WriteSeams seams, String step,
                             java.util.concurrent.CompletableFuture<HttpResponse<String>> answer) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                seams.awaitHeld(step, Duration.ofMillis(200));
                return;
            } catch (AssertionError notYet) {
                if (answer.isDone()) {
                    throw new AssertionError("the write was answered before it reached " + step + ": "
                            + answer.get().statusCode() + " " + answer.get().body());
                }
                if (System.nanoTime() > end) {
                    throw notYet;
                }
            }
        }
    }

    /**
     * Whether the object at {@code path} is stored (200 from node 2) or gone (404, and no write lease left that a
     * node could still settle by installing it), polled until one of the two.
     */
    private static boolean storedOrGone(String path, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (true) {
            int status = getBytes(2, "/images/" + path).statusCode();
            if (status == 200) {
                return true;
            }
            if (status == 404 && "0".equals(cluster.postgres().queryOne(ClusterHarness.DATABASE,
                    "select count(*) from medjava_write"))) {
                return false;
            }
            assertThat(System.nanoTime()).as("%s neither stored nor gone within %s (last %d)", path, within, status)
                    .isLessThan(end);
            Thread.sleep(200);
        }
    }

    private static HttpRequest putDicom(java.net.URI uri, String study, String series, String sop, int number)
            throws IOException {
        Path file = work.resolve("cut-" + number + ".dcm");
        byte[] body = Files.readAllBytes(org.medjava.store.core.index.TestDicom.ct().patient("CUT", "Cut^Write")
                .study(study, "20260103").series(series, "CT", 1).instance(sop, number + 1).writeTo(file));
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(120)).header("Authorization",
                PayaraStore.admin()).header("Content-Type", "application/dicom")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    /** Two clients reading through nginx for {@code during}: an object by path and a QIDO; statuses by kind. */
    private static Map<String, Integer> readThroughTheLoadBalancer(Duration during) throws Exception {
        Map<String, Integer> statuses = new ConcurrentHashMap<>();
        long end = System.nanoTime() + during.toNanos();
        ExecutorService readers = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (String kind : List.of("object", "query")) {
                running.add(readers.submit(() -> {
                    while (System.nanoTime() < end) {
                        HttpRequest.Builder request = HttpRequest.newBuilder(cluster.lb(kind.equals("object")
                                ? "/images/cluster/a/ct.dcm" : "/dicomweb/studies?limit=5"))
                                .timeout(REQUEST_TIMEOUT).header("Authorization", PayaraStore.admin())
                                .header("Accept", kind.equals("object") ? "*/*" : "application/dicom+json");
                        int status = http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        statuses.merge(kind + " " + status, 1, Integer::sum);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(during.toSeconds() + 60, TimeUnit.SECONDS);
            }
        } finally {
            readers.shutdownNow();
        }
        return statuses;
    }

    /** The SOP Instance UIDs node {@code node} finds in {@code study}, polled until they include {@code wanted}. */
    static Set<String> eventuallyIndexed(int node, String study, java.util.Collection<String> wanted,
                                         Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        Set<String> found = new HashSet<>();
        while (true) {
            found.clear();
            HttpResponse<String> r = send(node, "/dicomweb/studies/" + study + "/instances?limit=100000", "GET",
                    null, Map.of("Accept", "application/dicom+json"));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                    "\"00080018\":\\{\"vr\":\"UI\",\"Value\":\\[\"([^\"]+)\"").matcher(r.body());
            while (m.find()) {
                found.add(m.group(1));
            }
            if (found.containsAll(wanted) || System.nanoTime() > end) {
                return found;
            }
            Thread.sleep(500);
        }
    }

    /** The number of the latest change as {@code node} sees it (paging through the feed). */
    static long lastOf(int node) throws IOException, InterruptedException {
        long last = 0;
        while (true) {
            String page = send(node, "/changes?since=" + last + "&limit=10000", "GET", null, Map.of()).body();
            last = Long.parseLong(field(page, "last"));
            if (page.contains("\"done\":true")) {
                return last;
            }
        }
    }

    static List<Long> seqs(String feed) {
        List<Long> seqs = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"seq\":(\\d+)").matcher(feed);
        while (m.find()) {
            seqs.add(Long.parseLong(m.group(1)));
        }
        return seqs;
    }

    /** A string or number field of a flat JSON object (enough for a job's status). */
    static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":");
        assertThat(at).as("%s in %s", name, json).isGreaterThanOrEqualTo(0);
        int from = at + name.length() + 3;
        if (json.charAt(from) == '"') {
            return json.substring(from + 1, json.indexOf('"', from + 1));
        }
        int to = from;
        while (to < json.length() && (Character.isDigit(json.charAt(to)) || json.charAt(to) == '-')) {
            to++;
        }
        return json.substring(from, to);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    static HttpRequest.Builder request(int node, String path) {
        return HttpRequest.newBuilder(cluster.nodeUri(node, path)).timeout(REQUEST_TIMEOUT)
                .header("Authorization", PayaraStore.admin());
    }

    static HttpResponse<String> send(int node, String path, String method, byte[] body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = request(node, path).method(method, body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(r::header);
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<byte[]> getBytes(int node, String path) throws IOException, InterruptedException {
        return http.send(request(node, path).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static int statusAs(int node, String path, String authorization) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(cluster.nodeUri(node, path)).timeout(REQUEST_TIMEOUT)
                .header("Authorization", authorization).header("Accept", "application/json").build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /**
     * The status of one request as {@code user}, once the node's account list shows the account (or, with {@code
     * present} false, no longer shows it). Polling with the account's password instead would be throttled: every
     * check before the change arrives is a failed login, and after five the node refuses even the right password
     * for a while (429).
     */
    static int statusOnceKnown(int node, String user, boolean present, String path, String authorization)
            throws Exception {
        eventually(() -> {
            HttpResponse<String> users = send(node, "/admin/users", "GET", null, Map.of("Accept", "application/json"));
            return users.statusCode() == 200 && users.body().contains("\"" + user + "\"") == present ? 1 : 0;
        }, 1, Duration.ofSeconds(60));
        return statusAs(node, path, authorization);
    }

    static int renderStatus(int node, String filter) throws IOException, InterruptedException {
        return http.send(request(node, "/images/cluster/a/ct.dcm?render=png&filter=" + filter).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    static Set<String> manifestTags() throws IOException, InterruptedException {
        Set<String> tags = new HashSet<>();
        for (int node = 1; node <= 3; node++) {
            tags.add(send(node, "/filters", "GET", null, Map.of()).headers().firstValue("ETag").orElse("none"));
        }
        return tags;
    }

    /** The SOP Instance UID of a stored instance, from the index of {@code node}. */
    static String sopOf(String path, int node) throws IOException, InterruptedException {
        String listing = send(node, "/images/" + path.substring(0, path.lastIndexOf('/') + 1), "GET", null,
                Map.of("Accept", "application/json")).body();
        int at = listing.indexOf("\"SOPInstanceUID\":\"");
        assertThat(at).as("the listing shows the DICOM summary: %s", listing).isGreaterThanOrEqualTo(0);
        int from = at + "\"SOPInstanceUID\":\"".length();
        return listing.substring(from, listing.indexOf('"', from));
    }

    /** Polls until {@code call} answers {@code wanted} (at most 10 s); returns the last answer. */
    static int eventually(Callable<Integer> call, int wanted) throws Exception {
        return eventually(call, wanted, Duration.ofSeconds(10));
    }

    static int eventually(Callable<Integer> call, int wanted, Duration within) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        int last;
        do {
            try {
                last = call.call();
            } catch (IOException e) {
                last = -1;
            }
            if (last == wanted) {
                return last;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < end);
        return last;
    }
}
