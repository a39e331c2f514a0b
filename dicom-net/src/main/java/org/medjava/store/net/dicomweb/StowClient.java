package org.medjava.store.net.dicomweb;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonObject;
import javax.json.JsonReader;
import javax.json.JsonValue;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.route.RouteSender.Outcome;

/**
 * A STOW-RS client (PS3.18 10.5): one {@code multipart/related; type="application/dicom"} request for a batch of
 * Part 10 files, streamed from disk, and an outcome per instance from the answer's ReferencedSOPSequence and
 * FailedSOPSequence. A part refused as a duplicate (FailureReason 0111H: the receiver holds that SOP Instance UID)
 * counts as sent.
 */
public final class StowClient {
    /** FailureReason: the receiver holds an instance with this SOP Instance UID already. */
    static final int DUPLICATE = 0x0111;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * Stores {@code files} at {@code url} (a studies resource), with {@code authorization} as the Authorization
     * header when not null; the outcome of each by SOP Instance UID (failures included: nothing is thrown).
     */
    public Map<String, Outcome> store(URI url, String authorization, List<Part10File> files) {
        String boundary = MultipartWriter.newBoundary();
        List<HttpRequest.BodyPublisher> parts = new ArrayList<>();
        try {
            for (Part10File f : files) {
                parts.add(HttpRequest.BodyPublishers.ofByteArray(MultipartWriter.head(boundary, "application/dicom",
                        null)));
                parts.add(HttpRequest.BodyPublishers.ofFile(f.file()));
                parts.add(HttpRequest.BodyPublishers.ofByteArray(MultipartWriter.CRLF));
            }
        } catch (FileNotFoundException e) {
            return all(files, Outcome.failed("a prepared file is gone: " + e.getMessage()));
        }
        parts.add(HttpRequest.BodyPublishers.ofByteArray(MultipartWriter.close(boundary)));
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(TIMEOUT)
                .header("Content-Type", MultipartWriter.contentType("application/dicom", boundary))
                .header("Accept", "application/dicom+json")
                .POST(HttpRequest.BodyPublishers.concat(parts.toArray(HttpRequest.BodyPublisher[]::new)));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return all(files, Outcome.failed("cannot reach " + url + ": " + e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return all(files, Outcome.failed("interrupted while sending to " + url));
        }
        return outcomes(response.statusCode(), response.body(), files);
    }

    /** The outcome of each file from the receiver's answer. */
    static Map<String, Outcome> outcomes(int status, String body, List<Part10File> files) {
        JsonObject answer = parse(body);
        if (answer == null || !(status == 200 || status == 202 || status == 409)) {
            if (status == 200 || status == 204) {
                return all(files, Outcome.ok()); // success without the optional answer
            }
            String snippet = body == null ? "" : body.strip();
            return all(files, Outcome.failed("HTTP " + status + (snippet.isEmpty() ? "" : ": "
                    + snippet.substring(0, Math.min(200, snippet.length())))));
        }
        Map<String, Outcome> out = new HashMap<>();
        for (JsonObject item : items(answer, "00081199")) {
            String uid = value(item, "00081155");
            if (uid != null) {
                out.put(uid, Outcome.ok());
            }
        }
        for (JsonObject item : items(answer, "00081198")) {
            String uid = value(item, "00081155");
            String reason = value(item, "00081197");
            if (uid == null) {
                continue;
            }
            int code = reason == null ? -1 : Integer.parseInt(reason);
            out.put(uid, code == DUPLICATE ? Outcome.held("STOW-RS FailureReason 0111H")
                    : Outcome.failed("refused by the receiver (HTTP " + status + ", FailureReason "
                            + (code < 0 ? "none" : String.format("%04XH", code)) + ")"));
        }
        return out;
    }

    private static JsonObject parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try (JsonReader r = Json.createReader(new StringReader(body))) {
            JsonValue v = r.readValue();
            return v instanceof JsonObject o ? o : null;
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static List<JsonObject> items(JsonObject answer, String tag) {
        JsonObject element = answer.getJsonObject(tag);
        JsonArray value = element == null ? null : element.getJsonArray("Value");
        return value == null ? List.of() : value.getValuesAs(JsonObject.class);
    }

    private static String value(JsonObject item, String tag) {
        JsonObject element = item.getJsonObject(tag);
        JsonArray value = element == null ? null : element.getJsonArray("Value");
        if (value == null || value.isEmpty()) {
            return null;
        }
        JsonValue v = value.get(0);
        return v.getValueType() == JsonValue.ValueType.STRING ? value.getString(0) : v.toString();
    }

    private static Map<String, Outcome> all(List<Part10File> files, Outcome outcome) {
        Map<String, Outcome> out = new HashMap<>();
        files.forEach(f -> out.put(f.sopInstanceUid(), outcome));
        return out;
    }
}
