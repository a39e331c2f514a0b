package org.medjava.store.testsupport;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The image store as the tests meet it: the built WAR on a real Payara Micro, in its own JVM, on a free loopback
 * port, with a fresh data directory. Its console goes to {@code target/it-logs/<name>-<n>.log}, one per start.
 */
public final class PayaraStore implements AutoCloseable {

    public static final String ADMIN_PASSWORD = "it-admin-password";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final java.util.concurrent.atomic.AtomicInteger STARTS = new java.util.concurrent.atomic.AtomicInteger();

    private final String name;
    private final Process process;
    private final Path dataDir;
    private final Path log;
    private final int port;
    private final int httpsPort;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build(); // HTTP/1.1: an h2c upgrade during
            // Payara's start-up can deadlock its Grizzly listener threads (the store then never answers)

    private PayaraStore(String name, Process process, Path dataDir, Path log, int port, int httpsPort) {
        this.httpsPort = httpsPort;
        this.name = name;
        this.process = process;
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
    }

    /** What is different about one store: configuration as {@code medjava.*} system properties. */
    public static final class Builder {
        private final String name;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private Path dataDir;
        private boolean tls;

        Builder(String name) {
            this.name = name;
            properties.put("medjava.admin.initial-password", ADMIN_PASSWORD);
            properties.put("medjava.upload.max-bytes", Long.toString(32L << 20));
        }

        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        public Builder seedPlugins() {
            return property("medjava.seed.plugins", System.getProperty("store.plugins"));
        }

        /** Also serve HTTPS (Payara Micro's built-in self-signed certificate) on a free port. */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        public PayaraStore start() throws IOException, InterruptedException {
            Path target = Path.of(System.getProperty("store.war")).getParent();
            Path data = dataDir != null ? dataDir : Files.createTempDirectory(target, "it-data-" + name + "-");
            Path logs = Files.createDirectories(target.resolve("it-logs"));
            Path log = logs.resolve(name + "-" + STARTS.incrementAndGet() + ".log");
            Files.deleteIfExists(log);
            int port = freePort();
            List<String> command = new ArrayList<>(List.of(javaBin(), "-Xmx1g"));
            command.add("-Dmedjava.data-dir=" + data);
            command.add("-Dmedjava.public-url=http://127.0.0.1:" + port);
            properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
            command.addAll(List.of("-jar", System.getProperty("payara.jar"), "--deploy",
                    System.getProperty("store.war"), "--contextroot", "/", "--port", Integer.toString(port),
                    "--nocluster", "--disablephonehome"));
            int httpsPort = tls ? freePort() : -1;
            if (tls) {
                command.addAll(List.of("--sslport", Integer.toString(httpsPort)));
            }
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            PayaraStore store = new PayaraStore(name, process, data, log, port, httpsPort);
            try {
                store.awaitReady();
            } catch (IOException | InterruptedException | RuntimeException e) {
                store.close();
                throw e;
            }
            return store;
        }
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Payara Micro (" + name + ") exited with " + process.exitValue()
                        + " before it was ready; its log:\n" + tail());
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
            Thread.sleep(250);
        }
        throw new IllegalStateException("Payara Micro (" + name + ") not ready after " + START_TIMEOUT
                + "; its log:\n" + tail());
    }

    public String tail() throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    public String log() throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8);
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public int httpsPort() {
        return httpsPort;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    public static String admin() {
        return basic("admin", ADMIN_PASSWORD);
    }

    /** Stops the server (SIGTERM, then SIGKILL after 30 s) and deletes its data directory. */
    @Override
    public void close() throws IOException, InterruptedException {
        stop();
        deleteTree(dataDir);
    }

    /** Stops the server and keeps its data directory (for restart tests). */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
