package org.medjava.store.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.testsupport.ClusterHarness;
import org.medjava.store.testsupport.Nginx;
import org.medjava.store.testsupport.PayaraStore;
import org.medjava.store.testsupport.Samples;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Three store nodes behind nginx over one PostgreSQL and one S3Proxy ({@link ClusterHarness}), all real processes:
 * the cluster comes up, what is written through the load balancer is the same on every node, and the load balancer
 * hides a node killed with {@code kill -9} from idempotent requests until the node is back.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterSmokeIT {

    static final String PATH = "/images/cluster-smoke/ct.dcm";
    static final byte[] DICOM = Samples.bytes(Samples.dicom("CT_small.dcm"));
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    static ClusterHarness cluster;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    static String etag;

    @BeforeAll
    @Timeout(value = 400, unit = TimeUnit.SECONDS)
    static void start() throws Exception {
        cluster = ClusterHarness.nodes(3).start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    void everyNodeIsReadyAndTheLoadBalancerSpreadsRequests() throws Exception {
        for (int i = 1; i <= 3; i++) {
            HttpResponse<String> ready = get(cluster.nodeUri(i, "/health/ready"));
            assertThat(ready.statusCode()).as("node %d /health/ready: %s", i, ready.body()).isEqualTo(200);
        }
        Set<String> served = new HashSet<>();
        for (int n = 0; n < 9; n++) {
            HttpResponse<String> ready = get(cluster.lb("/health/ready"));
            assertThat(ready.statusCode()).isEqualTo(200);
            served.add(ready.headers().firstValue("X-Upstream").orElse("?"));
        }
        assertThat(served).as("round robin over the three nodes")
                .containsExactlyInAnyOrderElementsOf(cluster.nodes().stream().map(n -> "127.0.0.1:" + n.port())
                        .toList());
    }

    @Test
    @Order(2)
    void whatIsPutThroughTheLoadBalancerIsReadOnEveryNode() throws Exception {
        HttpResponse<String> put = http.send(request(cluster.lb(PATH))
                .PUT(HttpRequest.BodyPublishers.ofByteArray(DICOM)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as("PUT through the load balancer: %s", put.body()).isEqualTo(201);
        etag = put.headers().firstValue("ETag").orElse(null);
        System.out.println("ClusterSmokeIT: PUT served by " + put.headers().firstValue("X-Upstream").orElse("?")
                + ", ETag " + etag);

        for (int i = 1; i <= 3; i++) {
            HttpResponse<byte[]> got = getBytes(cluster.nodeUri(i, PATH));
            assertThat(got.statusCode()).as("GET from node %d", i).isEqualTo(200);
            assertThat(got.body()).as("the bytes from node %d", i).isEqualTo(DICOM);
            String tag = got.headers().firstValue("ETag").orElse(null);
            assertThat(tag).as("node %d's ETag", i).isNotNull();
            if (etag == null) {
                etag = tag;
            }
            assertThat(tag).as("node %d's ETag", i).isEqualTo(etag);
        }
        List<String> keys = cluster.s3().listObjectsV2(b -> b.bucket(cluster.bucket()).prefix(cluster.prefix() + "/"))
                .contents().stream().map(S3Object::key).toList();
        assertThat(keys).as("the object is in the shared bucket").anyMatch(k -> k.endsWith("cluster-smoke/ct.dcm"));
    }

    @Test
    @Order(3)
    void theLoadBalancerHidesAKilledNodeFromGets() throws Exception {
        String dead = "127.0.0.1:" + cluster.node(2).port();
        List<Sample> samples = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        long t0 = System.nanoTime();
        long killedAt = -1;
        // 1 s before the kill, then past nginx's fail_timeout, so that it tries the dead node again at least once
        long end = TimeUnit.SECONDS.toNanos(1 + Nginx.FAIL_TIMEOUT_SECONDS + 3);
        while (System.nanoTime() - t0 < end) {
            long now = System.nanoTime() - t0;
            if (killedAt < 0 && now >= TimeUnit.SECONDS.toNanos(1)) {
                cluster.kill(2);
                killedAt = System.nanoTime() - t0;
            }
            long start = System.nanoTime();
            try {
                HttpResponse<byte[]> r = getBytes(cluster.lb(PATH));
                long took = System.nanoTime() - start;
                String upstream = r.headers().firstValue("X-Upstream").orElse("?");
                samples.add(new Sample(start - t0, took, upstream, r.statusCode()));
                if (r.statusCode() != 200 || !java.util.Arrays.equals(r.body(), DICOM)) {
                    errors.add("HTTP " + r.statusCode() + " from " + upstream + " at " + ms(start - t0) + " ms");
                }
            } catch (IOException e) {
                errors.add(e + " at " + ms(start - t0) + " ms");
            }
        }
        long kill = killedAt;
        List<Sample> after = samples.stream().filter(s -> s.at >= kill).toList();
        List<Sample> triedDead = after.stream().filter(s -> s.upstream.contains(dead)).toList();
        long maxNormal = after.stream().filter(s -> !s.upstream.contains(dead)).mapToLong(s -> s.took).max()
                .orElse(0);
        System.out.printf("ClusterSmokeIT: kill -9 of node 2 (%s): %d GETs through the load balancer after the kill, "
                + "%d errors; %d of them met the dead node and were retried on another%s; the first %s ms after the "
                + "kill (from then on nginx left it out for %d s)%s; slowest GET %s ms otherwise%n", dead,
                after.size(), errors.size(), triedDead.size(),
                triedDead.isEmpty() ? "" : " (" + triedDead.stream().map(s -> s.upstream + " in " + ms(s.took)
                        + " ms").toList() + ")",
                triedDead.isEmpty() ? "-" : ms(triedDead.get(0).at - kill), Nginx.FAIL_TIMEOUT_SECONDS,
                triedDead.size() > 1 ? ", again " + ms(triedDead.get(1).at - kill) + " ms after the kill" : "",
                ms(maxNormal));
        assertThat(errors).as("errors through the load balancer while node 2 was dead").isEmpty();
        assertThat(after).as("GETs after the kill").hasSizeGreaterThan(10);
        assertThat(after.subList(after.size() / 2, after.size())).as("served by the live nodes")
                .allMatch(s -> s.status == 200);
    }

    @Test
    @Order(4)
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void theRestartedNodeServesAgain() throws Exception {
        long t0 = System.nanoTime();
        PayaraStore node2 = cluster.restart(2);
        System.out.printf("ClusterSmokeIT: node 2 restarted (same port %d, same data directory) in %.1f s%n",
                node2.port(), (System.nanoTime() - t0) / 1e9);
        assertThat(get(cluster.nodeUri(2, "/health/ready")).statusCode()).isEqualTo(200);
        HttpResponse<byte[]> got = getBytes(cluster.nodeUri(2, PATH));
        assertThat(got.statusCode()).isEqualTo(200);
        assertThat(got.body()).isEqualTo(DICOM);
        assertThat(got.headers().firstValue("ETag")).contains(etag);

        String back = "127.0.0.1:" + node2.port();
        Set<String> served = new HashSet<>();
        for (int n = 0; n < 9; n++) {
            HttpResponse<byte[]> r = getBytes(cluster.lb(PATH));
            assertThat(r.statusCode()).isEqualTo(200);
            served.add(r.headers().firstValue("X-Upstream").orElse("?"));
        }
        assertThat(served).as("the load balancer sends to node 2 again").contains(back);
    }

    record Sample(long at, long took, String upstream, int status) {
    }

    static HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).header("Authorization", PayaraStore.admin());
    }

    static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(request(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<byte[]> getBytes(URI uri) throws IOException, InterruptedException {
        return http.send(request(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String ms(long nanos) {
        return String.format("%.1f", nanos / 1e6);
    }
}
