package org.medjava.bench.serve;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Orthanc as the PACS peer: a scratch configuration and storage (SQLite index, files), HTTP on a free port,
 * the DICOMweb plugin at /dicom-web/ when it is installed, HTTP Basic authentication on with one registered user
 * (off for the serve step's second peer, issue 30's Orthanc without authentication); DICOM off for the serve step,
 * on for the ingest step. {@code RemoteAccessAllowed} stays false: Orthanc 1.10 cannot bind to loopback only, and
 * false refuses every HTTP client that is not on this machine, while the password is still checked on every request
 * (it is AuthenticationEnabled that switches the check on).
 */
public final class OrthancPeer implements AutoCloseable {
    static final String USER = "bench";
    /** Orthanc's AE title when its DICOM server is on. */
    public static final String AE_TITLE = "ORTHANC";
    private static final List<Path> DICOMWEB_PLUGIN = List.of(
            Path.of("/usr/share/orthanc/plugins/libOrthancDicomWeb.so"), Path.of("/usr/lib/orthanc/libOrthancDicomWeb.so"));

    private final Process process;
    private final int port;
    private final int dicomPort;
    /** Null when authentication is off. */
    private final String password;

    private OrthancPeer(Process process, int port, int dicomPort, String password) {
        this.process = process;
        this.port = port;
        this.dicomPort = dicomPort;
        this.password = password;
    }

    /** For the serve and study-open steps: HTTP only, with or without authentication. */
    public static OrthancPeer start(Path orthanc, Path dir, boolean authentication) throws IOException, InterruptedException {
        return start(orthanc, dir, false, authentication);
    }

    /** The DICOMweb plugin's library, when the package orthanc-dicomweb is installed. */
    public static Optional<Path> dicomWebPlugin() {
        return DICOMWEB_PLUGIN.stream().filter(Files::isRegularFile).findFirst();
    }

    /**
     * For the ingest step: also its DICOM server (AE {@value #AE_TITLE} on a free port, storing from any calling AE
     * as Orthanc does by default), authentication on.
     */
    public static OrthancPeer startForIngest(Path orthanc, Path dir) throws IOException, InterruptedException {
        return start(orthanc, dir, true, true);
    }

    private static OrthancPeer start(Path orthanc, Path dir, boolean ingest, boolean authentication)
            throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("db"));
        int port = Servers.freePort();
        int dicomPort = ingest ? Servers.freePort() : 0;
        String password = authentication ? "bench-" + Long.toHexString(new java.security.SecureRandom().nextLong())
                : null;
        String dicom = (!ingest ? "\"DicomServerEnabled\": false,"
                : String.format("\"DicomServerEnabled\": true, \"DicomPort\": %d, \"DicomAet\": \"%s\",", dicomPort,
                AE_TITLE)) + dicomWebPlugin().map(p -> " \"Plugins\": [\"" + p + "\"], \"DicomWeb\": {\"Enable\": "
                + "true, \"Root\": \"/dicom-web/\"},").orElse("");
        String config = """
                {
                  "Name": "%s",
                  "HttpPort": %d,
                  %s
                  "RemoteAccessAllowed": false,
                  "AuthenticationEnabled": %b,%s
                  "StorageDirectory": "%s",
                  "IndexDirectory": "%s",
                  "StorageCompression": false,
                  "HttpCompressionEnabled": false,
                  "KeepAlive": true,
                  "TcpNoDelay": true,
                  "HttpTimeout": 120,
                  "SaveJobs": false
                }
                """.formatted(ingest ? "medjava-bench-ingest" : "medjava-bench-serve", port, dicom, authentication,
                authentication ? " \"RegisteredUsers\": {\"" + USER + "\": \"" + password + "\"}," : "",
                dir.resolve("db"), dir.resolve("db"));
        Path configFile = Files.writeString(dir.resolve("orthanc.json"), config);
        Path log = dir.resolve("orthanc.log");
        ProcessBuilder pb = new ProcessBuilder(orthanc.toString(), configFile.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("TCP_NODELAY", "1"); // its DICOM layer (DCMTK) keeps Nagle's algorithm otherwise
        Process p = pb.start();
        Servers.track(p);
        OrthancPeer peer = new OrthancPeer(p, port, dicomPort, password);
        try {
            Servers.awaitListening(port, Duration.ofSeconds(60), p, "Orthanc", log);
            if (ingest) {
                Servers.awaitListening(dicomPort, Duration.ofSeconds(60), p, "Orthanc (DICOM)", log);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            peer.close();
            // its directory is deleted with the run's: say here what it said
            throw new IOException(e.getMessage() + ": " + Files.readString(log).strip(), e);
        }
        return peer;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** The Basic credentials; null when authentication is off. */
    public String authorization() {
        return password == null ? null : "Basic "
                + Base64.getEncoder().encodeToString((USER + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public long pid() {
        return process.pid();
    }

    /** The DICOM port (0: its DICOM server is off). */
    public int dicomPort() {
        return dicomPort;
    }

    /** POST /instances; returns Orthanc's ID of the instance. A new client: Orthanc closes idle connections. */
    public String upload(Path dicom) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("/instances")).timeout(Duration.ofMinutes(10))
                .POST(HttpRequest.BodyPublishers.ofFile(dicom));
        if (password != null) {
            request.header("Authorization", authorization());
        }
        HttpResponse<String> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                request.build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"ID\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) {
            throw new IOException("Orthanc POST /instances of " + dicom.getFileName() + " answered " + r.statusCode()
                    + ": " + r.body().strip());
        }
        return m.group(1);
    }

    @Override
    public void close() throws InterruptedException {
        Servers.stop(process, 20);
    }
}
