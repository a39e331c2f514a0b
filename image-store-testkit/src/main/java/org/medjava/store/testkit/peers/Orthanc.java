package org.medjava.store.testkit.peers;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.medjava.store.testkit.Ports;

/**
 * Orthanc (Debian packages orthanc, orthanc-dicomweb) as an independent PACS for the tests: its own configuration
 * and storage in a scratch directory, HTTP and DICOM on the given loopback ports (its HTTP server refuses remote
 * clients; Orthanc 1.10 has no option to bind its DICOM port to loopback), its DICOMweb plugin loaded, the store
 * known as a DICOM modality and as a DICOMweb server. Stopped by its PID.
 */
public final class Orthanc implements AutoCloseable {

    private static final List<Path> PLUGIN_CANDIDATES = List.of(
            Path.of("/usr/share/orthanc/plugins/libOrthancDicomWeb.so"), Path.of("/usr/lib/orthanc/libOrthancDicomWeb.so"));

    private final Process process;
    private final Path dir;
    private final int httpPort;

    private Orthanc(Process process, Path dir, int httpPort) {
        this.process = process;
        this.dir = dir;
        this.httpPort = httpPort;
    }

    /** Everything the configuration needs to know about the store. */
    public record Peer(String storeAe, int storeDicomPort, String storeDicomWebUrl, String user, String password) {
    }

    public static Orthanc start(Path dir, String aeTitle, int dicomPort, int httpPort, Peer store)
            throws IOException, InterruptedException {
        return start(dir, aeTitle, dicomPort, httpPort, store, "");
    }

    /**
     * Orthanc with more configuration: {@code moreConfig} are JSON members added to its configuration (e.g.
     * {@code "TranscodeDicomProtocol": false,}, each followed by a comma).
     */
    public static Orthanc start(Path dir, String aeTitle, int dicomPort, int httpPort, Peer store, String moreConfig)
            throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("db"));
        Path plugin = PLUGIN_CANDIDATES.stream().filter(Files::exists).findFirst().orElseThrow(
                () -> new IllegalStateException("the Orthanc DICOMweb plugin is not installed (package "
                        + "orthanc-dicomweb; bootstrap/install-deps.sh installs it)"));
        String config = """
                {
                  %s
                  "Name": "medjava-test-orthanc",
                  "HttpPort": %d,
                  "DicomPort": %d,
                  "DicomAet": "%s",
                  "RemoteAccessAllowed": false,
                  "AuthenticationEnabled": false,
                  "StorageDirectory": "%s",
                  "IndexDirectory": "%s",
                  "Plugins": ["%s"],
                  "DicomModalities": {"medjava": ["%s", "127.0.0.1", %d]},
                  "DicomWeb": {"Enable": true, "Root": "/dicom-web/",
                               "Servers": {"medjava": ["%s", "%s", "%s"]}},
                  "KeepAlive": true,
                  "TcpNoDelay": true,
                  "HttpTimeout": 60
                }
                """.formatted(moreConfig, httpPort, dicomPort, aeTitle, dir.resolve("db"), dir.resolve("db"), plugin,
                store.storeAe(), store.storeDicomPort(), store.storeDicomWebUrl(), store.user(), store.password());
        Path configFile = Files.writeString(dir.resolve("orthanc.json"), config);
        Path log = dir.resolve("orthanc.log");
        ProcessBuilder pb = new ProcessBuilder("/usr/sbin/Orthanc", configFile.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("TCP_NODELAY", "1"); // DCMTK (Orthanc's DICOM layer) keeps Nagle's algorithm otherwise
        Process p = pb.start();
        Orthanc orthanc = new Orthanc(p, dir, httpPort);
        try {
            Ports.awaitListening(httpPort, Duration.ofSeconds(30), p, "Orthanc");
            Ports.awaitListening(dicomPort, Duration.ofSeconds(30), p, "Orthanc (DICOM)");
        } catch (RuntimeException | InterruptedException e) {
            orthanc.close();
            throw new IllegalStateException(e.getMessage() + "; its log:\n" + Files.readString(log), e);
        }
        return orthanc;
    }

    /**
     * A new client for each request: Orthanc closes idle keep-alive connections, and the JDK's client would reuse
     * a closed one for a POST and fail.
     */
    private static HttpClient http() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + httpPort + path);
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http().send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(120)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<byte[]> getBytes(String path) throws IOException, InterruptedException {
        return http().send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(120)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    public HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return http().send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(120))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Uploads a Part 10 file through Orthanc's own REST API. */
    public HttpResponse<String> upload(Path file) throws IOException, InterruptedException {
        return http().send(HttpRequest.newBuilder(uri("/instances")).timeout(Duration.ofSeconds(120))
                .POST(HttpRequest.BodyPublishers.ofFile(file)).build(), HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> delete(String path) throws IOException, InterruptedException {
        return http().send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(60)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    public String log() throws IOException {
        return Files.readString(dir.resolve("orthanc.log"));
    }

    /** Orthanc's query body for /tools/find as a string, from key/value pairs. */
    public static String findQuery(String level, Map<String, String> query) {
        return "{\"Level\":\"" + level + "\",\"Query\":{" + query.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"").collect(Collectors.joining(","))
                + "}}";
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    /** Deletes its scratch directory (after {@link #close()}). */
    public void deleteFiles() throws IOException {
        deleteTree(dir);
    }

    /** Deletes a directory and everything below it, if it exists. */
    public static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
