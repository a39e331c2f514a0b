package org.medjava.store.testkit.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/** A thin HTTP client for the tests: one store, one set of credentials (or none). */
public final class StoreClient {

    private final PayaraStore store;
    private final String authorization;
    /** The JDK client's default, HTTP/2: on a connection's first GET an h2c upgrade, as the front must take it. */
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public StoreClient(PayaraStore store, String authorization) {
        this.store = store;
        this.authorization = authorization;
    }

    public static StoreClient admin(PayaraStore store) {
        return new StoreClient(store, PayaraStore.admin());
    }

    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(store.uri(path)).timeout(Duration.ofSeconds(60));
        return authorization == null ? b : b.header("Authorization", authorization);
    }

    public HttpResponse<byte[]> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    public HttpResponse<String> sendText(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sent without waiting, for tests that need several requests in flight at once. */
    public java.util.concurrent.CompletableFuture<HttpResponse<String>> sendAsyncText(HttpRequest.Builder request) {
        return http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
        return send(request(path));
    }

    public HttpResponse<String> getJson(String path) throws IOException, InterruptedException {
        return sendText(request(path).header("Accept", "application/json"));
    }

    public HttpResponse<String> put(String path, byte[] body) throws IOException, InterruptedException {
        return sendText(request(path).PUT(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    public HttpResponse<String> put(String path, Path file) throws IOException, InterruptedException {
        return sendText(request(path).PUT(HttpRequest.BodyPublishers.ofFile(file)));
    }

    /** A POST of a JSON body, as the REST endpoints (jobs, PACS retrieves and sends) take it. */
    public HttpResponse<String> postJson(String path, String json) throws IOException, InterruptedException {
        return sendText(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /**
     * As an administrator: makes (or replaces) the account {@code name} with {@code role} and the password
     * {@code <name>-pass-1}, and gives a client that logs in as it with HTTP Basic.
     */
    public StoreClient account(String name, String role) throws IOException, InterruptedException {
        HttpResponse<String> made = sendText(request("/admin/users/" + name).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"" + name + "-pass-1\",\"role\":\"" + role
                        + "\"}")));
        if (made.statusCode() != 201 && made.statusCode() != 204) {
            throw new IllegalStateException("account " + name + " not made: " + made.statusCode() + " " + made.body());
        }
        return new StoreClient(store, PayaraStore.basic(name, name + "-pass-1"));
    }

    /** {@code POST /jobs}: a job of {@code kind} with its parameters (strings, as the jobs take them). */
    public HttpResponse<String> submitJob(String kind, java.util.Map<String, String> params)
            throws IOException, InterruptedException {
        String body = "{\"kind\":\"" + quoted(kind) + "\",\"params\":{" + params.entrySet().stream()
                .map(e -> "\"" + quoted(e.getKey()) + "\":\"" + quoted(e.getValue()) + "\"")
                .collect(java.util.stream.Collectors.joining(",")) + "}}";
        return postJson("/jobs", body);
    }

    /** The job's status (JSON) once it has ended — DONE, FAILED or CANCELLED — or when {@code limit} has passed. */
    public String awaitJob(String id, Duration limit) throws IOException, InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        java.util.regex.Pattern ended = java.util.regex.Pattern.compile("\"state\"\\s*:\\s*\"(DONE|FAILED|CANCELLED)\"");
        String job = getJson("/jobs/" + id).body();
        while (!ended.matcher(job).find() && System.nanoTime() < end) {
            Thread.sleep(200);
            job = getJson("/jobs/" + id).body();
        }
        return job;
    }

    private static String quoted(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    public HttpResponse<String> delete(String path) throws IOException, InterruptedException {
        return sendText(request(path).DELETE());
    }

    /**
     * Sends a request line exactly as given (no client-side normalisation of {@code ..} or escapes) and returns
     * the status code: for the path-trick tests.
     */
    public int rawStatus(String method, String rawTarget) throws IOException {
        return rawStatus(method, rawTarget, method.equals("PUT") ? "Content-Length: 0\r\n" : "");
    }

    /**
     * The same with extra header lines (each ending in CRLF) and no body: the status the store answers before any
     * body arrives (a "100 Continue" interim answer is skipped).
     */
    public int rawStatus(String method, String rawTarget, String headers) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", store.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            String head = method + " " + rawTarget + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + (authorization == null ? "" : "Authorization: " + authorization + "\r\n")
                    + headers + "Connection: close\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            while (true) {
                String statusLine = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
                int status = Integer.parseInt(statusLine.substring(9, 12));
                if (status != 100) {
                    return status;
                }
                while (!readLine(in).isEmpty()) {
                    // the rest of the interim response
                }
            }
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    public URI uri(String path) {
        return store.uri(path);
    }
}
