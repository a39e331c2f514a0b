package org.medjava.bench.transport;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.medjava.bench.setup.BenchPaths;

/**
 * The image store for the HTTP benchmark: the built WAR on Payara Micro in its own JVM, a free loopback port, a
 * fresh data directory (deleted on close), an admin password set through {@code medjava.admin.initial-password}.
 * Started and stopped by its own process handle.
 */
public final class StoreServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private final Process process;
    private final Path dataDir;
    private final Path log;
    private final int port;
    private final String password;

    private StoreServer(Process process, Path dataDir, Path log, int port, String password) {
        this.process = process;
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
        this.password = password;
    }

    /** Starts the store from {@code war} on {@code payaraJar}; its console goes to {@code log}. */
    public static StoreServer start(Path payaraJar, Path war, Path log) throws IOException, InterruptedException {
        return start(payaraJar, war, log, Map.of());
    }

    /** The same with more system properties ({@code medjava.dicom.port}, say). */
    public static StoreServer start(Path payaraJar, Path war, Path log, Map<String, String> properties)
            throws IOException, InterruptedException {
        Path data = Files.createTempDirectory("medjava-bench-store-");
        int port = freePort();
        String password = "bench-" + Long.toHexString(new java.security.SecureRandom().nextLong());
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> command = new ArrayList<>(List.of(java.toString(), "-Xmx2g",
                "-XX:G1HeapRegionSize=4m", // as ./medjava start runs the store
                "-Dmedjava.data-dir=" + data,
                "-Dmedjava.public-url=http://127.0.0.1:" + port, "-Dmedjava.admin.initial-password=" + password,
                "-Dmedjava.upload.max-bytes=" + (1L << 30)));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        // the store's port is its front's (front.FrontServer); Payara's listener sits behind it on the loopback
        int backendPort = freePort();
        command.add("-Dmedjava.http.port=" + port);
        command.add("-Dmedjava.http.backend-port=" + backendPort);
        command.addAll(List.of("-jar", payaraJar.toString(), "--deploy", war.toString(), "--contextroot", "/",
                "--port", Integer.toString(backendPort), "--nocluster", "--disablephonehome"));
        Path preboot = BenchPaths.root().resolve("deploy/payara-preboot.txt");
        if (Files.isRegularFile(preboot)) { // as ./medjava start: Payara's listener on the loopback only
            command.addAll(List.of("--prebootcommandfile", preboot.toAbsolutePath().toString()));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        StoreServer server = new StoreServer(process, data, log, port, password);
        try {
            server.awaitReady();
        } catch (IOException | InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** The Payara Micro JVM's process id (for its CPU time). */
    public long pid() {
        return process.pid();
    }

    /** The admin's password (the study-open benchmark logs in with it on the store's login page). */
    public String password() {
        return password;
    }

    public String authorization() {
        return "Basic " + Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
    }

    private void awaitReady() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build(); // HTTP/1.1: an h2c upgrade during
                // Payara's start-up can deadlock its Grizzly listener threads (the store then never answers)
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("Payara Micro exited with " + process.exitValue() + " before it was ready; see "
                        + log);
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/health/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().contains("image-store")) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IOException("Payara Micro not ready after " + START_TIMEOUT + "; see " + log);
    }

    /** Stops the server (SIGTERM, SIGKILL after 30 s) and deletes its data directory. */
    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (Stream<Path> paths = Files.walk(dataDir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
