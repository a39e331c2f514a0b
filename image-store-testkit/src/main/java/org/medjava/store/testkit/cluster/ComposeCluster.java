package org.medjava.store.testkit.cluster;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.medjava.store.testkit.Command;

/**
 * docker/compose.yaml run for real on a Docker engine, as the process cluster of {@link ClusterHarness} is run on
 * this machine: PostgreSQL, S3Proxy, three store nodes and nginx, each a container. The images are built here by
 * docker/build-images.sh from Debian's packages (no registry is needed: the base comes from debootstrap) and from the
 * store built by Maven; the file is run by Debian's {@code docker-compose} 1.29 (or Compose v2's {@code docker
 * compose}) under a project name of its own, without the file's Orthanc peer. The engine is {@code DOCKER_HOST}'s
 * (.ci/run starts a private one) or the default socket; {@link #unavailable()} says why the cluster cannot run.
 *
 * <p>{@link #close()} keeps every container's log in {@code target/it-logs/compose-<project>.log} and removes the
 * containers, the network and the volumes; the images stay in the engine's cache for the next run.
 */
public final class ComposeCluster implements AutoCloseable {

    public static final String ADMIN_PASSWORD = "compose-it-admin";
    /** The nodes' role of compose.yaml (docker/postgres-init), and its database. */
    public static final String NODE_ROLE = "medjava";
    public static final String DATABASE = "medjava";
    private static final String TAG = "local";
    private static final String BASE_IMAGE = "debian:bookworm-local";
    private static final String BASE_TAR = "bookworm-minbase.tar";
    private static final Pattern UPSTREAM =
            Pattern.compile("\"(\\S+) (\\S+) HTTP/[^\"]*\" (\\d+) .*upstream=\"([^\"]*)\"");

    private final Path root;
    private final Path logs;
    private final String project;
    private final List<String> compose;
    private final Map<String, String> env = new LinkedHashMap<>();
    private Duration imageBuild;
    private Duration startup;
    private URI lb;
    private boolean closed;

    private ComposeCluster(Path root, Path logs, String project, List<String> compose) {
        this.root = root;
        this.logs = logs;
        this.project = project;
        this.compose = compose;
    }

    /**
     * Why the cluster cannot run here, or null when it can: no {@code docker} client, no Compose, no engine answering
     * on {@code DOCKER_HOST} (or the default socket), or neither a base image nor debootstrap to make one.
     */
    public static String unavailable() {
        try {
            List<String> version = List.of("docker", "version", "--format", "{{.Server.Version}}");
            if (Command.run(version, null, 30).exitCode() != 0) {
                return "no Docker engine answers on " + System.getenv().getOrDefault("DOCKER_HOST",
                        "the default socket (DOCKER_HOST is not set)") + " (.ci/run starts one when it can)";
            }
        } catch (IOException e) {
            return "no docker client (bootstrap/install-deps.sh --test installs docker.io): " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        if (composeCommand() == null) {
            return "neither docker-compose (Debian's docker-compose 1.29) nor docker compose (v2) is installed";
        }
        if (!canMakeBaseImage()) {
            return "no base image " + BASE_IMAGE + ", no cached " + BASE_TAR + " and no debootstrap run as root to make"
                    + " one (docker/base-image.sh)";
        }
        return null;
    }

    /** docker/base-image.sh can do its work: the image is there, or its cached root file system, or debootstrap. */
    private static boolean canMakeBaseImage() {
        try {
            if (Command.run(List.of("docker", "image", "inspect", BASE_IMAGE), null, 30).exitCode() == 0) {
                return true;
            }
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        String cache = System.getenv().getOrDefault("MEDJAVA_DOCKER_CACHE",
                System.getProperty("user.home") + "/.cache/medjava/docker");
        boolean root = "root".equals(System.getProperty("user.name"));
        return Files.isRegularFile(Path.of(cache, BASE_TAR))
                || root && (Files.isExecutable(Path.of("/usr/sbin/debootstrap")));
    }

    /** Builds the images (cached by the engine), starts the cluster under {@code project} and waits for nginx. */
    public static ComposeCluster start(Path root, Path logs, String project) throws IOException,
            InterruptedException {
        ComposeCluster cluster = new ComposeCluster(root, Files.createDirectories(logs), project, composeCommand());
        try {
            cluster.buildImages();
            cluster.up();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    /** The load balancer's URI for {@code path}: published on a free loopback port. */
    public URI lb(String path) {
        return lb.resolve(path);
    }

    /** How long docker/build-images.sh took (seconds when cached; minutes the first time on an engine). */
    public Duration imageBuild() {
        return imageBuild;
    }

    /** From {@code up} to nginx answering over three healthy nodes. */
    public Duration startup() {
        return startup;
    }

    /** Kills a service's container as a crash would (SIGKILL); it stays down until {@link #start(String)}. */
    public void kill(String service) throws IOException, InterruptedException {
        compose(60, "kill", "-s", "SIGKILL", service).assertOk();
    }

    /** Stops a service's container (SIGTERM, then SIGKILL after the grace period). */
    public void stop(String service) throws IOException, InterruptedException {
        compose(120, "stop", service).assertOk();
    }

    /** Starts a stopped or killed service's container again and waits until the engine reports it healthy. */
    public void start(String service) throws IOException, InterruptedException {
        compose(120, "start", service).assertOk();
        awaitHealthy(service, Duration.ofMinutes(5));
    }

    /**
     * Makes nginx read its configuration again (SIGHUP): the stand-in image's Debian nginx resolves the nodes' names
     * when it (re)loads, so a node container that came back with another address is found again.
     */
    public void reloadLoadBalancer() throws IOException, InterruptedException {
        compose(60, "kill", "-s", "SIGHUP", "lb").assertOk();
        Thread.sleep(1_000); // the new workers take over
    }

    /** The nginx access log so far as (method, path, status, upstream addresses tried) per request. */
    public List<Request> lbRequests() throws IOException, InterruptedException {
        String log = compose(60, "logs", "--no-color", "lb").output();
        List<Request> requests = new ArrayList<>();
        Matcher m = UPSTREAM.matcher(log);
        while (m.find()) {
            requests.add(new Request(m.group(1), m.group(2), Integer.parseInt(m.group(3)), m.group(4)));
        }
        return requests;
    }

    /** One request as nginx logged it; {@code upstream} is nginx's $upstream_addr (addresses tried, by comma). */
    public record Request(String method, String path, int status, String upstream) {
    }

    /** The first column of the first row of {@code sql} in the nodes' database, as PostgreSQL's superuser. */
    public String queryOne(String sql) throws IOException, InterruptedException {
        return compose(60, "exec", "-T", "postgres", "psql", "-tA", "-d", DATABASE, "-c", sql).assertOk().output()
                .strip();
    }

    /** Everything the containers printed so far. */
    public String logs() throws IOException, InterruptedException {
        return compose(120, "logs", "--no-color", "--timestamps").output();
    }

    /** Keeps the containers' logs, then removes containers, network and volumes. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Files.writeString(logs.resolve("compose-" + project + ".log"), logs(), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException | Error e) {
            System.err.println("ComposeCluster: cannot keep the logs: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            Command.Result down = compose(300, "down", "--volumes", "--remove-orphans", "--timeout", "10");
            if (down.exitCode() != 0) {
                System.err.println("ComposeCluster: down failed: " + down.output());
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("ComposeCluster: down failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "ComposeCluster[" + project + ", lb " + lb + "]";
    }

    // --- start -----------------------------------------------------------------------------------------------------

    private void buildImages() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Command.Result built = Command.run(List.of(root.resolve("docker/build-images.sh").toString(), TAG), root,
                1800);
        imageBuild = Duration.ofNanos(System.nanoTime() - t0);
        if (built.exitCode() != 0) {
            throw new IllegalStateException("docker/build-images.sh failed:\n" + tail(built.output()));
        }
        for (String line : built.output().lines().toList()) {
            if (line.matches("MEDJAVA_[A-Z0-9_]+=\\S+")) {
                String[] kv = line.split("=", 2);
                env.put(kv[0], kv[1]);
            }
        }
        System.out.printf("ComposeCluster: images built in %.1f s:%n%s%n", imageBuild.toMillis() / 1000.0,
                built.output().lines().filter(l -> l.startsWith("build-images.sh:")).toList());
    }

    private void up() throws IOException, InterruptedException {
        env.put("MEDJAVA_ADMIN_PASSWORD", ADMIN_PASSWORD);
        // loopback only, on free ports the engine picks
        env.put("MEDJAVA_PORT", "127.0.0.1:0");
        env.put("MEDJAVA_DICOM_PORT", "127.0.0.1:0");
        env.put("MEDJAVA_PUBLIC_URL", "http://127.0.0.1");
        // three nodes, PostgreSQL and S3Proxy on two shared cores: what ClusterHarness gives its nodes
        env.put("MEDJAVA_JAVA_OPTS", "-Xmx384m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError");
        long t0 = System.nanoTime();
        // lb and what it depends on: every service but the Orthanc peer
        Command.Result up = compose(1200, "up", "-d", "--no-build", "lb");
        if (up.exitCode() != 0) {
            throw new IllegalStateException("docker compose up failed:\n" + tail(up.output()) + "\n" + tail(logs()));
        }
        String published = compose(60, "port", "lb", "8080").assertOk().output().strip();
        lb = URI.create("http://" + published.lines().reduce((a, b) -> b).orElseThrow() + "/");
        awaitAnswer(lb.resolve("/health/ready"), Duration.ofMinutes(2));
        startup = Duration.ofNanos(System.nanoTime() - t0);
        System.out.printf("ComposeCluster: %s up in %.1f s%n", this, startup.toMillis() / 1000.0);
    }

    private void awaitHealthy(String service, Duration within) throws IOException, InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        String id = compose(60, "ps", "-q", service).assertOk().output().strip();
        String status = "";
        while (System.nanoTime() < end) {
            status = Command.run(List.of("docker", "inspect", "--format", "{{.State.Status}} {{if .State.Health}}"
                    + "{{.State.Health.Status}}{{else}}healthy{{end}}", id), null, 30).output().strip();
            if (status.equals("running healthy")) {
                return;
            }
            Thread.sleep(1_000);
        }
        throw new IllegalStateException(service + " not healthy within " + within + ": " + status);
    }

    private static void awaitAnswer(URI uri, Duration within) throws InterruptedException {
        long end = System.nanoTime() + within.toNanos();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        while (true) {
            try {
                int status = http.send(java.net.http.HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // nginx not listening yet
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException(uri + " did not answer 200 within " + within);
            }
            Thread.sleep(500);
        }
    }

    private Command.Result compose(int timeoutSeconds, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(compose);
        command.addAll(List.of("-p", project, "-f", root.resolve("docker/compose.yaml").toString()));
        command.addAll(List.of(args));
        return Command.run(command, root, timeoutSeconds, env);
    }

    /** {@code docker-compose} (Debian's 1.29) or {@code docker compose} (v2), whichever runs; null if neither. */
    private static List<String> composeCommand() {
        for (List<String> candidate : List.of(List.of("docker-compose"), List.of("docker", "compose"))) {
            List<String> version = new ArrayList<>(candidate);
            version.add("version");
            try {
                if (Command.run(version, null, 30).exitCode() == 0) {
                    return candidate;
                }
            } catch (IOException notThere) {
                // the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private static String tail(String output) {
        return output.length() > 6000 ? output.substring(output.length() - 6000) : output;
    }
}
