package org.medjava.bench.transport;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Timed PUT and GET of one file against the image store, with the JDK's HTTP client. */
public final class StoreHttp {
    private final StoreServer server;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    public StoreHttp(StoreServer server) {
        this.server = server;
    }

    /** Uploads {@code file} to {@code /images/<path>}; returns seconds until the store answered 201/204. */
    public Transfer.Result put(String path, Path file) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(server.uri("/images/" + path))
                .header("Authorization", server.authorization()).header("Content-Type", "application/dicom")
                .timeout(Duration.ofMinutes(10)).PUT(HttpRequest.BodyPublishers.ofFile(file)).build();
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (r.statusCode() != 201 && r.statusCode() != 204) {
            throw new IOException("PUT " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return new Transfer.Result(Files.size(file), seconds);
    }

    /** Downloads {@code /images/<path>} into a discarding buffer; returns the bytes read and the seconds. */
    public Transfer.Result get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(server.uri("/images/" + path))
                .header("Authorization", server.authorization()).timeout(Duration.ofMinutes(10)).GET().build();
        long t0 = System.nanoTime();
        HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        long bytes = 0;
        try (InputStream in = r.body()) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                bytes += n;
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + r.statusCode());
        }
        return new Transfer.Result(bytes, seconds);
    }
}
