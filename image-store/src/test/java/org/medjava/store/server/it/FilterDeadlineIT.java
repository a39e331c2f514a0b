package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.testkit.RunawayPlugins;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Bounded filter work on a real store: a plugin that never returns gets the deadline answer, is quarantined and
 * cannot exhaust the server; a client that hangs up frees its filter slot. The shared store runs with the default
 * settings (30 s deadline, as many slots as cores, which this JVM shares); requests ask for 2 s with timeout=.
 */
@ExtendWith(SharedStore.class)
class FilterDeadlineIT {
    private static final String IMAGE = "/images/it/deadline/ct.gif";
    /** The store's medjava.filters.max-concurrent default: its cores, the same machine as this JVM's. */
    private static final int SLOTS = Runtime.getRuntime().availableProcessors();

    static StoreClient admin;

    @BeforeAll
    static void connect() throws Exception {
        admin = StoreClient.admin(SharedStore.store());
        assertThat(admin.put(IMAGE, Samples.bytes(Samples.gif("ct-small.gif"))).statusCode()).isIn(201, 204);
    }

    @AfterAll
    static void tidy() throws Exception {
        admin.delete("/filters/it-hostile.jar");
        admin.delete("/filters/it-polite.jar");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRunawayPluginGetsTheDeadlineAnswerIsQuarantinedAndTheServerKeepsRendering(@TempDir Path dir)
            throws Exception {
        install("it-hostile", RunawayPlugins.hostile(dir.resolve("hostile.jar"), "it-hostile", "it-hang"));

        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 2 * SLOTS + 1; i++) { // more than the pool holds
            calls.add(admin.sendAsyncText(admin.request(IMAGE + "?render=png&filter=it-hang&timeout=2")));
        }
        int deadline = 0;
        int busy = 0;
        for (CompletableFuture<HttpResponse<String>> call : calls) {
            HttpResponse<String> r = call.get(40, TimeUnit.SECONDS);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
            if (r.body().contains("it-hang did not finish within the 2 s asked")) {
                deadline++;
            } else {
                assertThat(r.body()).contains("every filter slot is busy");
                assertThat(r.headers().firstValue("Retry-After")).isPresent();
                busy++;
            }
            assertThat(r.body()).doesNotContain("Exception", "Payara");
        }
        assertThat(deadline).as("deadline answers").isBetween(1, SLOTS);
        assertThat(busy).as("busy answers").isPositive();

        JsonObject plugin = plugin("it-hostile");
        assertThat(plugin.getString("state")).isEqualTo("FAILED");
        assertThat(plugin.getString("failure")).contains("quarantined", "it-hang", "ignored its cancellation");
        HttpResponse<String> refused = admin.sendText(admin.request(IMAGE + "?render=png&filter=it-hang"));
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);

        for (int i = 0; i < SLOTS + 1; i++) { // every slot serves again: the stuck threads no longer count
            HttpResponse<byte[]> blurred = admin.get(IMAGE + "?render=png&filter=blur");
            assertThat(blurred.statusCode()).isEqualTo(200);
        }
        assertThat(admin.delete("/filters/it-hostile.jar").statusCode()).isEqualTo(204);
        assertThat(admin.getJson("/filters").body()).doesNotContain("it-hostile");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aClientThatHangsUpFreesItsFilterSlot(@TempDir Path dir) throws Exception {
        install("it-polite", RunawayPlugins.honouring(dir.resolve("polite.jar"), "it-polite", "it-wait"));
        List<Socket> hangingUp = new ArrayList<>();
        for (int i = 0; i < SLOTS; i++) { // every slot taken by a filter that runs until cancelled (30 s deadline)
            hangingUp.add(rawGet(IMAGE + "?render=png&filter=it-wait"));
        }
        Thread.sleep(1000);
        HttpResponse<String> whileTaken = admin.sendText(admin.request(IMAGE + "?render=png&filter=blur"));
        assertThat(whileTaken.statusCode()).as(whileTaken.body()).isEqualTo(503);
        assertThat(whileTaken.headers().firstValue("Retry-After")).isPresent();

        for (Socket s : hangingUp) {
            s.close();
        }

        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); // far less than the 30 s deadline
        int status;
        do {
            status = admin.get(IMAGE + "?render=png&filter=blur").statusCode();
        } while (status != 200 && System.nanoTime() < until);
        assertThat(status).as("a render once the clients hung up").isEqualTo(200);
        assertThat(plugin("it-polite").getString("state")).isEqualTo("ACTIVE"); // it stopped when asked
        assertThat(admin.delete("/filters/it-polite.jar").statusCode()).isEqualTo(204);
    }

    private static void install(String id, Path jar) throws Exception {
        HttpResponse<String> installed = admin.sendText(admin.request("/filters/" + id + ".jar")
                .PUT(HttpRequest.BodyPublishers.ofFile(jar)));
        assertThat(installed.statusCode()).as(installed.body()).isIn(200, 201);
    }

    private static JsonObject plugin(String id) throws Exception {
        String body = admin.getJson("/filters").body();
        try (var reader = Json.createReader(new java.io.StringReader(body))) {
            JsonValue root = reader.readValue();
            var plugins = root.getValueType() == JsonValue.ValueType.ARRAY ? root.asJsonArray()
                    : root.asJsonObject().getJsonArray("plugins");
            return plugins.stream().map(JsonValue::asJsonObject).filter(p -> p.getString("id").equals(id))
                    .findFirst().orElseThrow(() -> new AssertionError("no plugin " + id + " in " + body));
        }
    }

    /** A GET sent on a socket the caller closes without reading: a client that hangs up. */
    private static Socket rawGet(String target) throws Exception {
        Socket socket = new Socket("127.0.0.1", SharedStore.store().port());
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + PayaraStore.admin()
                + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return socket;
    }
}
