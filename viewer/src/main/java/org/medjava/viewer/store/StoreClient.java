package org.medjava.viewer.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;

/**
 * The viewer's only way to the image store: HTTP with the login's Authorization (Basic, or a single sign-on's Bearer
 * token, renewed once after a 401) sent with every request. Blocking calls,
 * made from worker threads, never from the event thread. Refusals become {@link StoreException}s with the status and
 * the store's own message; an unreachable store is a StoreException with status 0.
 */
public final class StoreClient {
    static {
        // Payara closes idle connections after 30 s; the JDK client would keep them 20 min and then send a PUT into a
        // closed one ("header parser received no bytes"), which it does not retry. Drop idle connections first.
        System.getProperties().putIfAbsent("jdk.httpclient.keepalive.timeout", "10");
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SHORT = Duration.ofSeconds(30);
    private static final int CHUNK = 1 << 16;

    private final URI base;
    private final StoreLogin login;
    private final HttpClient http;

    public StoreClient(URI base, StoreLogin login) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.login = login;
        // HTTP/1.1: the store speaks h2c too, but its refusals of a PUT with a body reset HTTP/2 streams
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    /** Parses a URL typed by a person: adds http:// when no scheme is given, refuses anything but http(s). */
    public static URI parseServer(String text) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("enter the store's URL, e.g. http://localhost:8080");
        }
        if (!t.contains("://")) {
            t = "http://" + t;
        }
        URI uri;
        try {
            uri = URI.create(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + text + "\" is not a URL: " + e.getMessage(), e);
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("\"" + text + "\" is not an http:// or https:// URL with a host");
        }
        return uri;
    }

    public URI base() {
        return base;
    }

    public String user() {
        return login.user();
    }

    /** The store path's URL: each segment percent-encoded. */
    public URI imageUri(String path) {
        StringBuilder b = new StringBuilder(base.toString()).append("/images/");
        String[] segments = path.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                b.append('/');
            }
            b.append(URLEncoder.encode(segments[i], StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return URI.create(b.toString());
    }

    // ------------------------------------------------------------------ images

    /** The listing of directory {@code dir} ("" for the top, else ending with '/'). */
    public Listing list(String dir) throws IOException {
        JsonNode json = getJson(imageUri(dir), "list " + display(dir));
        List<Listing.Entry> entries = new ArrayList<>();
        for (JsonNode e : json.path("entries")) {
            boolean directory = "directory".equals(e.path("kind").asText());
            entries.add(new Listing.Entry(e.path("name").asText(), directory, e.path("size").asLong(0),
                    text(e, "contentType"), directory ? "" : dicomSummary(e.path("dicom"))));
        }
        return new Listing(dir, entries);
    }

    private static String dicomSummary(JsonNode d) {
        if (d.isMissingNode() || d.isNull()) {
            return "";
        }
        List<String> parts = new ArrayList<>();
        for (String key : List.of("Modality", "StudyDate", "SeriesDescription")) {
            String v = text(d, key);
            if (!v.isBlank()) {
                parts.add(v);
            }
        }
        if (d.hasNonNull("Columns") && d.hasNonNull("Rows")) {
            parts.add(d.get("Columns").asInt() + "×" + d.get("Rows").asInt());
        }
        if (d.path("NumberOfFrames").asInt(1) > 1) {
            parts.add(d.get("NumberOfFrames").asInt() + " frames");
        }
        return String.join(" · ", parts);
    }

    /** Downloads a file, reporting progress; throws {@link CancellationException} when the user cancels. */
    public Download download(String path, Progress progress) throws IOException {
        HttpResponse<InputStream> response = send(request(imageUri(path)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream(), "download " + path);
        try (InputStream in = response.body()) {
            check(response.statusCode(), in, "download " + path);
            long total = response.headers().firstValueAsLong("Content-Length").orElse(-1);
            byte[] bytes = readAll(in, total, progress);
            return new Download(bytes, response.headers().firstValue("ETag").orElse(null),
                    response.headers().firstValue("Content-Type").orElse("application/octet-stream"));
        }
    }

    /** The store's own PNG rendering of a file (DICOM through its default window): for cheap thumbnails. */
    public byte[] renderPng(String path) throws IOException {
        URI uri = URI.create(imageUri(path) + "?render=png");
        HttpResponse<InputStream> response = send(request(uri).timeout(SHORT).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream(), "preview " + path);
        try (InputStream in = response.body()) {
            check(response.statusCode(), in, "preview " + path);
            return in.readAllBytes();
        }
    }

    /** What a PUT may require of the file already stored. */
    public sealed interface Precondition {
        /** Overwrite whatever is there. */
        record None() implements Precondition {
        }

        /** Only if the stored file still has this ETag (it was not changed since it was downloaded). */
        record IfMatch(String etag) implements Precondition {
        }

        /** Only if no file of that name exists. */
        record IfAbsent() implements Precondition {
        }
    }

    /**
     * Uploads {@code body} to {@code path}.
     *
     * @return the stored file's new ETag
     */
    public String put(String path, byte[] body, String contentType, Precondition precondition, Progress progress)
            throws IOException {
        HttpRequest.BodyPublisher publisher = HttpRequest.BodyPublishers.fromPublisher(
                HttpRequest.BodyPublishers.ofInputStream(() -> new CountingInputStream(body, progress)), body.length);
        // Expect: 100-continue lets the store refuse (401, 403, 412, 413, 415) from the headers alone; otherwise the
        // client would keep sending a body the store no longer reads, and hang
        HttpRequest.Builder b = request(imageUri(path)).header("Content-Type", contentType).expectContinue(true)
                .PUT(publisher);
        if (precondition instanceof Precondition.IfMatch m && m.etag() != null) {
            b.header("If-Match", m.etag());
        } else if (precondition instanceof Precondition.IfAbsent) {
            b.header("If-None-Match", "*");
        }
        HttpResponse<InputStream> response = send(b.build(), HttpResponse.BodyHandlers.ofInputStream(),
                "upload " + path);
        try (InputStream in = response.body()) {
            check(response.statusCode(), in, "upload " + path);
            in.readAllBytes();
        }
        return response.headers().firstValue("ETag").orElse(null);
    }

    /** The current ETag of a stored file, or null when there is none. */
    public String etag(String path) throws IOException {
        HttpResponse<InputStream> response = send(request(imageUri(path)).method("HEAD",
                HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofInputStream(), "check " + path);
        try (InputStream in = response.body()) {
            if (response.statusCode() == 404) {
                return null;
            }
            check(response.statusCode(), in, "check " + path);
            return response.headers().firstValue("ETag").orElse(null);
        }
    }

    // ------------------------------------------------------------------ index

    /** Studies matching DICOM keyword {@code keys} (PS3.4 matching: wildcards, date ranges). */
    public List<IndexRows.Study> studies(Map<String, String> keys) throws IOException {
        JsonNode json = getJson(indexUri("/index/studies", keys), "search studies");
        List<IndexRows.Study> rows = new ArrayList<>();
        for (JsonNode s : json) {
            List<String> modalities = new ArrayList<>();
            s.path("ModalitiesInStudy").forEach(m -> modalities.add(m.asText()));
            rows.add(new IndexRows.Study(text(s, "PatientID"), text(s, "PatientName"), text(s, "StudyInstanceUID"),
                    text(s, "StudyDate"), text(s, "StudyDescription"), modalities,
                    s.path("NumberOfStudyRelatedSeries").asLong(), s.path("NumberOfStudyRelatedInstances").asLong()));
        }
        return rows;
    }

    public List<IndexRows.Series> series(String studyInstanceUid) throws IOException {
        JsonNode json = getJson(indexUri("/index/studies/" + encode(studyInstanceUid) + "/series", Map.of()),
                "list series");
        List<IndexRows.Series> rows = new ArrayList<>();
        for (JsonNode s : json) {
            rows.add(new IndexRows.Series(text(s, "SeriesInstanceUID"), text(s, "Modality"), integer(s, "SeriesNumber"),
                    text(s, "SeriesDescription"), s.path("NumberOfSeriesRelatedInstances").asLong()));
        }
        return rows;
    }

    public List<IndexRows.Instance> instances(String seriesInstanceUid) throws IOException {
        JsonNode json = getJson(indexUri("/index/series/" + encode(seriesInstanceUid) + "/instances", Map.of()),
                "list instances");
        List<IndexRows.Instance> rows = new ArrayList<>();
        for (JsonNode s : json) {
            rows.add(new IndexRows.Instance(text(s, "path"), integer(s, "InstanceNumber"), text(s, "SOPInstanceUID"),
                    integer(s, "Columns"), integer(s, "Rows"), integer(s, "NumberOfFrames")));
        }
        return rows;
    }

    /**
     * The instances of a series with what orders them as a stack: the index's paths, Instance Numbers and frame
     * counts, joined by SOP Instance UID with ImagePositionPatient and ImageOrientationPatient from QIDO-RS
     * ({@code includefield}, read from the stored headers). When QIDO cannot say (an older store), the slices come
     * without geometry and Instance Numbers order them.
     */
    public List<SliceInfo> seriesSlices(String studyInstanceUid, String seriesInstanceUid)
            throws IOException {
        Map<String, double[][]> geometry = new java.util.HashMap<>();
        try {
            JsonNode qido = getJson(URI.create(base + "/dicomweb/studies/" + encode(studyInstanceUid) + "/series/"
                    + encode(seriesInstanceUid) + "/instances?includefield=ImagePositionPatient"
                    + "&includefield=ImageOrientationPatient"), "read the series' slice positions");
            for (JsonNode i : qido) {
                String sop = i.path("00080018").path("Value").path(0).asText("");
                geometry.put(sop, new double[][] {numbers(i.path("00200032")), numbers(i.path("00200037"))});
            }
        } catch (StoreException e) {
            if (e.status() == 401 || e.unreachable()) {
                throw e;
            }
            // no geometry: InstanceNumber orders
        }
        List<SliceInfo> slices = new ArrayList<>();
        for (IndexRows.Instance i : instances(seriesInstanceUid)) {
            double[][] g = geometry.getOrDefault(i.sopInstanceUid(), new double[2][]);
            slices.add(new SliceInfo(i.path(), i.sopInstanceUid(), i.instanceNumber(),
                    g[0], g[1], i.frames() == null ? 1 : i.frames()));
        }
        return slices;
    }

    /** A DICOM JSON attribute's numeric values, or null. */
    private static double[] numbers(JsonNode attribute) {
        JsonNode values = attribute.path("Value");
        if (!values.isArray() || values.isEmpty()) {
            return null;
        }
        double[] out = new double[values.size()];
        for (int k = 0; k < out.length; k++) {
            JsonNode v = values.get(k);
            if (v.isNumber()) {
                out[k] = v.asDouble();
            } else {
                try {
                    out[k] = Double.parseDouble(v.asText().trim());
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return out;
    }

    /** A series' thumbnail as PNG, at most 96×96: the store renders its middle image by Instance Number. */
    public byte[] seriesThumbnail(String studyInstanceUid, String seriesInstanceUid) throws IOException {
        URI uri = URI.create(base + "/dicomweb/studies/" + encode(studyInstanceUid) + "/series/"
                + encode(seriesInstanceUid) + "/thumbnail?viewport=96,96");
        HttpResponse<InputStream> response = send(request(uri).timeout(SHORT).header("Accept", "image/png").GET()
                .build(), HttpResponse.BodyHandlers.ofInputStream(), "series thumbnail");
        try (InputStream in = response.body()) {
            check(response.statusCode(), in, "series thumbnail");
            return in.readAllBytes();
        }
    }

    private URI indexUri(String path, Map<String, String> keys) {
        StringBuilder b = new StringBuilder(base.toString()).append(path);
        char sep = '?';
        for (Map.Entry<String, String> k : new LinkedHashMap<>(keys).entrySet()) {
            b.append(sep).append(encode(k.getKey())).append('=').append(encode(k.getValue()));
            sep = '&';
        }
        return URI.create(b.toString());
    }

    // ------------------------------------------------------------------ filter repository

    /** The manifest, or null when it still has ETag {@code ifNoneMatch} (304). */
    public Manifest manifest(String ifNoneMatch) throws IOException {
        HttpRequest.Builder b = request(URI.create(base + "/filters")).timeout(SHORT).header("Accept",
                "application/json");
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        HttpResponse<InputStream> response = send(b.build(), HttpResponse.BodyHandlers.ofInputStream(),
                "read the filter manifest");
        try (InputStream in = response.body()) {
            if (response.statusCode() == 304) {
                return null;
            }
            check(response.statusCode(), in, "read the filter manifest");
            return parseManifest(JSON.readTree(in), response.headers().firstValue("ETag").orElse(null));
        }
    }

    static Manifest parseManifest(JsonNode json, String etag) {
        List<Manifest.Plugin> plugins = new ArrayList<>();
        for (JsonNode p : json.path("plugins")) {
            List<Manifest.FilterState> filters = new ArrayList<>();
            p.path("filters").forEach(f -> filters.add(new Manifest.FilterState(text(f, "id"), text(f, "state"))));
            plugins.add(new Manifest.Plugin(text(p, "id"), text(p, "version"), text(p, "state"), text(p, "sha256"),
                    text(p, "download"), filters));
        }
        return new Manifest(etag, plugins);
    }

    /** Downloads a plugin JAR from the manifest's link (relative to the store). */
    public byte[] downloadPlugin(String link) throws IOException {
        URI uri = link.startsWith("http://") || link.startsWith("https://") ? URI.create(link)
                : URI.create(base + (link.startsWith("/") ? link : "/" + link));
        HttpResponse<InputStream> response = send(request(uri).GET().build(), HttpResponse.BodyHandlers.ofInputStream(),
                "download plugin " + link);
        try (InputStream in = response.body()) {
            check(response.statusCode(), in, "download plugin " + link);
            return in.readAllBytes();
        }
    }

    // ------------------------------------------------------------------ jobs

    /**
     * Submits a background job ({@code POST /jobs}). Refusals before queueing (400 bad parameters, 404, 413, 422)
     * are StoreExceptions whose message is the store's explanation.
     */
    public Job submitJob(String kind, Map<String, String> params) throws IOException {
        var body = JSON.createObjectNode().put("kind", kind);
        var p = body.putObject("params");
        params.forEach(p::put);
        String what = "start the " + kind + " job";
        HttpResponse<InputStream> response = send(request(URI.create(base + "/jobs")).timeout(SHORT)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body))).build(),
                HttpResponse.BodyHandlers.ofInputStream(), what);
        try (InputStream in = response.body()) {
            try {
                check(response.statusCode(), in, what);
            } catch (StoreException e) {
                int status = e.status();
                if ((status == 400 || status == 404 || status == 413 || status == 422)
                        && !e.serverMessage().isBlank()) {
                    // the store's own words say what is wrong with this request; the generic upload texts do not
                    throw new StoreException(status, "the store refused to " + what + " (" + status + "): "
                            + e.serverMessage(), e.serverMessage());
                }
                throw e;
            }
            return Job.parse(JSON.readTree(in));
        }
    }

    /** A job's state and progress ({@code GET /jobs/{id}}). */
    public Job job(String id) throws IOException {
        return Job.parse(getJson(URI.create(base + "/jobs/" + encode(id)), "read job " + id));
    }

    /**
     * Asks the store to cancel a job ({@code DELETE /jobs/{id}}): a queued one ends CANCELLED at once, a running one
     * at its next progress report (follow {@link #job}). 409 when it had ended already.
     */
    public Job cancelJob(String id) throws IOException {
        String what = "cancel job " + id;
        HttpResponse<InputStream> response = send(request(URI.create(base + "/jobs/" + encode(id))).timeout(SHORT)
                .header("Accept", "application/json").DELETE().build(), HttpResponse.BodyHandlers.ofInputStream(),
                what);
        try (InputStream in = response.body()) {
            check(response.statusCode(), in, what);
            return Job.parse(JSON.readTree(in));
        }
    }

    // ------------------------------------------------------------------ plumbing

    private HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri);
    }

    private JsonNode getJson(URI uri, String what) throws IOException {
        HttpResponse<InputStream> response = send(request(uri).timeout(SHORT).header("Accept", "application/json")
                .GET().build(), HttpResponse.BodyHandlers.ofInputStream(), what);
        try (InputStream in = response.body()) {
            check(response.statusCode(), in, what);
            return JSON.readTree(in);
        }
    }

    private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, String what)
            throws IOException {
        try {
            HttpResponse<T> response = http.send(authorized(request), handler);
            if (response.statusCode() == 401 && login.renew()) {
                discard(response);
                response = http.send(authorized(request), handler);
            }
            return response;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException(what + " cancelled");
        } catch (StoreException e) {
            throw e; // the login's own refusal (a single sign-on that ended): its message says what to do
        } catch (IOException e) {
            throw new StoreException("cannot " + what + ": the store at " + base + " is not reachable ("
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + "); check the connection and retry", e);
        }
    }

    /** The request with the login's current Authorization (a token may have been refreshed since it was built). */
    private HttpRequest authorized(HttpRequest request) throws IOException {
        return HttpRequest.newBuilder(request, (name, value) -> !name.equalsIgnoreCase("Authorization"))
                .header("Authorization", login.authorization()).build();
    }

    private static void discard(HttpResponse<?> response) throws IOException {
        if (response.body() instanceof InputStream in) {
            in.close();
        }
    }

    private void check(int status, InputStream body, String what) throws IOException {
        if (status < 400) {
            return;
        }
        String serverMessage = "";
        try {
            byte[] bytes = body.readNBytes(16 * 1024);
            JsonNode json = JSON.readTree(bytes);
            serverMessage = json == null ? "" : text(json, "message");
        } catch (IOException | RuntimeException e) {
            // not the store's JSON error: the status says enough
        }
        throw new StoreException(status, "cannot " + what + ": " + explain(status)
                + (serverMessage.isBlank() ? "" : " (" + serverMessage + ")"), serverMessage);
    }

    /** What a status means to the person using the viewer. */
    public static String explain(int status) {
        return switch (status) {
            case 401 -> "the store did not accept the login (401); log in again";
            case 403 -> "your account lacks the role for this (403)";
            case 404 -> "not found on the store (404)";
            case 409 -> "conflict on the store (409)";
            case 412 -> "the file changed on the store since it was downloaded (412)";
            case 413 -> "too large for the store's upload limit (413)";
            case 415 -> "the store does not accept this type of file (415)";
            case 422 -> "the store could not decode the file (422)";
            default -> status >= 500 ? "the store failed (" + status + "); retry later" : "refused (" + status + ")";
        };
    }

    private static byte[] readAll(InputStream in, long total, Progress progress) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(total > 0 && total < Integer.MAX_VALUE ? (int) total
                : CHUNK);
        byte[] buffer = new byte[CHUNK];
        long done = 0;
        int n;
        while ((n = in.read(buffer)) > 0) {
            if (progress.cancelled()) {
                throw new CancellationException("download cancelled");
            }
            out.write(buffer, 0, n);
            done += n;
            progress.update(done, total);
        }
        return out.toByteArray();
    }

    private static String display(String dir) {
        return dir.isEmpty() ? "/" : dir;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }

    private static Integer integer(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asInt();
    }

    /** Reports upload progress as the HTTP client reads the body (cancelling interrupts the sending thread). */
    private static final class CountingInputStream extends ByteArrayInputStream {
        private final Progress progress;

        CountingInputStream(byte[] body, Progress progress) {
            super(body);
            this.progress = progress;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            int n = super.read(b, off, Math.min(len, CHUNK));
            if (n > 0) {
                progress.update(pos, count);
            }
            return n;
        }
    }
}
