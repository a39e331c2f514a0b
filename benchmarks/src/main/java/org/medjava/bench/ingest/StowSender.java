package org.medjava.bench.ingest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * STOW-RS with the JDK's HTTP client: one instance per request ({@code multipart/related; type="application/dicom"}),
 * the requests in turn over one HTTP/1.1 keep-alive connection, each timed from sending to the 200 answer. The
 * bodies are built before the first request, so the clock sees only the exchange.
 */
final class StowSender implements InstanceSender {
    private static final String BOUNDARY = "medjava-bench-ingest";

    private final URI studies;
    private final String authorization;

    StowSender(URI studies, String authorization) {
        this.studies = studies;
        this.authorization = authorization;
    }

    @Override
    public long[] send(List<Path> files) throws IOException, InterruptedException {
        List<HttpRequest> requests = new ArrayList<>(files.size());
        for (Path f : files) {
            requests.add(HttpRequest.newBuilder(studies).timeout(Duration.ofMinutes(1))
                    .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + BOUNDARY)
                    .header("Accept", "application/dicom+json").header("Authorization", authorization)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(part(Files.readAllBytes(f)))).build());
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        long[] nanos = new long[files.size()];
        for (int i = 0; i < requests.size(); i++) {
            long t0 = System.nanoTime();
            HttpResponse<String> r = http.send(requests.get(i), HttpResponse.BodyHandlers.ofString());
            nanos[i] = System.nanoTime() - t0;
            if (r.statusCode() != 200) {
                throw new IOException("STOW-RS to " + studies + " of " + files.get(i).getFileName() + " answered "
                        + r.statusCode() + ": " + r.body().strip());
            }
        }
        return nanos;
    }

    /** The file as the one part of a multipart/related body. */
    static byte[] part(byte[] file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 128);
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Type: application/dicom\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(file);
        out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }
}
