package org.medjava.store.testkit.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.peers.LocalPostgres;
import org.medjava.store.testkit.peers.Nginx;
import org.medjava.store.testkit.peers.S3ProxyServer;
import org.medjava.store.testkit.store.PayaraStore;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A whole store cluster on this machine, every part real and started as its own process: one private PostgreSQL
 * ({@link LocalPostgres}: the shared index and the coordination), one S3Proxy ({@link S3ProxyServer}: the shared
 * objects, one bucket), N image-store nodes on Payara Micro ({@link PayaraStore}: {@code node1} ... {@code nodeN},
 * each with its own port and data directory) and one nginx load balancing over them ({@link Nginx}). For the
 * image-store module's integration tests (it needs the failsafe system properties {@code store.war},
 * {@code payara.jar}, {@code store.plugins}, {@code s3proxy.jar}).
 *
 * <p>Only node 1 seeds (sample images and plugins): a cluster is seeded once. Node 1 starts first (it creates the
 * schema and seeds), the others together once it is ready; {@link Builder#allAtOnce()} starts all together.
 *
 * <p>{@code medjava.cluster.enabled=true} is passed to the nodes when {@code -Dcluster.coordination=true}, or, with
 * that property unset, when the built WAR's StoreConfig knows the setting.
 *
 * <p>Nodes are numbered from 1. {@link #close()} stops everything, also after failures; a JVM shutdown hook does the
 * same if a test does not get there. Node logs stay in {@code target/it-logs} ({@code nodeI-<n>.log}), and nginx's
 * logs are copied there ({@code cluster-nginx-*.log}) on close.
 */
public final class ClusterHarness implements AutoCloseable {

    public static final String BUCKET = "medjava-cluster";
    public static final String PREFIX = "images";
    /** The nodes' database and their role, which owns it and is no superuser. */
    public static final String DATABASE = "cluster";
    public static final String NODE_ROLE = "medjava_node";
    private static final String NODE_PASSWORD = "node-secret";
    public static final String CLUSTER_PROPERTY = "medjava.cluster.enabled";

    private final Builder settings;
    private final Path dir;
    private final List<PayaraStore> nodes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::closeQuietly, "stop ClusterHarness");
    private LocalPostgres postgres;
    private String databaseUrl;
    private S3ProxyServer s3Server;
    private S3Client s3;
    private Nginx nginx;
    private Duration startupTime;
    private boolean closed;
    private final WriteSeams seams;
    private final List<Integer> spareSlots = new ArrayList<>();

    /** What the cluster looks like. */
    public static final class Builder {
        private final int size;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private String heap = "384m";
        private boolean seed = true;
        private boolean allAtOnce;
        private int spares;
        private Boolean coordination;

        private Builder(int size) {
            if (size < 1) {
                throw new IllegalArgumentException("a cluster of " + size + " nodes");
            }
            this.size = size;
        }

        /** A {@code medjava.*} setting for every node. */
        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        /** Each node's {@code -Xmx} (384m unless set). */
        public Builder heap(String heap) {
            this.heap = heap;
            return this;
        }

        /** Whether node 1 seeds the sample images and the plugins (it does unless told not to). */
        public Builder seed(boolean seed) {
            this.seed = seed;
            return this;
        }

        /** Start all nodes at the same time, node 1 included (the coordination's start-up races). */
        public Builder allAtOnce() {
            this.allAtOnce = true;
            return this;
        }

        /**
         * Spare slots in the load balancer's upstream list: ports where no node runs yet, for {@link #addNode()}.
         * nginx treats them as failed nodes (a refused connection, the request going on to the next node) until a
         * node opens its port there, so a node joins without a reload of nginx.
         */
        public Builder spares(int spares) {
            this.spares = spares;
            return this;
        }

        /** Pass {@code medjava.cluster.enabled=true} or not, whatever the default (see the class comment). */
        public Builder coordination(boolean enabled) {
            this.coordination = enabled;
            return this;
        }

        public ClusterHarness start() throws IOException, InterruptedException {
            ClusterHarness cluster = new ClusterHarness(this);
            Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
            try {
                cluster.startAll();
                return cluster;
            } catch (IOException | InterruptedException | RuntimeException | Error e) {
                cluster.close();
                throw e;
            }
        }
    }

    public static Builder nodes(int size) {
        return new Builder(size);
    }

    private ClusterHarness(Builder settings) throws IOException {
        this.settings = settings;
        Path target = Path.of(System.getProperty("store.war")).getParent();
        this.dir = Files.createTempDirectory(target, "it-cluster-");
        this.seams = new WriteSeams(Files.createDirectories(dir.resolve("seams")));
    }

    /** Where a test holds a node's write at one of its steps (every node of this cluster is started with them). */
    public WriteSeams seams() {
        return seams;
    }

    // --- what the tests use -------------------------------------------------------------------------------------

    /** The load balancer's URI for {@code path}: the one address clients use. */
    public URI lb(String path) {
        return nginx.uri(path);
    }

    public Nginx nginx() {
        return nginx;
    }

    public int size() {
        return nodes.size();
    }

    /** Node {@code i} (from 1) as it runs now (a restart replaces it). */
    public synchronized PayaraStore node(int i) {
        return nodes.get(index(i));
    }

    /** Node {@code i}'s own URI for {@code path}, around the load balancer. */
    public URI nodeUri(int i, String path) {
        return node(i).uri(path);
    }

    public synchronized List<PayaraStore> nodes() {
        return List.copyOf(nodes);
    }

    /** An S3 client for the bucket behind the nodes' backs ({@link #bucket()}, keys under {@link #prefix()}/). */
    public S3Client s3() {
        return s3;
    }

    public String bucket() {
        return BUCKET;
    }

    public String prefix() {
        return PREFIX;
    }

    public S3ProxyServer s3Server() {
        return s3Server;
    }

    public LocalPostgres postgres() {
        return postgres;
    }

    /** Whether the nodes run with {@code medjava.cluster.enabled=true}. */
    public boolean coordination() {
        return settings.coordination;
    }

    /** From the start of PostgreSQL to nginx answering over ready nodes. */
    public Duration startupTime() {
        return startupTime;
    }

    /** Kills node {@code i} as a crash would ({@code kill -9}); the load balancer is not told. */
    public void kill(int i) throws InterruptedException {
        node(i).kill();
    }

    /**
     * Starts node {@code i} again (killed, stopped or running: stopped first) on its port with its data directory,
     * and returns it once ready. The load balancer is not touched: the node's port is closed while it is down and
     * opens only once the store is deployed (its front waits for that), and nginx's passive checks send requests
     * elsewhere meanwhile — as in production, where nginx is never reloaded for a node's restart.
     */
    public PayaraStore restart(int i) throws IOException, InterruptedException {
        PayaraStore fresh = node(i).restart();
        synchronized (this) {
            nodes.set(index(i), fresh);
        }
        return fresh;
    }

    /**
     * Starts one more node (the next number) on a spare slot of the load balancer ({@link Builder#spares}), and
     * returns it once ready: it joins without a reload of nginx.
     *
     * @throws IllegalStateException when no spare slot is left
     */
    public PayaraStore addNode() throws IOException, InterruptedException {
        int slot;
        int number;
        synchronized (this) {
            if (spareSlots.isEmpty()) {
                throw new IllegalStateException("no spare slot left in the load balancer (Builder.spares)");
            }
            slot = spareSlots.remove(0);
            number = nodes.size() + 1;
        }
        PayaraStore node = nodeBuilder(number, nginx.port()).port(slot).launch();
        synchronized (this) {
            nodes.add(node);
        }
        node.awaitReady();
        return node;
    }

    /** Stops PostgreSQL and starts it again on the same port with the same data (the nodes stay up). */
    public void restartPostgres() {
        postgres.restart();
    }

    /** Stops everything (nginx, the nodes, S3Proxy, PostgreSQL), whatever state it is in. Idempotent. */
    @Override
    public void close() {
        closeQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to
        }
    }

    @Override
    public String toString() {
        return "ClusterHarness[lb " + (nginx == null ? "-" : nginx.port()) + ", nodes " + nodes.stream()
                .map(n -> n.name() + "@" + n.port()).toList() + ", " + postgres + ", s3 "
                + (s3Server == null ? "-" : s3Server.endpoint()) + "]";
    }

    // --- start and stop -------------------------------------------------------------------------------------------

    private void startAll() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        if (settings.coordination == null) {
            String explicit = System.getProperty("cluster.coordination");
            settings.coordination = explicit != null ? Boolean.parseBoolean(explicit) : warKnowsCluster();
        }
        // PostgreSQL's default max_connections, and a role that is no superuser: what a deployment should have
        postgres = LocalPostgres.start(100);
        databaseUrl = postgres.createOwnedDatabase(DATABASE, NODE_ROLE, NODE_PASSWORD);
        s3Server = S3ProxyServer.start(dir.resolve("s3"));
        s3Server.createBucket(BUCKET);
        s3 = s3Server.client();
        int lbPort = Ports.free();
        List<PayaraStore.Builder> builders = new ArrayList<>();
        for (int i = 1; i <= settings.size; i++) {
            builders.add(nodeBuilder(i, lbPort));
        }
        if (settings.allAtOnce || settings.size == 1) {
            launchAndAwait(builders);
        } else {
            launchAndAwait(builders.subList(0, 1));
            launchAndAwait(builders.subList(1, builders.size()));
        }
        List<Integer> upstreams = new ArrayList<>(nodes().stream().map(PayaraStore::port).toList());
        for (int k = 0; k < settings.spares; k++) {
            int spare = Ports.free();
            spareSlots.add(spare);
            upstreams.add(spare);
        }
        nginx = Nginx.start(dir.resolve("nginx"), lbPort, upstreams);
        startupTime = Duration.ofNanos(System.nanoTime() - t0);
        System.out.printf("ClusterHarness: %d nodes up in %.1f s (coordination %s): %s%n", settings.size,
                startupTime.toMillis() / 1000.0, settings.coordination ? "on" : "off", this);
    }

    private PayaraStore.Builder nodeBuilder(int i, int lbPort) throws IOException {
        String name = "node" + i;
        PayaraStore.Builder b = PayaraStore.named(name)
                .heap(settings.heap)
                // on few cores, N JVMs starting together fight for the CPU: C1 only and the serial collector
                // start Payara faster, and these nodes live for one test class
                .jvmOption("-XX:TieredStopAtLevel=1")
                .jvmOption("-XX:+UseSerialGC")
                .jvmOption(seams.jvmOption())
                .dataDir(Files.createDirectories(dir.resolve(name)))
                .port(Ports.free())
                .property("medjava.public-url", "http://127.0.0.1:" + lbPort)
                .property("medjava.db.url", databaseUrl)
                .property("medjava.db.user", NODE_ROLE)
                .property("medjava.db.password", NODE_PASSWORD)
                .property("medjava.storage", "s3")
                .property("medjava.storage.s3.endpoint", s3Server.endpoint().toString())
                .property("medjava.storage.s3.bucket", BUCKET)
                .property("medjava.storage.s3.prefix", PREFIX)
                .property("medjava.storage.s3.access-key", S3ProxyServer.ACCESS_KEY)
                .property("medjava.storage.s3.secret-key", S3ProxyServer.SECRET_KEY)
                .property("medjava.cluster.node", name)
                // behind nginx, as in docker/compose.yaml and ./medjava cluster (ClusterTopologyTest keeps them alike)
                .property("medjava.http.trust-forwarded", "true");
        if (settings.coordination) {
            b.property(CLUSTER_PROPERTY, "true");
        }
        if (settings.seed && i == 1) {
            b.property("medjava.seed.images", Samples.dir().toString()).seedPlugins();
        }
        settings.properties.forEach(b::property);
        return b;
    }

    /**
     * A builder for one more node configured like the others (same database, storage and coordination), not part of
     * the cluster's node list: for tests of a node that must be refused. The caller stops what it launches.
     */
    public PayaraStore.Builder extraNode(String name) throws IOException {
        PayaraStore.Builder b = nodeBuilder(99, nginx.port());
        b.property("medjava.cluster.node", name).dataDir(Files.createDirectories(dir.resolve(name)));
        return b;
    }

    /** Launches these nodes together and waits for each (the slowest sets the time). */
    private void launchAndAwait(List<PayaraStore.Builder> builders) throws IOException, InterruptedException {
        List<PayaraStore> launched = new ArrayList<>();
        for (PayaraStore.Builder b : builders) {
            PayaraStore node = b.launch();
            launched.add(node);
            synchronized (this) {
                nodes.add(node);
            }
        }
        for (PayaraStore node : launched) {
            try {
                node.awaitReady();
            } catch (IllegalStateException e) {
                throw new IllegalStateException(e.getMessage() + (settings.coordination ? "\n(the nodes ran with "
                        + CLUSTER_PROPERTY + "=true)" : ""), e);
            }
        }
    }

    private synchronized void closeQuietly() {
        if (closed) {
            return;
        }
        closed = true;
        List<Throwable> problems = new ArrayList<>();
        if (nginx != null) {
            run(problems, nginx::close);
            run(problems, this::keepNginxLogs);
        }
        // SIGTERM to all first, then wait for each: the nodes stop together
        for (PayaraStore node : nodes) {
            run(problems, () -> node.process().destroy());
        }
        for (PayaraStore node : nodes) {
            run(problems, node::stop);
        }
        if (s3 != null) {
            run(problems, s3::close);
        }
        if (s3Server != null) {
            run(problems, s3Server::close);
        }
        if (postgres != null) {
            run(problems, postgres::close);
        }
        run(problems, () -> deleteTree(dir));
        if (!problems.isEmpty()) {
            System.err.println("ClusterHarness: trouble while stopping: " + problems);
        }
    }

    private void keepNginxLogs() throws IOException {
        Path logs = Files.createDirectories(dir.getParent().resolve("it-logs"));
        String id = dir.getFileName().toString().replace("it-cluster-", "");
        for (String name : List.of("access.log", "error.log")) {
            Path log = nginx.directory().resolve("logs").resolve(name);
            if (Files.exists(log)) {
                Files.copy(log, logs.resolve("cluster-nginx-" + id + "-" + name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void run(List<Throwable> problems, Step step) {
        try {
            step.run();
        } catch (Exception | Error e) {
            problems.add(e);
        }
    }

    private int index(int i) {
        if (i < 1 || i > nodes.size()) {
            throw new IllegalArgumentException("no node " + i + " (nodes are 1.." + nodes.size() + ")");
        }
        return i - 1;
    }

    /** Whether the WAR's StoreConfig names {@value #CLUSTER_PROPERTY} (the coordination code is in). */
    static boolean warKnowsCluster() {
        String war = System.getProperty("store.war");
        try (ZipFile zip = new ZipFile(war)) {
            ZipEntry config = zip.getEntry("WEB-INF/classes/org/medjava/store/server/config/StoreConfig.class");
            if (config == null) {
                return false;
            }
            try (InputStream in = zip.getInputStream(config)) {
                return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1).contains(CLUSTER_PROPERTY);
            }
        } catch (IOException e) {
            return false;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
