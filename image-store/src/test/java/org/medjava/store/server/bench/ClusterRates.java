package org.medjava.store.server.bench;

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
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.peers.LocalPostgres;
import org.medjava.store.testkit.peers.Nginx;
import org.medjava.store.testkit.store.PayaraStore;

/**
 * Throughput of the store through a load balancer with 1, 2 and 3 coordinated nodes (one PostgreSQL, one S3Proxy),
 * of one node on local files and H2 (the baseline), and of Orthanc on the same machine (SQLite and files; one and two
 * servers on one PostgreSQL): GETs of one 39 KB DICOM, PUTs and STOW-RS of new 39 KB DICOMs (Orthanc: POST
 * /instances), each cell {@code bench.seconds} s of {@code wrk} with {@code bench.connections} connections, the
 * same nginx configuration ({@link Nginx}) in front of every target. Then a failover: a PUT load through the load
 * balancer over 3 nodes while node 2 is killed with {@code kill -9}, the time until no request fails for 1 s, and a
 * read-back of every acknowledged PUT.
 *
 * <p>Every cell also records the CPU time each part used (from /proc: the store JVMs, PostgreSQL, S3Proxy, nginx,
 * Orthanc, the load generator, and whatever else ran on the machine), since all of them share the same cores.
 *
 * <p>A measuring tool, not a test: {@code image-store/src/test/scripts/cluster-rates.sh}; nothing is asserted.
 * All servers are on 127.0.0.1 (the script runs this JVM in a private network namespace when it can).
 */
public final class ClusterRates {

    private static final int SECONDS = Integer.getInteger("bench.seconds", 12);
    /**
     * Seconds of GET and of PUT load (half as much STOW-RS) before a store is measured: Payara's GET path reaches its
     * steady state only after ~30-40 s of load on this machine (C2 compilation); Orthanc gets a few seconds.
     */
    private static final int WARM_UP = Integer.getInteger("bench.warmup", 25);
    private static final int CONNECTIONS = Integer.getInteger("bench.connections", 6);
    private static final String HEAP = System.getProperty("bench.heap", "512m");
    /** Seconds of PUT load before and after the kill in the failover run. */
    private static final int FAILOVER_BEFORE = 3;
    private static final int FAILOVER_AFTER = Integer.getInteger("bench.failover.seconds", 12);
    /** The template's UIDs end with these 20 characters; copies replace them with 20 digits. */
    private static final String TAIL = "20040119072730.12322";
    private static final String SOP = "1.3.6.1.4.1.5962.1.1.1.1.1." + TAIL;
    private static final String BUCKET = "medjava-bench";
    private static final String S3_KEY = "bench-access";
    private static final String S3_SECRET = "bench-secret-0123456789";
    private static final long TICK_HZ = 100; // getconf CLK_TCK on Linux
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    private static final AtomicInteger CELLS = new AtomicInteger(100);
    /** Every server process this run starts: killed by a shutdown hook if the run is interrupted. */
    private static final List<Process> STARTED = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static Path lua;
    private static Path templateFile;
    private static byte[] template;
    private static final List<Row> ROWS = new ArrayList<>();
    private static final StringBuilder NOTES = new StringBuilder();

    /** One measured cell. */
    private record Row(String target, String workload, Wrk result, Map<String, Double> cpu) {
    }

    /** wrk's figures for one run. */
    private record Wrk(long requests, double seconds, long statusErrors, long socketErrors, double p50ms,
            double p99ms, double maxMs, String output) {
        double okRate() {
            return (requests - statusErrors - socketErrors) / seconds;
        }

        long errors() {
            return statusErrors + socketErrors;
        }
    }

    private ClusterRates() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(System.getProperty("medjava.root", "."));
        lua = root.resolve("image-store/src/test/scripts/cluster-rates.lua").toAbsolutePath();
        if (!Files.isRegularFile(lua)) {
            throw new IllegalStateException("no wrk script at " + lua + " (set -Dmedjava.root)");
        }
        Path work = Path.of(System.getProperty("store.war")).getParent();
        template = Files.readAllBytes(Samples.dicom("CT_small.dcm"));
        templateFile = Files.write(work.resolve("CT_small.dcm"), template);
        List<String> only = Arrays.asList(System.getProperty("bench.only", "single,cluster,orthanc").split(","));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> STARTED.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }), "stop ClusterRates' servers"));
        long t0 = System.nanoTime();
        System.out.printf(Locale.ROOT, "ClusterRates: %d CPUs, Java %s, %d s per cell (%d s warm-up), %d connections,"
                + " node heap %s, work dir %s%n", CPUS, System.getProperty("java.version"), SECONDS, WARM_UP,
                CONNECTIONS, HEAP, work);
        if (only.contains("single")) {
            single(work);
        }
        String failover = "";
        if (only.contains("cluster")) {
            failover = cluster(work);
        }
        if (only.contains("orthanc")) {
            orthanc(work);
        }
        System.out.println("\n" + report(failover));
        System.out.printf(Locale.ROOT, "ClusterRates: done in %.0f s%n", (System.nanoTime() - t0) / 1e9);
    }

    // --- the targets ------------------------------------------------------------------------------------------------

    /** One node, H2 and local files (PayaraStore's defaults), behind the same nginx as the cluster. */
    private static void single(Path work) throws Exception {
        long t = System.nanoTime();
        PayaraStore launched = PayaraStore.named("bench-single").heap(HEAP).launch();
        STARTED.add(launched.process());
        launched.awaitReady();
        try (PayaraStore store = launched) {
            System.out.printf(Locale.ROOT, "single node up in %.0f s%n", (System.nanoTime() - t) / 1e9);
            Nginx nginx = Nginx.start(work.resolve("nginx-single"), List.of(store.port()));
            try {
                Map<String, Supplier<List<Long>>> parts = new LinkedHashMap<>();
                parts.put("store", () -> List.of(store.process().pid()));
                parts.put("nginx", () -> nginxPids(nginx));
                String base = "http://127.0.0.1:" + nginx.port();
                String get = storeObject(base);
                String target = "MedJava 1 node, files + H2";
                storeWarmUp(base, get, parts);
                ROWS.add(measure(target, "GET", parts, () -> wrk(base, "get", get, PayaraStore.admin(), SECONDS)));
                // the load balancer's own cost: the same GETs straight to the node, right after
                ROWS.add(measure(target + ", no LB", "GET", parts,
                        () -> wrk("http://127.0.0.1:" + store.port(), "get", get, PayaraStore.admin(), SECONDS)));
                ingestCells(target, base, parts);
            } finally {
                nginx.close();
            }
        }
    }

    /**
     * PostgreSQL, S3Proxy and three nodes with {@code medjava.cluster.enabled=true}, nginx over 1, 2 and 3 of them
     * (the others idle), then the failover. Returns the failover's report.
     */
    private static String cluster(Path work) throws Exception {
        long t = System.nanoTime();
        try (LocalPostgres pg = LocalPostgres.start(); S3Proxy s3 = S3Proxy.start(work.resolve("s3"))) {
            int lbPort = Ports.free();
            List<PayaraStore> nodes = new ArrayList<>();
            Nginx nginx = null;
            try {
                for (int i = 1; i <= 3; i++) {
                    PayaraStore node = node(work, i, lbPort, pg, s3).launch();
                    STARTED.add(node.process());
                    nodes.add(node);
                    if (i == 1) {
                        node.awaitReady(); // node 1 alone creates the schema
                    }
                }
                for (PayaraStore node : nodes) {
                    node.awaitReady();
                }
                System.out.printf(Locale.ROOT, "cluster (PostgreSQL, S3Proxy, 3 nodes) up in %.0f s%n",
                        (System.nanoTime() - t) / 1e9);
                nginx = Nginx.start(work.resolve("nginx-cluster"), lbPort, ports(nodes));
                Nginx lb = nginx;
                Map<String, Supplier<List<Long>>> parts = new LinkedHashMap<>();
                parts.put("store", () -> nodes.stream().filter(PayaraStore::isAlive).map(n -> n.process().pid())
                        .toList());
                parts.put("postgres", () -> postgresPids(pg));
                parts.put("s3proxy", () -> List.of(s3.pid()));
                parts.put("nginx", () -> nginxPids(lb));
                String base = "http://127.0.0.1:" + lbPort;
                String get = storeObject(base);
                storeWarmUp(base, get, parts); // all three nodes, so that each has compiled its hot paths
                for (int n = 1; n <= 3; n++) {
                    nginx.upstreams(ports(nodes.subList(0, n)));
                    storeCells("MedJava cluster, " + n + " node" + (n > 1 ? "s" : ""), base, get, parts);
                    if (n == 1) { // as the single node's: the same GETs straight to node 1, without nginx's cost
                        String node1 = "http://127.0.0.1:" + nodes.get(0).port();
                        ROWS.add(measure("MedJava cluster, 1 node, no LB", "GET", parts,
                                () -> wrk(node1, "get", get, PayaraStore.admin(), SECONDS)));
                    }
                }
                return failover(base, nodes);
            } finally {
                if (nginx != null) {
                    nginx.close();
                }
                for (PayaraStore node : nodes) {
                    node.process().destroy();
                }
                for (PayaraStore node : nodes) {
                    node.stop();
                }
            }
        }
    }

    private static PayaraStore.Builder node(Path work, int i, int lbPort, LocalPostgres pg, S3Proxy s3)
            throws IOException {
        String name = "node" + i;
        // the settings of ClusterHarness's nodes and of ./medjava cluster, with the JVM as ./medjava cluster runs it
        // (-Xmx only: the default tiered compilation, unlike the tests' C1-only nodes)
        return PayaraStore.named(name).heap(HEAP)
                .dataDir(Files.createDirectories(work.resolve(name)))
                .port(Ports.free())
                .property("medjava.public-url", "http://127.0.0.1:" + lbPort)
                .property("medjava.db.url", pg.jdbcUrl())
                .property("medjava.db.user", pg.user())
                .property("medjava.db.password", pg.password())
                .property("medjava.storage", "s3")
                .property("medjava.storage.s3.endpoint", s3.endpoint())
                .property("medjava.storage.s3.bucket", BUCKET)
                .property("medjava.storage.s3.prefix", "images")
                .property("medjava.storage.s3.access-key", S3_KEY)
                .property("medjava.storage.s3.secret-key", S3_SECRET)
                .property("medjava.cluster.node", name)
                .property("medjava.cluster.enabled", "true");
    }

    /** Orthanc alone (SQLite and files), then one and two Orthanc servers on one PostgreSQL (index and storage). */
    private static void orthanc(Path work) throws Exception {
        // 1. Orthanc's defaults: SQLite index, files
        {
            OrthancServer o = OrthancServer.start(work.resolve("orthanc-sqlite"), null);
            Nginx nginx = Nginx.start(work.resolve("nginx-orthanc-sqlite"), List.of(o.port));
            try {
                Map<String, Supplier<List<Long>>> parts = new LinkedHashMap<>();
                parts.put("orthanc", () -> List.of(o.pid()));
                parts.put("nginx", () -> nginxPids(nginx));
                orthancCells("Orthanc 1 server, SQLite + files", "http://127.0.0.1:" + nginx.port(), o, parts,
                        true);
            } finally {
                nginx.close();
                o.close();
            }
        }
        // 2. the multi-writer set-up: index and storage in one PostgreSQL, "Lock": false
        try (LocalPostgres pg = LocalPostgres.start()) {
            pg.createDatabase("orthanc");
            OrthancServer a = OrthancServer.start(work.resolve("orthanc-a"), pg);
            OrthancServer b = OrthancServer.start(work.resolve("orthanc-b"), pg); // after a: the schema exists
            Nginx nginx = Nginx.start(work.resolve("nginx-orthanc"), List.of(a.port));
            try {
                Map<String, Supplier<List<Long>>> parts = new LinkedHashMap<>();
                parts.put("orthanc", () -> List.of(a.pid(), b.pid()));
                parts.put("postgres", () -> postgresPids(pg));
                parts.put("nginx", () -> nginxPids(nginx));
                String base = "http://127.0.0.1:" + nginx.port();
                orthancCells("Orthanc 1 server, PostgreSQL", base, a, parts, true);
                nginx.upstreams(List.of(a.port, b.port));
                orthancCells("Orthanc 2 servers, PostgreSQL", base, a, parts, false);
            } finally {
                nginx.close();
                a.close();
                b.close();
            }
        }
    }

    // --- the cells ----------------------------------------------------------------------------------------------------

    private static void storeWarmUp(String base, String get, Map<String, Supplier<List<Long>>> parts)
            throws Exception {
        System.out.printf("warm-up: %d s GET, %d s PUT, %d s STOW-RS%n", WARM_UP, WARM_UP, WARM_UP / 2);
        check(wrk(base, "get", get, PayaraStore.admin(), WARM_UP), "warm-up GET");
        check(wrk(base, "put", "/images/bench", PayaraStore.admin(), WARM_UP), "warm-up PUT");
        check(wrk(base, "stow", "/dicomweb/studies", PayaraStore.admin(), WARM_UP / 2), "warm-up STOW-RS");
    }

    private static void storeCells(String target, String base, String get, Map<String, Supplier<List<Long>>> parts)
            throws Exception {
        ROWS.add(measure(target, "GET", parts, () -> wrk(base, "get", get, PayaraStore.admin(), SECONDS)));
        ingestCells(target, base, parts);
    }

    private static void ingestCells(String target, String base, Map<String, Supplier<List<Long>>> parts)
            throws Exception {
        ROWS.add(measure(target, "PUT", parts, () -> wrk(base, "put", "/images/bench", PayaraStore.admin(),
                SECONDS)));
        ROWS.add(measure(target, "STOW-RS", parts, () -> wrk(base, "stow", "/dicomweb/studies",
                PayaraStore.admin(), SECONDS)));
    }

    private static void orthancCells(String target, String base, OrthancServer any,
            Map<String, Supplier<List<Long>>> parts, boolean warmUp) throws Exception {
        String id = any.upload(template);
        String get = "/instances/" + id + "/file";
        if (warmUp) {
            System.out.println("warm-up: 5 s GET, 5 s POST");
            check(wrk(base, "get", get, null, 5), "Orthanc warm-up GET");
            check(wrk(base, "post", "/instances", null, 5), "Orthanc warm-up POST");
        }
        ROWS.add(measure(target, "GET", parts, () -> wrk(base, "get", get, null, SECONDS)));
        ROWS.add(measure(target, "PUT", parts, () -> wrk(base, "post", "/instances", null, SECONDS)));
    }

    private interface Load {
        Wrk run() throws Exception;
    }

    /** Runs one cell and records the CPU time of each part meanwhile. */
    private static Row measure(String target, String workload, Map<String, Supplier<List<Long>>> parts, Load load)
            throws Exception {
        Map<String, Long> before = cpu(parts);
        long[] machineBefore = machine();
        long t = System.nanoTime();
        Wrk r = load.run();
        double elapsed = (System.nanoTime() - t) / 1e9;
        Map<String, Long> after = cpu(parts);
        long[] machineAfter = machine();
        Map<String, Double> share = new LinkedHashMap<>(); // % of all cores
        double capacity = elapsed * TICK_HZ * CPUS / 100.0;
        long mine = 0;
        for (String part : after.keySet()) {
            long ticks = after.get(part) - before.getOrDefault(part, 0L);
            mine += ticks;
            share.put(part, ticks / capacity);
        }
        long busy = machineAfter[0] - machineBefore[0];
        long total = machineAfter[1] - machineBefore[1];
        share.put("other", Math.max(0, busy - mine) * 100.0 / total);
        share.put("idle", (total - busy) * 100.0 / total);
        Row row = new Row(target, workload, r, share);
        System.out.printf(Locale.ROOT, "%-36s %-8s %7.0f req/s  p50 %6.1f ms  p99 %6.1f ms  errors %d  cpu %s%n",
                target, workload, r.okRate(), r.p50ms(), r.p99ms(), r.errors(), cpuLine(share));
        if (r.errors() > 0) {
            System.out.println("  wrk: " + r.output().strip().replace("\n", "\n  wrk: "));
        }
        return row;
    }

    // --- wrk --------------------------------------------------------------------------------------------------------

    private static final Pattern RESULT = Pattern.compile("RESULT requests=(\\d+) duration_us=(\\d+) status=(\\d+) "
            + "connect=(\\d+) read=(\\d+) write=(\\d+) timeout=(\\d+) p50_us=(\\d+) p99_us=(\\d+) max_us=(\\d+)");

    private static Wrk wrk(String base, String mode, String path, String authorization, int seconds)
            throws IOException, InterruptedException {
        int cell = CELLS.getAndIncrement();
        int threads = Math.min(2, CONNECTIONS);
        List<String> cmd = List.of("wrk", "-t" + threads, "-c" + CONNECTIONS, "-d" + seconds + "s", "--timeout",
                "30s", "-s", lua.toString(), base + "/", "--", mode, templateFile.toString(), path,
                Integer.toString(cell), authorization == null ? "-" : authorization);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        STARTED.add(p);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("wrk did not stop: " + out);
        }
        Matcher m = RESULT.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("no RESULT line from wrk (exit " + p.exitValue() + "): " + out);
        }
        long socket = 0;
        for (int g = 4; g <= 7; g++) {
            socket += Long.parseLong(m.group(g));
        }
        return new Wrk(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)) / 1e6, Long.parseLong(m.group(3)),
                socket, Long.parseLong(m.group(8)) / 1e3, Long.parseLong(m.group(9)) / 1e3,
                Long.parseLong(m.group(10)) / 1e3, out);
    }

    private static void check(Wrk r, String what) {
        System.out.printf(Locale.ROOT, "  %s: %.0f req/s, %d errors%n", what, r.okRate(), r.errors());
        if (r.requests() == 0 || r.errors() > r.requests() / 2) {
            throw new IllegalStateException(what + " failed: " + r.output());
        }
    }

    // --- the failover -----------------------------------------------------------------------------------------------

    private record Put(int thread, long n, long start, long end, int status, String error, String upstream) {
        boolean ok() {
            return status == 201 || status == 200 || status == 204;
        }
    }

    /** PUT load through the load balancer over 3 nodes; node 2 is killed after {@value #FAILOVER_BEFORE} s. */
    private static String failover(String base, List<PayaraStore> nodes) throws Exception {
        System.out.printf("failover: PUT load with %d connections, kill -9 of node 2 after %d s, %d s more%n",
                CONNECTIONS, FAILOVER_BEFORE, FAILOVER_AFTER);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        int cell = CELLS.getAndIncrement();
        List<Integer> sop = positions(template, SOP.getBytes(StandardCharsets.US_ASCII));
        long t0 = System.nanoTime();
        long end = t0 + TimeUnit.SECONDS.toNanos(FAILOVER_BEFORE + FAILOVER_AFTER);
        ExecutorService pool = Executors.newFixedThreadPool(CONNECTIONS);
        List<Future<List<Put>>> futures = new ArrayList<>();
        for (int th = 0; th < CONNECTIONS; th++) {
            int thread = th;
            futures.add(pool.submit(() -> {
                List<Put> puts = new ArrayList<>();
                for (long n = 1; n <= 200_000 && System.nanoTime() < end; n++) {
                    byte[] body = copy(cell, thread, n, sop);
                    HttpRequest rq = HttpRequest.newBuilder(URI.create(base + failoverPath(cell, thread, n)))
                            .timeout(Duration.ofSeconds(30)).header("Authorization", PayaraStore.admin())
                            .header("Content-Type", "application/dicom")
                            .PUT(HttpRequest.BodyPublishers.ofByteArray(body)).build();
                    long s = System.nanoTime();
                    try {
                        HttpResponse<String> r = http.send(rq, HttpResponse.BodyHandlers.ofString());
                        puts.add(new Put(thread, n, s - t0, System.nanoTime() - t0, r.statusCode(),
                                r.statusCode() >= 300 ? r.body() : null,
                                r.headers().firstValue("X-Upstream").orElse("?")));
                    } catch (IOException e) {
                        puts.add(new Put(thread, n, s - t0, System.nanoTime() - t0, -1, e.toString(), "?"));
                    }
                }
                return puts;
            }));
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(FAILOVER_BEFORE));
        String dead = "127.0.0.1:" + nodes.get(1).port();
        long killAt = System.nanoTime() - t0;
        nodes.get(1).kill();
        long killed = System.nanoTime() - t0;
        List<Put> all = new ArrayList<>();
        for (Future<List<Put>> f : futures) {
            all.addAll(f.get());
        }
        pool.shutdown();
        all.sort(Comparator.comparingLong(Put::start));

        List<Put> before = all.stream().filter(p -> p.end() < killAt).toList();
        List<Put> after = all.stream().filter(p -> p.end() >= killAt).toList();
        List<Put> failed = after.stream().filter(p -> !p.ok()).toList();
        // the first 1 s window, from the kill on, in which every request that started in it succeeded
        long recovery = -1;
        List<Long> candidates = new ArrayList<>();
        candidates.add(killAt);
        failed.forEach(p -> candidates.add(p.start() + 1));
        for (long w : candidates.stream().sorted().toList()) {
            long wEnd = w + TimeUnit.SECONDS.toNanos(1);
            boolean clean = failed.stream().noneMatch(p -> p.start() >= w && p.start() < wEnd);
            boolean served = all.stream().anyMatch(p -> p.start() >= w && p.start() < wEnd);
            if (clean && served && w >= killAt) {
                recovery = w - killAt;
                break;
            }
        }
        long recoveredAt = killAt + Math.max(recovery, 0);
        long lateFailures = failed.stream().filter(p -> p.start() >= recoveredAt).count();
        double rateBefore = before.stream().filter(Put::ok).count() / (killAt / 1e9);
        double afterSeconds = (all.stream().mapToLong(Put::end).max().orElse(killAt) - killAt) / 1e9;
        double rateAfter = after.stream().filter(Put::ok).count() / afterSeconds;
        double maxAfter = after.stream().mapToLong(p -> p.end() - p.start()).max().orElse(0) / 1e6;
        long hitDead = after.stream().filter(p -> p.upstream().contains(dead)).count();
        Map<String, Long> errorKinds = new LinkedHashMap<>();
        for (Put p : failed) {
            String kind = p.status() < 0 ? p.error().replaceAll(":.*", "") : "HTTP " + p.status();
            errorKinds.merge(kind, 1L, Long::sum);
        }

        // read back every acknowledged write through the load balancer (nodes 1 and 3 now)
        List<Put> acked = all.stream().filter(Put::ok).toList();
        long missing = 0;
        long differ = 0;
        List<String> bad = new ArrayList<>();
        for (Put p : acked) {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(base + failoverPath(cell,
                    p.thread(), p.n()))).timeout(Duration.ofSeconds(30)).header("Authorization", PayaraStore.admin())
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                missing++;
                bad.add(failoverPath(cell, p.thread(), p.n()) + " -> " + r.statusCode());
            } else if (!Arrays.equals(r.body(), copy(cell, p.thread(), p.n(), sop))) {
                differ++;
                bad.add(failoverPath(cell, p.thread(), p.n()) + " -> other bytes");
            }
        }
        // and the failed ones: did any of them land anyway? (allowed: the client was not told it did)
        long landed = 0;
        for (Put p : failed) {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(base + failoverPath(cell,
                    p.thread(), p.n()))).timeout(Duration.ofSeconds(30)).header("Authorization", PayaraStore.admin())
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            if (r.statusCode() == 200) {
                landed++;
            }
        }
        Put last = failed.stream().filter(p -> p.start() < recoveredAt).max(Comparator.comparingLong(Put::start))
                .orElse(null);
        String lastFailure = last == null ? "none"
                : String.format(Locale.ROOT, "started %+.0f ms, answered %+.0f ms", (last.start() - killAt) / 1e6,
                        (last.end() - killAt) / 1e6);
        String report = String.format(Locale.ROOT, """
                | | |
                |---|---|
                | PUTs before the kill (%.1f s) | %d, %d failed, %.0f/s |
                | PUTs after the kill (%.1f s) | %d, **%d failed** %s, %.0f/s |
                | kill -9 took (SIGKILL until the JVM was reaped) | %.0f ms |
                | PUTs after the kill that nginx sent to the dead node (X-Upstream names it) | %d |
                | time from the kill to the first error-free 1 s window | **%s** |
                | the last failed PUT before that window, from the kill | %s |
                | failures after that window | %d |
                | slowest PUT after the kill | %.0f ms |
                | acknowledged PUTs (201) read back through the LB | %d: **%d missing, %d with other bytes** |
                | failed PUTs that were stored anyway | %d of %d |
                """, killAt / 1e9, before.size(), before.stream().filter(p -> !p.ok()).count(), rateBefore,
                afterSeconds, after.size(), failed.size(), errorKinds.isEmpty() ? "" : errorKinds.toString(),
                rateAfter, (killed - killAt) / 1e6, hitDead,
                recovery < 0 ? "never" : String.format(Locale.ROOT, "%.0f ms", recovery / 1e6), lastFailure,
                lateFailures,
                maxAfter, acked.size(), missing, differ, landed, failed.size());
        System.out.println("failover:\n" + report);
        if (!bad.isEmpty()) {
            System.out.println("acknowledged but not read back: " + bad.subList(0, Math.min(20, bad.size())));
        }
        for (Put p : failed.subList(0, Math.min(10, failed.size()))) {
            System.out.printf(Locale.ROOT, "  failed PUT %s at +%.0f ms after the kill (took %.0f ms): %s%n",
                    failoverPath(cell, p.thread(), p.n()), (p.start() - killAt) / 1e6, (p.end() - p.start()) / 1e6,
                    p.status() < 0 ? p.error() : "HTTP " + p.status() + " from " + p.upstream() + ": "
                            + brief(p.error()));
        }
        return report;
    }

    private static String brief(String body) {
        String text = String.valueOf(body).replaceAll("<[^>]*>", " ").replaceAll("\\s+", " ").strip();
        return text.length() > 120 ? text.substring(0, 120) + "..." : text;
    }

    private static String failoverPath(int cell, int thread, long n) {
        return String.format(Locale.ROOT, "/images/bench/failover/%03d/%02d/%d.dcm", cell, thread, n);
    }

    /** The template with its SOP Instance UID (both places) ending in 20 digits of (cell, thread, n). */
    private static byte[] copy(int cell, int thread, long n, List<Integer> sopPositions) {
        byte[] b = template.clone();
        byte[] tail = String.format(Locale.ROOT, "9%03d%02d%014d", cell, thread, n)
                .getBytes(StandardCharsets.US_ASCII);
        for (int at : sopPositions) {
            System.arraycopy(tail, 0, b, at + SOP.length() - TAIL.length(), tail.length);
        }
        return b;
    }

    private static List<Integer> positions(byte[] data, byte[] what) {
        List<Integer> found = new ArrayList<>();
        outer:
        for (int i = 0; i + what.length <= data.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (data[i + j] != what[j]) {
                    continue outer;
                }
            }
            found.add(i);
        }
        if (found.size() != 2) {
            throw new IllegalStateException("CT_small.dcm should hold its SOP Instance UID twice: " + found);
        }
        return found;
    }

    // --- helpers ------------------------------------------------------------------------------------------------------

    /**
     * PUTs the template to /images/bench/ct.dcm and returns the path to GET (checked: same bytes). Reads need a
     * login too (401 without): the GETs send the admin's Basic credentials, which the store verifies once and then
     * finds in its cache of verified passwords.
     */
    private static String storeObject(String base) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String path = "/images/bench/ct.dcm";
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", PayaraStore.admin()).header("Content-Type", "application/dicom")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(template)).build(), HttpResponse.BodyHandlers.ofString());
        if (put.statusCode() != 201 && put.statusCode() != 204 && put.statusCode() != 200) {
            throw new IllegalStateException("PUT " + path + ": " + put.statusCode() + " " + put.body());
        }
        HttpResponse<byte[]> got = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", PayaraStore.admin()).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (got.statusCode() != 200 || !Arrays.equals(got.body(), template)) {
            throw new IllegalStateException("GET " + path + ": " + got.statusCode());
        }
        return path;
    }

    private static List<Integer> ports(List<PayaraStore> nodes) {
        return nodes.stream().map(PayaraStore::port).toList();
    }

    private static List<Long> nginxPids(Nginx nginx) {
        return pidFileTree(nginx.directory().resolve("nginx.pid"));
    }

    private static List<Long> postgresPids(LocalPostgres pg) {
        return pidFileTree(pg.directory().resolve("data/postmaster.pid"));
    }

    /** The process named by the first line of a pid file, and its live descendants. */
    private static List<Long> pidFileTree(Path pidFile) {
        try {
            long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
            List<Long> pids = new ArrayList<>();
            pids.add(pid);
            ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
            return pids;
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /**
     * CPU ticks (user + system, with the children already reaped) of each part; "client" is this JVM with the wrk
     * runs it has reaped.
     */
    private static Map<String, Long> cpu(Map<String, Supplier<List<Long>>> parts) {
        Map<String, Long> ticks = new LinkedHashMap<>();
        for (Map.Entry<String, Supplier<List<Long>>> e : parts.entrySet()) {
            long sum = 0;
            for (long pid : e.getValue().get()) {
                sum += ticks(pid);
            }
            ticks.put(e.getKey(), sum);
        }
        ticks.put("client", ticks(ProcessHandle.current().pid()));
        return ticks;
    }

    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // after "pid (comm) ": state ppid ... utime(14) stime(15) cutime(16) cstime(17), counted from 1
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    /** {busy, total} ticks of the whole machine (/proc/stat). */
    private static long[] machine() throws IOException {
        String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < Math.min(f.length, 9); i++) {
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
        return new long[] {total - idle, total};
    }

    private static String cpuLine(Map<String, Double> share) {
        StringBuilder s = new StringBuilder();
        share.forEach((k, v) -> s.append(k).append(' ').append(String.format(Locale.ROOT, "%.0f", v)).append(' '));
        return s.toString().strip();
    }

    // --- the report ---------------------------------------------------------------------------------------------------

    private static Row row(String target, String workload) {
        return ROWS.stream().filter(r -> r.target().equals(target) && r.workload().equals(workload)).findFirst()
                .orElse(null);
    }

    private static String report(String failover) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT, "Requests/s (successful), p50 and p99 latency"
                + " in ms; %d connections, %d s per cell; CPU: %% of all %d cores during the cell%n%n", CONNECTIONS,
                SECONDS, CPUS));
        t.append("| target | workload | req/s | p50 ms | p99 ms | errors | CPU: store/Orthanc | PostgreSQL | S3Proxy"
                + " | nginx | wrk + bench JVM | other | idle |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : ROWS) {
            Map<String, Double> c = r.cpu();
            t.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.1f | %.1f | %d | %s | %s | %s | %s | %s | %s | %s |%n",
                    r.target(), r.workload(), r.result().okRate(), r.result().p50ms(), r.result().p99ms(),
                    r.result().errors(), pct(c.containsKey("store") ? c.get("store") : c.get("orthanc")),
                    pct(c.get("postgres")), pct(c.get("s3proxy")), pct(c.get("nginx")), pct(c.get("client")),
                    pct(c.get("other")), pct(c.get("idle"))));
        }
        t.append("\nRatios (req/s over req/s, same workload):\n\n| ratio | GET | PUT | STOW-RS |\n|---|---|---|---|\n");
        String single = "MedJava 1 node, files + H2";
        String c1 = "MedJava cluster, 1 node";
        String c2 = "MedJava cluster, 2 nodes";
        String c3 = "MedJava cluster, 3 nodes";
        ratio(t, "cluster 1 node / single node on files + H2", c1, single);
        ratio(t, "the same, both straight to the node (no LB)", c1 + ", no LB", single + ", no LB");
        ratio(t, "cluster 2 nodes / cluster 1 node", c2, c1);
        ratio(t, "cluster 3 nodes / cluster 1 node", c3, c1);
        ratio(t, "single node through nginx / straight to the node", single, single + ", no LB");
        ratio(t, "MedJava single node / Orthanc SQLite + files", single, "Orthanc 1 server, SQLite + files");
        ratio(t, "MedJava cluster 1 node / Orthanc 1 server on PostgreSQL", c1, "Orthanc 1 server, PostgreSQL");
        ratio(t, "MedJava cluster 2 nodes / Orthanc 2 servers on PostgreSQL", c2, "Orthanc 2 servers, PostgreSQL");
        ratio(t, "Orthanc 1 server on PostgreSQL / Orthanc SQLite + files", "Orthanc 1 server, PostgreSQL",
                "Orthanc 1 server, SQLite + files");
        ratio(t, "Orthanc 2 servers / 1 server, PostgreSQL", "Orthanc 2 servers, PostgreSQL",
                "Orthanc 1 server, PostgreSQL");
        if (!failover.isEmpty()) {
            t.append("\nFailover (3 nodes, PUT load through nginx, kill -9 of node 2):\n\n").append(failover);
        }
        return t.append(NOTES).toString();
    }

    private static void ratio(StringBuilder t, String name, String a, String b) {
        StringBuilder line = new StringBuilder("| " + name + " |");
        boolean any = false;
        for (String w : List.of("GET", "PUT", "STOW-RS")) {
            Row x = row(a, w);
            Row y = row(b, w);
            if (x != null && y != null && y.result().okRate() > 0) {
                line.append(String.format(Locale.ROOT, " %.2f |", x.result().okRate() / y.result().okRate()));
                any = true;
            } else {
                line.append(" – |");
            }
        }
        if (any) {
            t.append(line).append('\n');
        }
    }

    private static String pct(Double v) {
        return v == null ? "–" : String.format(Locale.ROOT, "%.0f%%", v);
    }

    // --- S3Proxy and Orthanc as processes -----------------------------------------------------------------------------

    /** S3Proxy as ./medjava cluster runs it (-Xmx256m, serial GC, tiered compilation), file-system backend. */
    private static final class S3Proxy implements AutoCloseable {
        private final Process process;
        private final int port;

        private S3Proxy(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        static S3Proxy start(Path dir) throws IOException, InterruptedException {
            int port = Ports.free();
            Path data = Files.createDirectories(dir.resolve("data"));
            Files.createDirectories(data.resolve(BUCKET)); // a bucket is a directory of the backend
            Path properties = Files.writeString(dir.resolve("s3proxy.properties"), String.join("\n",
                    "s3proxy.endpoint=http://127.0.0.1:" + port,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + S3_KEY,
                    "s3proxy.credential=" + S3_SECRET,
                    "jclouds.provider=filesystem-nio2",
                    "jclouds.identity=unused",
                    "jclouds.credential=unused",
                    "jclouds.filesystem.basedir=" + data, ""));
            String jar = System.getProperty("s3proxy.jar");
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar, "--properties", properties.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("s3proxy.log").toFile());
            pb.environment().put("LOG_LEVEL", "warn");
            S3Proxy s3 = new S3Proxy(pb.start(), port);
            STARTED.add(s3.process);
            try {
                Ports.awaitListening(port, Duration.ofSeconds(60), s3.process, "S3Proxy");
            } catch (RuntimeException e) {
                s3.close();
                throw new IllegalStateException(e.getMessage() + "\n" + Files.readString(dir.resolve("s3proxy.log")),
                        e);
            }
            return s3;
        }

        String endpoint() {
            return "http://127.0.0.1:" + port;
        }

        long pid() {
            return process.pid();
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    /**
     * Debian's Orthanc 1.10 on a loopback HTTP port, DICOM off; with {@code pg}, the PostgreSQL plugins (4.0) keep the
     * index and the files in that server's database {@code orthanc}, {@code "Lock": false} so that several Orthanc
     * servers share it (the plugin's multi-writer mode).
     */
    private static final class OrthancServer implements AutoCloseable {
        private final Process process;
        private final int port;

        private OrthancServer(Process process, int port) {
            this.process = process;
            this.port = port;
        }

        static OrthancServer start(Path dir, LocalPostgres pg) throws IOException, InterruptedException {
            Files.createDirectories(dir.resolve("db"));
            int port = Ports.free();
            String postgres = pg == null ? "" : """
                      "Plugins": ["/usr/share/orthanc/plugins/libOrthancPostgreSQLIndex.so",
                                  "/usr/share/orthanc/plugins/libOrthancPostgreSQLStorage.so"],
                      "PostgreSQL": {"EnableIndex": true, "EnableStorage": true, "Host": "127.0.0.1", "Port": %d,
                                     "Database": "orthanc", "Username": "%s", "Password": "%s", "Lock": false,
                                     "IndexConnectionsCount": 5, "MaximumConnectionRetries": 10,
                                     "ConnectionRetryInterval": 1},
                    """.formatted(pg.port(), pg.user(), pg.password());
            String config = """
                    {
                      "Name": "cluster-rates-%d",
                      "HttpPort": %d,
                      "DicomServerEnabled": false,
                      "RemoteAccessAllowed": false,
                      "AuthenticationEnabled": false,
                      "StorageDirectory": "%s",
                      "IndexDirectory": "%s",
                    %s  "KeepAlive": true,
                      "TcpNoDelay": true,
                      "HttpTimeout": 60
                    }
                    """.formatted(port, port, dir.resolve("db"), dir.resolve("db"), postgres);
            Path configFile = Files.writeString(dir.resolve("orthanc.json"), config);
            Path log = dir.resolve("orthanc.log");
            Process p = new ProcessBuilder("/usr/sbin/Orthanc", configFile.toString()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            OrthancServer o = new OrthancServer(p, port);
            STARTED.add(p);
            try {
                Ports.awaitListening(port, Duration.ofSeconds(60), p, "Orthanc");
            } catch (RuntimeException e) {
                o.close();
                throw new IllegalStateException(e.getMessage() + "; its log:\n" + Files.readString(log), e);
            }
            return o;
        }

        long pid() {
            return process.pid();
        }

        /** POST /instances; returns Orthanc's ID of the instance. */
        String upload(byte[] dicom) throws IOException, InterruptedException {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + port + "/instances")).POST(HttpRequest.BodyPublishers.ofByteArray(dicom))
                    .build(), HttpResponse.BodyHandlers.ofString());
            Matcher m = Pattern.compile("\"ID\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
            if (r.statusCode() != 200 || !m.find()) {
                throw new IllegalStateException("Orthanc POST /instances: " + r.statusCode() + " " + r.body());
            }
            return m.group(1);
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
