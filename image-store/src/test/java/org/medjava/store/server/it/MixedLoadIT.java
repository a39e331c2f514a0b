package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.core.testsupport.HostileBodies;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.http.MixedLoad;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * 50 connections for 60 s ({@code -Dmedjava.load.connections}, {@code -Dmedjava.load.seconds}) of mixed traffic on
 * a store of its own: small downloads, renderings (with and without a filter), index and QIDO queries, listings,
 * PUTs and STOW-RS. No 5xx, no socket error, every answer the expected one; p50/p99 per kind in the test output.
 */
class MixedLoadIT {

    private static final int CONNECTIONS = Integer.getInteger("medjava.load.connections", 50);
    private static final int SECONDS = Integer.getInteger("medjava.load.seconds", 60);
    private static final byte[] CT = Samples.bytes(Samples.dicom("CT_small.dcm"));
    private static final byte[] MR = Samples.bytes(Samples.dicom("MR_small.dcm"));
    private static final byte[] GIF = Samples.bytes(Samples.gif("ct-small.gif"));
    private static final byte[] PNG = HostileBodies.png(256, 256);

    private static PayaraStore store;

    @BeforeAll
    static void start() throws Exception {
        store = PayaraStore.named("load").seedPlugins().heap("1g")
                .property("medjava.dicom.duplicate-policy", "replace").start();
        StoreClient admin = StoreClient.admin(store);
        for (String[] f : new String[][] {{"load/ct.dcm", "ct"}, {"load/mr.dcm", "mr"}, {"load/a.gif", "gif"}}) {
            byte[] body = f[1].equals("ct") ? CT : f[1].equals("mr") ? MR : GIF;
            assertThat(admin.put("/images/" + f[0], body).statusCode()).isEqualTo(201);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    @Test
    @Timeout(value = 30, unit = java.util.concurrent.TimeUnit.MINUTES) // medjava.load.seconds may be long
    void fiftyConnectionsOfMixedTrafficWithoutAnError() throws Exception {
        String auth = PayaraStore.admin();
        String boundary = "LOAD15";
        byte[] stow = Multipart.dicom(boundary, List.of(CT, MR));
        Set<Integer> ok200 = Set.of(200);
        List<MixedLoad.Kind> kinds = List.of(
                new MixedLoad.Kind("small GET", 30, ok200, n -> get("/images/load/" + (n % 2 == 0 ? "ct.dcm"
                        : "a.gif"), auth)),
                new MixedLoad.Kind("render", 10, ok200, n -> get("/images/load/" + (n % 2 == 0
                        ? "ct.dcm?render=png&window=40," + (300 + n % 7) : "a.gif?render=png&x=" + n % 5), auth)),
                new MixedLoad.Kind("render+filter", 5, ok200, n -> get("/images/load/a.gif?render=png&filter=blur:n="
                        + (3 + 2 * (n % 3)), auth)),
                new MixedLoad.Kind("index", 10, ok200, n -> get("/index/studies?limit=20", auth)),
                new MixedLoad.Kind("QIDO", 10, ok200, n -> get(n % 2 == 0 ? "/dicomweb/studies?limit=20"
                        : "/dicomweb/instances?limit=20", auth)),
                new MixedLoad.Kind("listing", 5, ok200, n -> HttpRequest.newBuilder(uri("/images/load/"))
                        .header("Authorization", auth).header("Accept", "application/json")
                        .timeout(Duration.ofSeconds(60)).build()),
                new MixedLoad.Kind("PUT", 20, Set.of(201, 204), n -> HttpRequest.newBuilder(
                        uri("/images/load/put/" + (n / 1_000_000) + "-" + (n % 8) + (n % 3 == 0 ? ".dcm"
                                : n % 3 == 1 ? ".gif" : ".png")))
                        .header("Authorization", auth).header("Content-Type", "application/octet-stream")
                        .timeout(Duration.ofSeconds(60))
                        .PUT(HttpRequest.BodyPublishers.ofByteArray(n % 3 == 0 ? CT : n % 3 == 1 ? GIF : PNG))
                        .build()),
                new MixedLoad.Kind("STOW", 10, ok200, n -> HttpRequest.newBuilder(uri("/dicomweb/studies"))
                        .header("Authorization", auth).header("Accept", "application/dicom+json")
                        .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + boundary)
                        .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofByteArray(stow)).build()));

        MixedLoad.Result result = MixedLoad.run(CONNECTIONS, Duration.ofSeconds(SECONDS), kinds);

        System.out.println("MixedLoadIT: " + CONNECTIONS + " connections, " + result.report());
        assertThat(result.failures()).as(result.report()).isEmpty();
        assertThat(result.serverErrors()).as("5xx").isZero();
        assertThat(result.all().socketErrors()).as("socket errors").isZero();
        assertThat(result.all().requests()).as("requests answered").isGreaterThan(CONNECTIONS);
        assertThat(store.isAlive()).isTrue();
    }

    private static HttpRequest get(String path, String auth) {
        return HttpRequest.newBuilder(uri(path)).header("Authorization", auth).timeout(Duration.ofSeconds(60)).build();
    }

    private static URI uri(String path) {
        return store.uri(path);
    }
}
