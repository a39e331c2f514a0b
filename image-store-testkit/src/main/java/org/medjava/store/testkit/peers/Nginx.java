package org.medjava.store.testkit.peers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;

/**
 * A private nginx (the Debian package {@code nginx}; {@code bootstrap/install-deps.sh --test} installs it without
 * starting the system one) as the load balancer in front of several stores: round robin over 127.0.0.1 upstream
 * ports, on a free loopback port, with everything it writes (pid, logs, temporary files) inside its own directory,
 * so it runs as any user. It is run in the foreground ({@code daemon off;}) as a child of the test JVM.
 *
 * <p>What it does is what the cluster's production load balancer does (docs/cluster.md; the rules for a request are
 * deploy/cluster/nginx-proxy.conf, which docker/nginx.conf and ./medjava cluster include too): an idempotent request
 * (GET, HEAD, ...) that meets a connection error, a timeout, a 502 or a 503 is retried on the next node; a POST or PUT
 * is not ({@code non_idempotent} is not set: the store might have acted on it). A node that failed once is left out
 * for {@value #FAIL_TIMEOUT_SECONDS} s ({@code max_fails=1}), then tried again. Bodies stream both ways (no request
 * or response buffering, no body size limit), HTTP/1.1 with keep-alive to the nodes, X-Forwarded-* headers set.
 * Each response carries the node(s) tried in {@code X-Upstream} (nginx's {@code $upstream_addr}, e.g.
 * {@code "127.0.0.1:4001, 127.0.0.1:4002"}) for tests to see where a request went; the access log has it too.
 */
public final class Nginx implements AutoCloseable {

    public static final int FAIL_TIMEOUT_SECONDS = 5;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final Path binary;
    private final Path dir;
    private final Path conf;
    private final int port;
    private final Thread shutdownHook;
    private Process process;
    private List<Integer> upstreams;
    private int generation;

    private Nginx(Path binary, Path dir, int port) {
        this.binary = binary;
        this.dir = dir;
        this.conf = dir.resolve("nginx.conf");
        this.port = port;
        this.shutdownHook = new Thread(this::stopQuietly, "stop nginx " + dir);
    }

    /** Starts nginx on a free loopback port over the stores on {@code upstreamPorts}, its files in {@code dir}. */
    public static Nginx start(Path dir, List<Integer> upstreamPorts) throws IOException, InterruptedException {
        return start(dir, Ports.free(), upstreamPorts);
    }

    /** The same on a given port. */
    public static Nginx start(Path dir, int port, List<Integer> upstreamPorts) throws IOException,
            InterruptedException {
        Nginx nginx = new Nginx(binary(), Files.createDirectories(dir), port);
        Runtime.getRuntime().addShutdownHook(nginx.shutdownHook);
        try {
            nginx.launch(upstreamPorts);
            return nginx;
        } catch (IOException | InterruptedException | RuntimeException e) {
            nginx.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public Path directory() {
        return dir;
    }

    public synchronized List<Integer> upstreams() {
        return upstreams;
    }

    /**
     * Balances over these ports from now on (none: every request answers 502): rewrites the configuration, reloads
     * ({@code nginx -s reload}: in-flight requests finish on the old workers) and returns once the new configuration
     * answers.
     */
    public synchronized void upstreams(List<Integer> ports) throws IOException, InterruptedException {
        writeConfig(ports);
        Command.Result test = Command.run(command("-t"), dir, 30);
        if (test.exitCode() != 0) {
            throw new IllegalStateException("nginx rejects its new configuration:\n" + test.output());
        }
        Command.run(command("-s", "reload"), dir, 30).assertOk();
        awaitGeneration();
    }

    /** The access log so far: one line per request with the upstream(s) tried, their statuses and times. */
    public String accessLog() {
        return read(dir.resolve("logs/access.log"));
    }

    public String errorLog() {
        return read(dir.resolve("logs/error.log"));
    }

    /** Stops nginx (SIGTERM: fast shutdown; its workers are killed if they outlive it). Keeps its directory. */
    @Override
    public synchronized void close() {
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to
        }
    }

    @Override
    public String toString() {
        return "Nginx[127.0.0.1:" + port + " -> " + upstreams + ", " + dir + "]";
    }

    /** /usr/sbin/nginx (or -Dmedjava.nginx=PATH, or nginx on the PATH). */
    public static Path binary() {
        String override = System.getProperty("medjava.nginx");
        if (override != null) {
            return Path.of(override);
        }
        for (String candidate : List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/nginx/sbin/nginx")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return Path.of(candidate);
            }
        }
        for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(entry.isEmpty() ? "." : entry, "nginx");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new IllegalStateException("nginx is not installed (no /usr/sbin/nginx): run bootstrap/install-deps.sh "
                + "--test (it installs the Debian package nginx without starting a system nginx)");
    }

    // ------------------------------------------------------------------------------------------------------------

    private synchronized void launch(List<Integer> ports) throws IOException, InterruptedException {
        for (String temp : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            Files.createDirectories(dir.resolve("temp").resolve(temp));
        }
        Files.createDirectories(dir.resolve("logs"));
        writeConfig(ports);
        Command.Result test = Command.run(command("-t"), dir, 30);
        if (test.exitCode() != 0) {
            throw new IllegalStateException("nginx rejects its configuration " + conf + ":\n" + test.output());
        }
        List<String> cmd = command();
        cmd.addAll(List.of("-g", "daemon off;"));
        process = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("logs/console.log").toFile())).start();
        try {
            Ports.awaitListening(port, START_TIMEOUT, process, "nginx");
            awaitGeneration();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\n--- error log ---\n" + errorLog()
                    + read(dir.resolve("logs/console.log")), e);
        }
    }

    private List<String> command(String... args) {
        List<String> cmd = new ArrayList<>(List.of(binary.toString(), "-p", dir + "/", "-c", conf.toString(),
                "-e", dir.resolve("logs/error.log").toString()));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private void writeConfig(List<Integer> ports) throws IOException {
        upstreams = List.copyOf(ports);
        generation++;
        Files.writeString(conf, config(dir, port, ports, generation), StandardCharsets.UTF_8);
    }

    /**
     * The configuration: see the class comment. {@code generation} is answered at {@code /_nginx/generation}, so
     * that a reload can be seen to have happened.
     */
    static String config(Path dir, int port, List<Integer> ports, int generation) {
        StringBuilder servers = new StringBuilder();
        for (int p : ports) {
            servers.append("        server 127.0.0.1:").append(p).append(" max_fails=1 fail_timeout=")
                    .append(FAIL_TIMEOUT_SECONDS).append("s;\n");
        }
        if (ports.isEmpty()) {
            servers.append("        server 127.0.0.1:1 down; # no node\n");
        }
        String d = dir.toAbsolutePath().toString();
        // As root, nginx runs its workers as "nobody", who cannot enter this private directory: keep them root.
        String user = isRoot() ? "user root;\n" : "";
        return user + """
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log warn;
                events { worker_connections 1024; }
                http {
                    log_format upstreams '$remote_addr [$time_iso8601] "$request" $status $body_bytes_sent '
                                         'upstream="$upstream_addr" upstream_status="$upstream_status" '
                                         'rt=$request_time urt="$upstream_response_time"';
                    access_log %1$s/logs/access.log upstreams;
                    client_body_temp_path %1$s/temp/client_body;
                    proxy_temp_path %1$s/temp/proxy;
                    fastcgi_temp_path %1$s/temp/fastcgi;
                    uwsgi_temp_path %1$s/temp/uwsgi;
                    scgi_temp_path %1$s/temp/scgi;

                    upstream medjava {
                %2$s        keepalive 16;
                    }

                    server {
                        listen 127.0.0.1:%3$d;
                        client_max_body_size 0;

                        location = /_nginx/generation {
                            access_log off;
                            return 200 "%4$d\\n";
                        }

                        location / {
                            include "%5$s";
                            add_header X-Upstream $upstream_addr always;
                        }
                    }
                }
                """.formatted(d, servers, port, generation, proxyRules());
    }

    /** The cluster's rules for a request, shared with docker/nginx.conf and ./medjava cluster. */
    static Path proxyRules() {
        Path rules = Path.of(System.getProperty("medjava.root", "..")).resolve("deploy/cluster/nginx-proxy.conf")
                .toAbsolutePath().normalize();
        if (!Files.isRegularFile(rules)) {
            throw new IllegalStateException("no " + rules + " (-Dmedjava.root names the repository)");
        }
        return rules;
    }

    /** Polls (new connections each time) until the running configuration is the one last written. */
    private void awaitGeneration() throws InterruptedException {
        String expected = Integer.toString(generation);
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            if (process != null && !process.isAlive()) {
                throw new IllegalStateException("nginx exited with " + process.exitValue());
            }
            last = get("/_nginx/generation");
            if (last.strip().endsWith("\n" + expected) || last.strip().equals(expected)) {
                return;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("nginx did not take configuration " + expected + " within " + START_TIMEOUT
                + " (last answer: " + last + ")\n--- error log ---\n" + errorLog());
    }

    /** A raw HTTP/1.0 GET on a fresh connection (never a pooled one that an old worker might hold). */
    private String get(String path) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    private synchronized void stopQuietly() {
        if (process == null) {
            return;
        }
        List<ProcessHandle> workers = process.descendants().toList();
        process.destroy(); // SIGTERM: nginx's fast shutdown
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        workers.forEach(ProcessHandle::destroyForcibly); // an orphaned worker would keep the port
        process = null;
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }
}
