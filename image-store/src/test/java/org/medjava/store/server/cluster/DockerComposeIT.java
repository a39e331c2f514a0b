package org.medjava.store.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.cluster.ComposeCluster;

/**
 * docker/compose.yaml as it is shipped, run on a real Docker engine ({@link ComposeCluster}: images built here from
 * Debian's packages, three store nodes, PostgreSQL, S3Proxy and nginx as containers), checked as ClusterIT checks the
 * process cluster, all through the load balancer: it spreads requests round robin over the three nodes, a write
 * through one node is read through the others, writers of one path on different nodes give one winner, a node
 * container killed under PUT load loses no acknowledged write, and with the database container stopped stored
 * objects are still served. The nodes log in as a role that is no superuser. Skipped, with the reason, where no
 * engine runs (.ci/run starts one when it can).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DockerComposeIT {

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(40);
    static final byte[] CT = Samples.bytes(Samples.dicom("CT_small.dcm"));
    static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));
    static final String AUTH = "Basic " + Base64.getEncoder().encodeToString(("admin:"
            + ComposeCluster.ADMIN_PASSWORD).getBytes(StandardCharsets.UTF_8));

    static ComposeCluster cluster;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    @Timeout(value = 40, unit = TimeUnit.MINUTES) // a first run on an engine builds the images (minutes)
    static void start() throws Exception {
        String unavailable = ComposeCluster.unavailable();
        if (unavailable != null) {
            System.out.println("DockerComposeIT: skipped: " + unavailable);
        }
        Assumptions.assumeTrue(unavailable == null, () -> "DockerComposeIT skipped: " + unavailable);
        Path root = Path.of(System.getProperty("medjava.root", Path.of("").toAbsolutePath().getParent().toString()));
        cluster = ComposeCluster.start(root, root.resolve("image-store/target/it-logs"),
                "medjava-it-" + ProcessHandle.current().pid());
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(0)
    void theLoadBalancerSpreadsRequestsRoundRobinOverTheThreeNodes() throws Exception {
        for (int n = 0; n < 9; n++) {
            assertThat(send("/health/ready", "GET", null, Map.of()).statusCode()).isEqualTo(200);
        }
        assertThat(upstreams("GET", "/health/ready")).as("the nodes that answered").hasSize(3);
    }

    @Test
    @Order(1)
    void aWriteThroughOneNodeIsReadThroughTheOthers() throws Exception {
        HttpResponse<String> put = send("/images/compose/a/ct.dcm", "PUT", CT, Map.of());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        for (int i = 0; i < 6; i++) {
            HttpResponse<byte[]> got = getBytes("/images/compose/a/ct.dcm");
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).isEqualTo(CT);
        }
        assertThat(upstreams("GET", "/images/compose/a/ct.dcm")).as("served by every node").hasSize(3);
        for (int i = 0; i < 3; i++) { // whichever node answers knows it is there
            assertThat(send("/images/compose/a/ct.dcm", "PUT", CT, Map.of("If-None-Match", "*")).statusCode())
                    .isEqualTo(412);
        }
        assertThat(upstreams("PUT", "/images/compose/a/ct.dcm")).hasSize(3);
    }

    @Test
    @Order(2)
    void writersOfOnePathOnDifferentNodesGiveOneCompleteWinner() throws Exception {
        int writers = 9;
        String path = "/images/compose/race/once";
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Integer> created = race(pool, writers, path, Map.of("If-None-Match", "*"));
            assertThat(created.stream().filter(s -> s == 201)).as("If-None-Match: * through the nodes: one creator")
                    .hasSize(1);
            assertThat(created).allMatch(s -> s == 201 || s == 412);
            assertThat(race(pool, writers, path, Map.of())).as("replaced by each").allMatch(s -> s == 204);
        } finally {
            pool.shutdownNow();
        }
        assertThat(upstreams("PUT", path)).as("the writers met different nodes").hasSizeGreaterThan(1);
        byte[] stored = getBytes(path).body();
        assertThat(Arrays.equals(stored, CT) || Arrays.equals(stored, GIF)).as("one complete winner").isTrue();
        for (int i = 0; i < 3; i++) {
            assertThat(getBytes(path).body()).isEqualTo(stored);
        }
    }

    /** {@code writers} PUTs of one path at once, CT and GIF by turns (a torn object would show); their statuses. */
    static List<Integer> race(ExecutorService pool, int writers, String path, Map<String, String> headers)
            throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            byte[] body = i % 2 == 0 ? CT : GIF;
            answers.add(pool.submit(() -> {
                go.await();
                return send(path, "PUT", body, headers);
            }));
        }
        go.countDown();
        List<Integer> statuses = new ArrayList<>();
        for (Future<HttpResponse<String>> f : answers) {
            statuses.add(f.get(60, TimeUnit.SECONDS).statusCode());
        }
        return statuses;
    }

    @Test
    @Order(3)
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void aNodeContainerKilledUnderPutLoadLosesNoAcknowledgedWrite() throws Exception {
        Map<String, byte[]> acknowledged = new ConcurrentHashMap<>();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> getErrors = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        int[] gets = {0};
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> uploaders = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            int thread = t;
            uploaders.add(pool.submit(() -> {
                for (int n = 0; running.get() && n < 400; n++) {
                    String path = "/images/compose/kill/t" + thread + "-" + n + ".gif";
                    try {
                        HttpResponse<String> r = send(path, "PUT", GIF, Map.of());
                        if (r.statusCode() == 201) {
                            acknowledged.put(path, GIF);
                        } else {
                            failures.add(r.statusCode() + " " + path);
                        }
                    } catch (IOException e) {
                        failures.add(e + " " + path); // in flight on the killed node: not acknowledged
                    }
                }
                return null;
            }));
        }
        Future<?> reader = pool.submit(() -> { // idempotent requests: nginx retries them on a live node
            while (running.get()) {
                try {
                    HttpResponse<byte[]> r = getBytes("/images/compose/a/ct.dcm");
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
        Thread.sleep(3_000);
        cluster.kill("store2");
        Thread.sleep(10_000); // past nginx's fail_timeout (5 s): it tries the dead node again
        running.set(false);
        for (Future<?> f : uploaders) {
            f.get(120, TimeUnit.SECONDS);
        }
        reader.get(60, TimeUnit.SECONDS);
        pool.shutdownNow();
        System.out.println("DockerComposeIT: kill of store2's container under PUT load: " + acknowledged.size()
                + " acknowledged, " + failures.size() + " not (" + failures.stream().limit(5).toList() + "); "
                + gets[0] + " GETs meanwhile, " + getErrors.size() + " errors");
        assertThat(getErrors).as("GETs through the load balancer while store2 was dead").isEmpty();
        assertThat(acknowledged).hasSizeGreaterThan(10);
        assertThat(failures.size()).as("uploads refused or cut off by the kill").isLessThan(acknowledged.size());
        for (Map.Entry<String, byte[]> e : acknowledged.entrySet()) {
            HttpResponse<byte[]> got = getBytes(e.getKey());
            assertThat(got.statusCode()).as("acknowledged %s", e.getKey()).isEqualTo(200);
            assertThat(got.body()).as("acknowledged %s", e.getKey()).isEqualTo(e.getValue());
        }

        long t0 = System.nanoTime();
        cluster.start("store2");
        cluster.reloadLoadBalancer();
        System.out.printf("DockerComposeIT: store2 healthy again %.1f s after its start%n",
                (System.nanoTime() - t0) / 1e9);
        int mark = cluster.lbRequests().size();
        for (int i = 0; i < 6; i++) {
            assertThat(getBytes("/images/compose/a/ct.dcm").statusCode()).isEqualTo(200);
        }
        assertThat(send("/images/compose/kill/after-restart.gif", "PUT", GIF, Map.of()).statusCode()).isEqualTo(201);
        assertThat(upstreams("GET", "/images/compose/a/ct.dcm", mark)).as("store2 is back in the rotation")
                .hasSize(3);
    }

    @Test
    @Order(4)
    @Timeout(value = 400, unit = TimeUnit.SECONDS)
    void withTheDatabaseContainerStoppedStoredObjectsAreStillServed() throws Exception {
        cluster.stop("postgres");
        try {
            for (int i = 0; i < 9; i++) { // through every node
                HttpResponse<byte[]> served = getBytes("/images/compose/a/ct.dcm");
                assertThat(served.statusCode()).as("GET %d with PostgreSQL down: %s", i, new String(served.body(),
                        StandardCharsets.UTF_8)).isEqualTo(200);
                assertThat(served.body()).isEqualTo(CT);
                assertThat(getBytes("/images/compose/kill/after-restart.gif").body()).isEqualTo(GIF);
            }
            assertThat(send("/health/ready", "GET", null, Map.of()).statusCode()).as("ready, for reads")
                    .isEqualTo(200);
            long t0 = System.nanoTime();
            HttpResponse<String> refused = send("/images/compose/pg/while-down.gif", "PUT", GIF, Map.of());
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            System.out.println("DockerComposeIT: with PostgreSQL's container stopped, a PUT answered "
                    + refused.statusCode() + " in " + millis + " ms");
            assertThat(refused.statusCode()).as("a write while PostgreSQL is down: %s", refused.body())
                    .isEqualTo(503);
            assertThat(refused.headers().firstValue("Retry-After")).isPresent();
            assertThat(millis).as("refused within a second").isLessThan(1_000);
        } finally {
            cluster.start("postgres");
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        int status;
        do { // 201, or 204 when an earlier try stored the object but was not confirmed
            status = send("/images/compose/pg/after.gif", "PUT", GIF, Map.of()).statusCode();
        } while (status != 201 && status != 204 && System.nanoTime() < end && sleep(1_000));
        assertThat(status).as("a write once PostgreSQL is back").isIn(201, 204);
    }

    @Test
    @Order(5)
    void theNodesLogInAsARoleThatOwnsItsDatabaseAndIsNoSuperuser() throws Exception {
        assertThat(cluster.queryOne("select rolsuper from pg_roles where rolname = '" + ComposeCluster.NODE_ROLE
                + "'")).isEqualTo("f");
        assertThat(cluster.queryOne("select pg_get_userbyid(datdba) from pg_database where datname = '"
                + ComposeCluster.DATABASE + "'")).isEqualTo(ComposeCluster.NODE_ROLE);
        String held = cluster.queryOne("select count(*) from pg_stat_activity where usename = '"
                + ComposeCluster.NODE_ROLE + "'");
        System.out.println("DockerComposeIT: the three nodes hold " + held + " connections; images built in "
                + cluster.imageBuild().toSeconds() + " s, the cluster up in " + cluster.startup().toSeconds() + " s");
        assertThat(Integer.parseInt(held)).as("three nodes at medjava.db.max-connections=12")
                .isLessThanOrEqualTo(3 * 12);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** The upstream addresses nginx sent {@code method path} to, as its access log tells. */
    static Set<String> upstreams(String method, String path) throws IOException, InterruptedException {
        return upstreams(method, path, 0);
    }

    /** The same for the requests from the {@code from}th on. */
    static Set<String> upstreams(String method, String path, int from) throws IOException, InterruptedException {
        List<ComposeCluster.Request> requests = cluster.lbRequests();
        return requests.subList(from, requests.size()).stream()
                .filter(r -> r.method().equals(method) && r.path().equals(path))
                .flatMap(r -> Arrays.stream(r.upstream().split(",\\s*"))).collect(Collectors.toSet());
    }

    static HttpResponse<String> send(String path, String method, byte[] body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(lb(path)).timeout(REQUEST_TIMEOUT).header("Authorization", AUTH)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(r::header);
        return http.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<byte[]> getBytes(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(lb(path)).timeout(REQUEST_TIMEOUT).header("Authorization", AUTH)
                .build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static URI lb(String path) {
        return cluster.lb(path);
    }

    static boolean sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return true;
    }
}
