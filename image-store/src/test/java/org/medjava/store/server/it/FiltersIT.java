package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.filter.Raster;
import org.medjava.filter.testkit.PluginJarBuilder;
import org.medjava.filter.testkit.TestPublisher;
import org.medjava.store.core.testsupport.TestPlugins;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/** The filter repository: manifest, downloads, and hot install/replace/suspend/resume/remove in the running store. */
@ExtendWith(SharedStore.class)
class FiltersIT {

    static StoreClient admin;

    @BeforeAll
    static void connect() throws Exception {
        admin = StoreClient.admin(SharedStore.store());
        admin.put("/images/it/filters/ct.gif", Samples.bytes(Samples.gif("ct-small.gif")));
    }

    @Test
    void manifestListsTheEightPluginsWithFiltersParametersAndChecksums() throws Exception {
        HttpResponse<String> manifest = admin.getJson("/filters");
        assertThat(manifest.statusCode()).isEqualTo(200);
        for (String id : new String[] {"blur", "sharpen", "despeckle", "edge-detect", "emboss", "oil-paint",
                "pixelize", "spread"}) {
            assertThat(manifest.body()).contains("\"id\":\"" + id + "\"", "\"download\":\"/filters/");
        }
        assertThat(manifest.body()).contains("\"filterApiVersion\":\"" + org.medjava.filter.FilterApi.VERSION + "\"",
                "\"rule\":", "\"defaultValue\":", "\"label\":\"Strength (%)\"",
                "\"help\":\"How strongly edges are lifted"); // plain-language help, filter API 1.3

        HttpResponse<byte[]> jar = admin.get("/filters/blur.jar");
        assertThat(jar.statusCode()).isEqualTo(200);
        assertThat(jar.headers().firstValue("Content-Type").orElse("")).startsWith("application/java-archive");
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(jar.body()));
        assertThat(manifest.body()).contains("\"sha256\":\"" + sha + "\"");

        String etag = manifest.headers().firstValue("ETag").orElseThrow();
        assertThat(admin.send(admin.request("/filters").header("If-None-Match", etag)).statusCode()).isEqualTo(304);
        assertThat(admin.get("/filters/nothing.jar").statusCode()).isEqualTo(404);
        assertThat(admin.get("/filters/..%2Fusers.properties.jar").statusCode()).isIn(400, 404);
    }

    @Test
    void installsReplacesAndRemovesAPluginWithoutARestart(@TempDir Path dir) throws Exception {
        String render = "/images/it/filters/ct.gif?render=png&filter=fill";
        assertThat(admin.get(render).statusCode()).isEqualTo(400);

        HttpResponse<String> installed = admin.sendText(admin.request("/filters/it-fill.jar")
                .PUT(HttpRequest.BodyPublishers.ofFile(TestPlugins.fill(dir.resolve("v1.jar"), 10))));
        assertThat(installed.statusCode()).as(installed.body()).isEqualTo(201);
        assertThat(installed.body()).contains("\"id\":\"it-fill\"", "\"version\":\"10\"");
        assertThat(pixel(admin.get(render).body())).isEqualTo(10);

        HttpResponse<String> replaced = admin.sendText(admin.request("/filters/it-fill.jar")
                .PUT(HttpRequest.BodyPublishers.ofFile(TestPlugins.fill(dir.resolve("v2.jar"), 20))));
        assertThat(replaced.statusCode()).isEqualTo(200);
        assertThat(pixel(admin.get(render).body())).isEqualTo(20);

        HttpResponse<String> broken = admin.sendText(admin.request("/filters/it-fill.jar")
                .PUT(HttpRequest.BodyPublishers.ofFile(PluginJarBuilder.garbage(dir.resolve("bad.jar"), "junk"))));
        assertThat(broken.statusCode()).isEqualTo(422);
        assertThat(broken.body()).contains("rejected", "stays active");
        assertThat(pixel(admin.get(render).body())).isEqualTo(20);
        byte[] served = admin.get("/filters/it-fill.jar").body();
        assertThat(served).isEqualTo(Files.readAllBytes(dir.resolve("v2.jar")));

        assertThat(admin.delete("/filters/it-fill.jar").statusCode()).isEqualTo(204);
        HttpResponse<byte[]> gone = admin.get(render);
        assertThat(gone.statusCode()).isEqualTo(400);
        assertThat(new String(gone.body())).contains("unknown filter", "blur");
        assertThat(admin.get("/filters/it-fill.jar").statusCode()).isEqualTo(404);
    }

    @Test
    void onlyPluginsSignedByATrustedPublisherAreInstalled(@TempDir Path dir) throws Exception {
        Path signed = TestPlugins.fill(dir.resolve("signed.jar"), 30);
        Path unsigned = rewrite(signed, dir.resolve("unsigned.jar"), (name, bytes) ->
                name.matches("META-INF/[^/]+\\.(SF|EC|RSA|DSA)") ? null : bytes);
        Path tampered = rewrite(signed, dir.resolve("tampered.jar"), (name, bytes) -> {
            if (name.endsWith("Provider.class")) {
                bytes[bytes.length - 1] ^= 1;
            }
            return bytes;
        });
        TestPublisher stranger = TestPublisher.create("CN=Not trusted by the store");
        Path untrusted = stranger.sign(Files.copy(unsigned, dir.resolve("untrusted.jar")));

        for (Path jar : new Path[] {unsigned, tampered, untrusted}) {
            HttpResponse<String> refused = admin.sendText(admin.request("/filters/it-fill.jar")
                    .PUT(HttpRequest.BodyPublishers.ofFile(jar)));
            assertThat(refused.statusCode()).as(jar + ": " + refused.body()).isEqualTo(422);
            assertThat(refused.body()).contains("plugin it-fill rejected");
        }
        assertThat(admin.sendText(admin.request("/filters/it-fill.jar").PUT(HttpRequest.BodyPublishers.ofFile(
                unsigned))).body()).contains("the JAR is not signed");
        assertThat(admin.sendText(admin.request("/filters/it-fill.jar").PUT(HttpRequest.BodyPublishers.ofFile(
                tampered))).body()).contains("changed after it was signed", "Provider.class");
        assertThat(admin.sendText(admin.request("/filters/it-fill.jar").PUT(HttpRequest.BodyPublishers.ofFile(
                untrusted))).body()).contains("CN=Not trusted by the store", "does not trust");
        assertThat(admin.getJson("/filters").body()).doesNotContain("it-fill");

        HttpResponse<String> installed = admin.sendText(admin.request("/filters/it-fill.jar")
                .PUT(HttpRequest.BodyPublishers.ofFile(signed)));
        assertThat(installed.statusCode()).as(installed.body()).isEqualTo(201);
        assertThat(pixel(admin.get("/images/it/filters/ct.gif?render=png&filter=fill").body())).isEqualTo(30);
        assertThat(admin.delete("/filters/it-fill.jar").statusCode()).isEqualTo(204);
    }

    interface EntryChange {
        byte[] apply(String name, byte[] bytes); // null: leave the entry out
    }

    private static Path rewrite(Path from, Path to, EntryChange change) throws java.io.IOException {
        try (ZipFile in = new ZipFile(from.toFile());
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(to))) {
            for (ZipEntry entry : java.util.Collections.list(in.entries())) {
                byte[] bytes = change.apply(entry.getName(), in.getInputStream(entry).readAllBytes());
                if (bytes != null) {
                    out.putNextEntry(new ZipEntry(entry.getName()));
                    out.write(bytes);
                    out.closeEntry();
                }
            }
        }
        return to;
    }

    @Test
    void aBrokenNewPluginIsRejectedAndLeavesNothingBehind(@TempDir Path dir) throws Exception {
        HttpResponse<String> broken = admin.sendText(admin.request("/filters/it-broken.jar")
                .PUT(HttpRequest.BodyPublishers.ofFile(PluginJarBuilder.plugin("it-broken").build(dir.resolve("b.jar")))));
        assertThat(broken.statusCode()).isEqualTo(422);
        assertThat(broken.body()).contains("it-broken");
        assertThat(admin.getJson("/filters").body()).doesNotContain("it-broken");
        assertThat(admin.get("/filters/it-broken.jar").statusCode()).isEqualTo(404);
    }

    @Test
    void suspendedPluginsRefuseToRunUntilResumed() throws Exception {
        String render = "/images/it/filters/ct.gif?render=png&filter=pixelize:block=4";
        assertThat(admin.get(render).statusCode()).isEqualTo(200);
        HttpResponse<String> suspended = admin.sendText(admin.request("/filters/pixelize/suspend")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(suspended.statusCode()).isEqualTo(200);
        assertThat(suspended.body()).contains("SUSPENDED");
        HttpResponse<byte[]> refused = admin.get(render);
        assertThat(refused.statusCode()).isEqualTo(409);
        assertThat(new String(refused.body())).contains("suspended");
        assertThat(admin.sendText(admin.request("/filters/pixelize/resume")
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(200);
        assertThat(admin.get(render).statusCode()).isEqualTo(200);
        assertThat(admin.sendText(admin.request("/filters/no-such/suspend")
                .POST(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(404);
    }

    private static int pixel(byte[] png) throws Exception {
        Raster r = ImageCodec.read(png);
        return r.rgb()[0] & 0xff;
    }
}
