package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.json.Json;
import javax.json.JsonObject;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.testkit.store.StoreClient;

/** A CT series stored over HTTP, and the {@code /jobs} calls of the derive-series tests. */
final class SeriesJobs {

    private SeriesJobs() {
    }

    /**
     * Stores {@code count} copies of CT_small (16-bit) as one series of a study of its own (the series UID + ".0"),
     * under {@code /images/{directory}/}.
     */
    static void upload(StoreClient client, String directory, String series, int count) throws Exception {
        Path dir = Files.createTempDirectory("series-job");
        for (int n = 1; n <= count; n++) {
            Path file = TestDicom.ct().patient("SERIES-JOB", "Series^Job").study(series + ".0", "20240301")
                    .series(series, "CT", 5).instance(series + "." + n, n).writeTo(dir.resolve(n + ".dcm"));
            HttpResponse<String> r = client.put("/images/" + directory + "/" + n + ".dcm", file);
            assertThat(r.statusCode()).as(r.body()).isIn(201, 204);
        }
    }

    static HttpResponse<String> submit(StoreClient client, String series, String filter, String extra)
            throws Exception {
        String body = "{\"kind\":\"derive-series\",\"params\":{\"SeriesInstanceUID\":\"" + series + "\",\"filter\":\""
                + filter + "\"" + extra + "}}";
        return client.sendText(client.request("/jobs").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    static JsonObject job(StoreClient client, String id) throws Exception {
        HttpResponse<String> r = client.getJson("/jobs/" + id);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json(r.body());
    }

    /** Polls until the job has ended (or {@code until} holds), every 100 ms, for at most {@code limit}. */
    static JsonObject await(StoreClient client, String id, Duration limit,
                            java.util.function.Predicate<JsonObject> until) throws Exception {
        long end = System.nanoTime() + limit.toNanos();
        JsonObject j = job(client, id);
        while (!until.test(j) && !ended(j) && System.nanoTime() < end) {
            Thread.sleep(100);
            j = job(client, id);
        }
        return j;
    }

    static boolean ended(JsonObject job) {
        return java.util.List.of("DONE", "FAILED", "CANCELLED").contains(job.getString("state"));
    }

    static HttpResponse<String> cancel(StoreClient client, String id) throws Exception {
        return client.sendText(client.request("/jobs/" + id).DELETE());
    }
}
