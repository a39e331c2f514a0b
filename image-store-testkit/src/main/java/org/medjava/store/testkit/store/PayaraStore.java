package org.medjava.store.testkit.store;

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
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.medjava.filter.testkit.TestPublisher;

/**
 * The image store as the tests meet it: the built WAR on a real Payara Micro, in its own JVM, on a free loopback
 * port, with a fresh data directory. Its console goes to {@code target/it-logs/<name>-<n>.log}, one per start.
 */
public final class PayaraStore implements AutoCloseable {

    public static final String ADMIN_PASSWORD = "it-admin-password";
    /**
     * Under JUnit's 300 s for a class's set-up (junit-platform.properties), so that a start that hangs fails here,
     * with the store's log and threads; a loaded 2-core machine has taken 95 s for a start.
     */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(240);
    private static final java.util.concurrent.atomic.AtomicInteger STARTS = new java.util.concurrent.atomic.AtomicInteger();

    private final String name;
    private final Process process;
    private final Path dataDir;
    private final Path log;
    private final int port;
    private final int httpsPort;
    /** How this store was started: {@link #restart()} starts it again the same way. */
    private final Builder builder;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build(); // HTTP/1.1: an h2c upgrade during
            // Payara's start-up can deadlock its Grizzly listener threads (the store then never answers)

    private PayaraStore(Builder builder, String name, Process process, Path dataDir, Path log, int port,
            int httpsPort) {
        this.builder = builder;
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
        private final Map<String, String> environment = new LinkedHashMap<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private Path dataDir;
        private boolean tls;
        private int port;
        private int httpsPort;
        private String heap = "1g";
        private Duration startTimeout = START_TIMEOUT;

        Builder(String name) {
            this.name = name;
            properties.put("medjava.admin.initial-password", ADMIN_PASSWORD);
            properties.put("medjava.upload.max-bytes", Long.toString(32L << 20));
        }

        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        /** The DIMSE service on loopback {@code port}, for the calling AE titles {@code allowedAets}. */
        public Builder dicom(int port, String allowedAets) {
            return property("medjava.dicom.port", Integer.toString(port)).property("medjava.dicom.bind", "127.0.0.1")
                    .property("medjava.dicom.allowed-aets", allowedAets);
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

        /** Listen on this HTTP port rather than a free one (0: a free one). */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** The JVM's maximum heap ({@code -Xmx}), e.g. {@code 384m}; 1g unless set. */
        public Builder heap(String heap) {
            this.heap = heap;
            return this;
        }

        /** An environment variable for the store's JVM (MicroProfile Config reads {@code MEDJAVA_DB_URL} etc.). */
        public Builder env(String name, String value) {
            environment.put(name, value);
            return this;
        }

        /** An option for the store's JVM, e.g. {@code -XX:TieredStopAtLevel=1}. */
        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Starts the JVM and returns at once: {@link PayaraStore#awaitReady()} waits for it. */
        public PayaraStore launch() throws IOException {
            Path target = Path.of(System.getProperty("store.war")).getParent();
            Path data = dataDir != null ? dataDir : Files.createTempDirectory(target, "it-data-" + name + "-");
            // the publisher of filter-testkit's plugin JARs is trusted, as an administrator adds one (the first
            // start adds the built-in plugins' publisher beside it)
            TestPublisher.standard().writeCertificate(data.resolve("trusted-publishers/medjava-test-publisher.pem"));
            Path logs = Files.createDirectories(target.resolve("it-logs"));
            Path log = logs.resolve(name + "-" + STARTS.incrementAndGet() + ".log");
            Files.deleteIfExists(log);
            int port = this.port != 0 ? this.port : freePort();
            List<String> command = new ArrayList<>(List.of(javaBin(), "-Xmx" + heap));
            command.addAll(jvmOptions);
            command.add("-Dmedjava.data-dir=" + data);
            if (!properties.containsKey("medjava.public-url")) {
                command.add("-Dmedjava.public-url=http://127.0.0.1:" + port);
            }
            // the store's port is its front's (front.FrontServer); Payara's listener sits behind it on the loopback
            int backendPort = freePort();
            command.add("-Dmedjava.http.port=" + port);
            command.add("-Dmedjava.http.backend-port=" + backendPort);
            properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
            command.addAll(List.of("-jar", System.getProperty("payara.jar"), "--deploy",
                    System.getProperty("store.war"), "--contextroot", "/", "--port", Integer.toString(backendPort),
                    "--nocluster", "--disablephonehome"));
            Path preboot = Path.of(System.getProperty("medjava.root", "..")).resolve("deploy/payara-preboot.txt");
            if (Files.isRegularFile(preboot)) { // as ./medjava start: no Server header naming the product
                command.addAll(List.of("--prebootcommandfile", preboot.toAbsolutePath().toString()));
            }
            int httpsPort = tls ? (this.httpsPort != 0 ? this.httpsPort : freePort()) : -1;
            if (tls) { // the front's HTTPS port, with Payara Micro's self-signed certificate (its key store)
                command.add(1, "-Dmedjava.https.port=" + httpsPort);
            }
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(environment);
            Process process = pb.start();
            // what a restart reuses: these settings with this port and data directory
            Builder again = copy();
            again.dataDir = data;
            again.port = port;
            again.httpsPort = Math.max(httpsPort, 0);
            return new PayaraStore(again, name, process, data, log, port, httpsPort);
        }

        private Builder copy() {
            Builder b = new Builder(name);
            b.properties.clear();
            b.properties.putAll(properties);
            b.environment.putAll(environment);
            b.jvmOptions.addAll(jvmOptions);
            b.dataDir = dataDir;
            b.tls = tls;
            b.port = port;
            b.httpsPort = httpsPort;
            b.heap = heap;
            b.startTimeout = startTimeout;
            return b;
        }

        /** Starts the store and waits until it is ready (its JVM is stopped when it does not get there). */
        public PayaraStore start() throws IOException, InterruptedException {
            PayaraStore store = launch();
            try {
                store.awaitReady();
            } catch (IOException | InterruptedException | RuntimeException e) {
                if (dataDir == null) {
                    store.close(); // its own temporary data directory
                } else {
                    store.stop(); // the caller's: kept (a restart's data, or for the post-mortem)
                }
                throw e;
            }
            return store;
        }
    }

    public static Builder named(String name) {
        return new Builder(name);
    }

    /** Waits until {@code /health/ready} answers 200, failing with the log when the JVM exits or time runs out. */
    public void awaitReady() throws IOException, InterruptedException {
        Duration timeout = builder.startTimeout;
        long deadline = System.nanoTime() + timeout.toNanos();
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
        throw new IllegalStateException("Payara Micro (" + name + ") not ready after " + timeout
                + "; its log:\n" + tail() + "\nits threads:\n" + threads());
    }

    /** The store JVM's thread dump (jcmd's), cut to its first 300 lines: where a start that hangs waits. */
    private String threads() {
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                    .limit(300).toList();
            p.waitFor(10, TimeUnit.SECONDS);
            return String.join("\n", lines);
        } catch (IOException e) {
            return "(no thread dump: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "(no thread dump: interrupted)";
        }
    }

    public String tail() throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }

    public Path logFile() {
        return log;
    }

    public String name() {
        return name;
    }

    /** The store's JVM (for its PID, or to watch it). */
    public Process process() {
        return process;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Kills the store as a crash would ({@code kill -9} of its JVM and anything it started), keeping its data
     * directory; returns when the process is gone.
     */
    public void kill() throws InterruptedException {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("Payara Micro (" + name + ", pid " + process.pid()
                    + ") still alive 30 s after SIGKILL");
        }
        for (ProcessHandle d : descendants) {
            try {
                d.onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // reported by nobody: a leftover child cannot hold the port of a JVM that is gone
            }
        }
    }

    /**
     * Starts this store again, stopped or killed, with the same settings, port and data directory; returns the
     * new, ready store (stop this one first: it still owns the port otherwise).
     */
    public PayaraStore restart() throws IOException, InterruptedException {
        if (process.isAlive()) {
            stop();
        }
        return builder.start();
    }

    /** The same as {@link #restart()}, returning at once: {@link #awaitReady()} on the result waits. */
    public PayaraStore relaunch() throws IOException, InterruptedException {
        if (process.isAlive()) {
            stop();
        }
        return builder.launch();
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
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
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
        return org.medjava.store.testkit.Ports.free();
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
