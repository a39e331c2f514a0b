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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Debian's Orthanc as the PACS peer: a scratch configuration and storage (SQLite index, files), HTTP on a free port,
 * DICOM off, HTTP Basic authentication on with one registered user. {@code RemoteAccessAllowed} stays false:
 * Orthanc 1.10 cannot bind to loopback only, and false refuses every client that is not on this machine, while the
 * password is still checked on every request (it is AuthenticationEnabled that switches the check on).
 */
final class OrthancPeer implements AutoCloseable {
    static final String USER = "bench";

    private final Process process;
    private final int port;
    private final String password;

    private OrthancPeer(Process process, int port, String password) {
        this.process = process;
        this.port = port;
        this.password = password;
    }

    static OrthancPeer start(Path orthanc, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("db"));
        int port = Servers.freePort();
        String password = "bench-" + Long.toHexString(new java.security.SecureRandom().nextLong());
        String config = """
                {
                  "Name": "medjava-bench-serve",
                  "HttpPort": %d,
                  "DicomServerEnabled": false,
                  "RemoteAccessAllowed": false,
                  "AuthenticationEnabled": true,
                  "RegisteredUsers": {"%s": "%s"},
                  "StorageDirectory": "%s",
                  "IndexDirectory": "%s",
                  "StorageCompression": false,
                  "HttpCompressionEnabled": false,
                  "KeepAlive": true,
                  "TcpNoDelay": true,
                  "HttpTimeout": 120,
                  "SaveJobs": false
                }
                """.formatted(port, USER, password, dir.resolve("db"), dir.resolve("db"));
        Path configFile = Files.writeString(dir.resolve("orthanc.json"), config);
        Path log = dir.resolve("orthanc.log");
        Process p = new ProcessBuilder(orthanc.toString(), configFile.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        Servers.track(p);
        OrthancPeer peer = new OrthancPeer(p, port, password);
        try {
            Servers.awaitListening(port, Duration.ofSeconds(60), p, "Orthanc", log);
        } catch (IOException | InterruptedException | RuntimeException e) {
            peer.close();
            // its directory is deleted with the run's: say here what it said
            throw new IOException(e.getMessage() + ": " + Files.readString(log).strip(), e);
        }
        return peer;
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    String authorization() {
        return "Basic " + Base64.getEncoder().encodeToString((USER + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    long pid() {
        return process.pid();
    }

    /** POST /instances; returns Orthanc's ID of the instance. A new client: Orthanc closes idle connections. */
    String upload(Path dicom) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(uri("/instances")).header("Authorization", authorization())
                        .timeout(Duration.ofMinutes(10)).POST(HttpRequest.BodyPublishers.ofFile(dicom)).build(),
                HttpResponse.BodyHandlers.ofString());
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
