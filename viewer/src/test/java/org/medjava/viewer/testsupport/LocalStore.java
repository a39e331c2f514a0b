package org.medjava.viewer.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.medjava.codec.dicom.ArchiveLayout;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomImage;
import org.medjava.filter.Raster;

/**
 * The real image store for the viewer's GUI tests (adapted from image-store's PayaraStore): the built WAR on Payara
 * Micro in its own JVM, on a free loopback port, with a fresh data directory seeded with the committed samples and
 * the bundled plugins. One store serves the whole test JVM; it is stopped (by its process) when the JVM exits.
 * Its console goes to {@code target/it-logs/store.log}.
 */
public final class LocalStore {
    public static final String ADMIN_PASSWORD = "gui-admin-password";
    /** Payara Micro is usually ready in 30-60 s here; on a busy machine one start has hung silently, so retry once. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(200);
    private static final int START_ATTEMPTS = 2;
    private static LocalStore shared;

    private final Process process;
    private final Path dataDir;
    private final Path log;
    private final int port;
    /**
     * HTTP/1.1: with the JDK's default h2c upgrade, Payara Micro's Grizzly HTTP/2 code has deadlocked both its
     * listener threads on an early request (thread dump kept in it-logs/store.log), so the store never became ready.
     */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private LocalStore(Process process, Path dataDir, Path log, int port) {
        this.process = process;
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
    }

    /** The store of this test JVM, started on first use. */
    public static synchronized LocalStore shared() throws IOException, InterruptedException {
        if (shared == null) {
            shared = start("store", java.util.Map.of());
            LocalStore store = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(store::stop, "stop-store"));
        }
        return shared;
    }

    /**
     * A store of its own with configuration {@code properties} (system properties of its JVM), its console in
     * {@code target/it-logs/NAME.log}; the caller closes it.
     */
    public static LocalStore start(String name, java.util.Map<String, String> properties)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return startOnce(name, properties);
            } catch (IllegalStateException e) {
                if (attempt >= START_ATTEMPTS) {
                    throw e;
                }
                System.out.println("store: " + e.getMessage() + "; starting it again");
            }
        }
    }

    private static LocalStore startOnce(String name, java.util.Map<String, String> properties)
            throws IOException, InterruptedException {
        Path war = Path.of(required("store.war"));
        Path target = war.getParent().getParent();
        Path data = Files.createTempDirectory(target, "it-data-");
        Path logs = Files.createDirectories(target.resolve("it-logs"));
        Path log = logs.resolve(name + ".log");
        int port = freePort();
        Path samples = Path.of(required("medjava.root")).resolve("testdata/samples");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx1g"));
        command.add("-Dmedjava.data-dir=" + data);
        // filter-testkit's plugin JARs are signed by its test publisher: trusted here as an administrator adds one
        org.medjava.filter.testkit.TestPublisher.standard()
                .writeCertificate(data.resolve("trusted-publishers/medjava-test-publisher.pem"));
        command.add("-Dmedjava.public-url=http://127.0.0.1:" + port);
        command.add("-Dmedjava.admin.initial-password=" + ADMIN_PASSWORD);
        command.add("-Dmedjava.upload.max-bytes=" + (64L << 20));
        command.add("-Dmedjava.seed.images=" + samples);
        command.add("-Dmedjava.seed.plugins=" + required("medjava.plugins"));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        // the store's port is its front's (front.FrontServer); Payara's listener sits behind it on the loopback
        int backendPort = freePort();
        command.add("-Dmedjava.http.port=" + port);
        command.add("-Dmedjava.http.backend-port=" + backendPort);
        command.addAll(List.of("-jar", required("payara.jar"), "--deploy", war.toString(), "--contextroot", "/",
                "--port", Integer.toString(backendPort), "--nocluster", "--disablephonehome"));
        Path preboot = Path.of(required("medjava.root")).resolve("deploy/payara-preboot.txt");
        if (Files.isRegularFile(preboot)) { // as ./medjava start: Payara's listener on the loopback only
            command.addAll(List.of("--prebootcommandfile", preboot.toAbsolutePath().toString()));
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        LocalStore store = new LocalStore(process, data, log, port);
        long started = System.nanoTime();
        System.out.println("store: starting Payara Micro on port " + port + " (log " + log + ")");
        try {
            store.awaitReady();
        } catch (IOException | InterruptedException | RuntimeException e) {
            store.threadDump();
            store.stop();
            throw e;
        }
        System.out.printf("store: ready after %d s%n", (System.nanoTime() - started) / 1_000_000_000L);
        return store;
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            throw new IllegalStateException("system property " + property + " is not set (run through Maven failsafe)");
        }
        return value;
    }

    private void awaitReady() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Payara Micro exited with " + process.exitValue()
                        + " before it was ready; see " + log);
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
        throw new IllegalStateException("Payara Micro not ready after " + START_TIMEOUT + "; see " + log);
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    public URI uri(String path) {
        return URI.create(url() + path);
    }

    public static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** A request as admin. */
    public HttpRequest.Builder admin(String path) {
        return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(120))
                .header("Authorization", basic("admin", ADMIN_PASSWORD));
    }

    public HttpResponse<byte[]> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /**
     * The derived DICOM object the viewer uploaded to {@code path}, read back and checked: stored, filed where the
     * store files what it receives ({@link ArchiveLayout}, by its own UIDs), in the source's study, in a new series.
     */
    public DicomImage derivedDicomAt(String path, DicomImage source) throws Exception {
        HttpResponse<byte[]> stored = send(admin("/images/" + path));
        assertThat(stored.statusCode()).isEqualTo(200);
        DicomImage derived = DicomCodec.read(stored.body(), 0, Raster.MAX_PIXELS);
        var a = derived.attributes();
        assertThat(path).isEqualTo(ArchiveLayout.path(a.patientId(), a.studyInstanceUid(), a.seriesInstanceUid(),
                a.sopInstanceUid()));
        assertThat(a.studyInstanceUid()).isEqualTo(source.attributes().studyInstanceUid());
        assertThat(a.seriesInstanceUid()).isNotEqualTo(source.attributes().seriesInstanceUid());
        return derived;
    }

    /** Creates an account with a role (reader, uploader, admin). */
    public void user(String name, String password, String role) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = send(admin("/admin/users/" + name).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"password\":\"" + password + "\",\"role\":\"" + role
                        + "\"}")));
        if (r.statusCode() >= 300) {
            throw new IllegalStateException("creating user " + name + ": " + r.statusCode() + " "
                    + new String(r.body(), StandardCharsets.UTF_8));
        }
    }

    /** Appends the JVM's threads to the log, to see where a start hung. */
    private void threadDump() {
        try {
            Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(process.pid()), "Thread.print").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            jcmd.waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            // no jcmd: the log has what it has
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the store and removes its data (a store of its own; the shared one stops with the JVM). */
    public void close() {
        stop();
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            try (Stream<Path> paths = Files.walk(dataDir)) {
                for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            // leave the data directory under target/
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
