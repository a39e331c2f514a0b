package org.medjava.store.testkit.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3Proxy (the {@code s3proxy.jar} the build copies to target/) as its own OS process, storing into a local
 * directory through its NIO.2 file-system backend, on a free loopback port.
 */
public final class S3ProxyServer implements AutoCloseable {

    public static final String ACCESS_KEY = "medjava-test-access";
    public static final String SECRET_KEY = "medjava-test-secret-0123456789";
    private static final long START_TIMEOUT_MS = 60_000;

    private final Path dir;
    private final Path dataDir;
    private final int port;
    private Process process;
    private S3Client client;
    private final Thread reaper = new Thread(this::destroyNow, "s3proxy-reaper");

    private S3ProxyServer(Path dir, int port) throws IOException {
        this.dir = dir;
        this.dataDir = Files.createDirectories(dir.resolve("data"));
        this.port = port;
        // Kill the server even when the test JVM exits without running the tests' cleanup.
        Runtime.getRuntime().addShutdownHook(reaper);
    }

    /** Starts a server keeping its data under {@code dir}. */
    public static S3ProxyServer start(Path dir) throws IOException {
        S3ProxyServer server = new S3ProxyServer(dir, freePort());
        try {
            server.launch();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /**
     * An SDK client for checks behind the storage's back (closed with the server): the tests' own, set up as S3Proxy
     * needs (path-style buckets, checksums only where S3 requires them), not the store's.
     */
    public synchronized S3Client client() {
        if (client == null) {
            client = S3Client.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(
                            AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                    .forcePathStyle(true)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                    .httpClientBuilder(ApacheHttpClient.builder()).build();
        }
        return client;
    }

    public void createBucket(String bucket) {
        client().createBucket(b -> b.bucket(bucket));
    }

    boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Stops the server (SIGTERM, then SIGKILL after a grace period). */
    public void stop() {
        if (process != null) {
            process.destroy();
            awaitExit();
        }
    }

    /** Kills the server at once, as a crash would. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            awaitExit();
        }
    }

    /** Starts the server again on the same port and data. */
    public void restart() throws IOException {
        stop();
        launch();
    }

    @Override
    public void close() {
        destroyNow();
        try {
            Runtime.getRuntime().removeShutdownHook(reaper);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook runs anyway
        }
        synchronized (this) {
            if (client != null) {
                client.close();
                client = null;
            }
        }
    }

    private void destroyNow() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            awaitExit();
        }
    }

    private void awaitExit() {
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void launch() throws IOException {
        Path properties = dir.resolve("s3proxy.properties");
        Files.writeString(properties, String.join("\n",
                "s3proxy.endpoint=" + endpoint(),
                "s3proxy.authorization=aws-v2-or-v4",
                "s3proxy.identity=" + ACCESS_KEY,
                "s3proxy.credential=" + SECRET_KEY,
                "jclouds.provider=filesystem-nio2",
                "jclouds.identity=unused",
                "jclouds.credential=unused",
                "jclouds.filesystem.basedir=" + dataDir,
                ""), StandardCharsets.UTF_8);
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-jar", s3proxyJar().toString(), "--properties", properties.toString()));
        pb.environment().put("LOG_LEVEL", "warn");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
        process = pb.start();
        awaitAnswer();
    }

    private Path log() {
        return dir.resolve("s3proxy.log");
    }

    private static Path s3proxyJar() {
        String jar = System.getProperty("s3proxy.jar");
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            throw new IllegalStateException("system property s3proxy.jar must name S3Proxy's jar-with-dependencies "
                    + "(the build copies it to target/s3proxy/s3proxy.jar), not " + jar);
        }
        return Path.of(jar);
    }

    /** Polls until S3Proxy answers HTTP at all (any status: an anonymous request is refused with 403). */
    private void awaitAnswer() throws IOException {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        while (System.currentTimeMillis() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Proxy exited with " + process.exitValue() + ":\n" + logTail());
            }
            try {
                HttpURLConnection c = (HttpURLConnection) endpoint().toURL().openConnection();
                c.setConnectTimeout(500);
                c.setReadTimeout(2000);
                c.getResponseCode();
                c.disconnect();
                return;
            } catch (IOException notYet) {
                sleep(100);
            }
        }
        destroyNow();
        throw new IllegalStateException("S3Proxy did not answer within " + START_TIMEOUT_MS + " ms:\n" + logTail());
    }

    String logTail() {
        try {
            String log = Files.readString(log(), StandardCharsets.UTF_8);
            return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
