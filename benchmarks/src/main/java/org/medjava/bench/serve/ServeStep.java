package org.medjava.bench.serve;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.medjava.bench.BenchPaths;
import org.medjava.bench.transport.MultiFrameDicom;
import org.medjava.bench.transport.StoreHttp;
import org.medjava.bench.transport.StoreServer;

/**
 * The store's GET path side by side with nginx (static files) and Orthanc, issue 21: the same files on all three,
 * started here on loopback ports, loaded in turn by {@code wrk --latency} — store, nginx, Orthanc, store, ... for
 * {@link ServePlan#rounds()} rounds of every case — after a warm-up whose first seconds on the store, just after it
 * started, are recorded as its cold rate (round 0). Each cell also records the server's CPU time (its process and
 * descendants, from /proc) and the 1-minute load average. Writes {@value #CSV}, {@value #NOTES} (versions, what
 * checks authentication, what was left out) and every wrk report to {@value #WRK_LOG}; a cell with a non-2xx
 * response, a socket error or no request at all fails the step after the CSV is written.
 */
public final class ServeStep {
    public static final String CSV = "serve.csv";
    public static final String NOTES = "serve-notes.txt";
    public static final String WRK_LOG = "serve-wrk.log";
    public static final String HEADER =
            "target,case,file_bytes,round,seconds,requests,req_per_s,mib_per_s,p50_ms,p99_ms,non2xx,socket_errors,"
                    + "cpu_s,load1";
    public static final String QUICK_NOTE = "serve: skipped in quick mode (./medjava bench --standard measures the "
            + "store against nginx and Orthanc)";

    /** The servers compared. */
    public enum Target {
        STORE("store", "the store"),
        NGINX("nginx", "nginx"),
        ORTHANC("orthanc", "Orthanc");

        public final String id;
        public final String label;

        Target(String id, String label) {
            this.id = id;
            this.label = label;
        }

        /** What this server checks on the requests of a case: the load sends credentials wherever they are checked. */
        public String authentication(Case c) {
            switch (this) {
                case STORE: return c == Case.LIVENESS ? "none (a liveness probe)" : "HTTP Basic (admin)";
                case ORTHANC: return "HTTP Basic";
                default: return "none (static files)";
            }
        }

        public static Optional<Target> parse(String id) {
            return Arrays.stream(values()).filter(t -> t.id.equals(id)).findFirst();
        }
    }

    /** The measured requests. */
    public enum Case {
        DICOM_39K("dicom-39k", "39 KB DICOM (CT_small.dcm)"),
        MIB_1("1mib", "1 MiB DICOM"),
        LIVENESS("liveness", "liveness: store /health/live, nginx a 2-byte file, Orthanc /system"),
        LARGE("large", "large DICOM, one connection");

        public final String id;
        public final String label;

        Case(String id, String label) {
            this.id = id;
            this.label = label;
        }

        public static Optional<Case> parse(String id) {
            return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst();
        }
    }

    private final Path rawDir;
    private final PrintStream console;
    private final List<String> lines = new ArrayList<>(List.of(HEADER));
    private final List<String> notes = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    public ServeStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    /** The quick run: the step is left out, said in the report. */
    public static void skipQuick(Path rawDir, PrintStream console) throws IOException {
        console.println(QUICK_NOTE);
        Files.write(rawDir.resolve(NOTES), List.of(QUICK_NOTE));
    }

    /** One server as the load sees it: where each case is, what authorization it sends, whose CPU to count. */
    private interface Served {
        Target target();

        URI url(Case c);

        String authorization(Case c);

        long pid();
    }

    public void run(ServePlan plan) throws IOException, InterruptedException {
        try {
            measure(plan);
        } finally {
            Files.write(rawDir.resolve(CSV), lines);
            Files.write(rawDir.resolve(NOTES), notes);
        }
        if (!failures.isEmpty()) {
            throw new IOException(failures.size() + " serve cell(s) failed: " + String.join("; ", failures)
                    + " (wrk's reports: raw/" + WRK_LOG + ")");
        }
    }

    private void measure(ServePlan plan) throws IOException, InterruptedException {
        Optional<Path> wrk = Servers.binary("wrk", "/usr/bin/wrk");
        Optional<Path> nginx = Servers.binary("nginx", "/usr/sbin/nginx");
        Optional<Path> orthanc = Servers.binary("Orthanc", "/usr/sbin/Orthanc");
        if (wrk.isEmpty()) {
            note("serve: skipped: wrk is not installed (bootstrap/install-deps.sh --test installs the Debian packages "
                    + "wrk, nginx and orthanc)");
            return;
        }
        if (nginx.isEmpty()) {
            note("serve: no nginx column: nginx is not installed (bootstrap/install-deps.sh --test)");
        }
        if (orthanc.isEmpty()) {
            note("serve: no Orthanc column: Orthanc is not installed (bootstrap/install-deps.sh --test)");
        }
        Path target = BenchPaths.root().resolve("image-store/target");
        String hint = "build the image store first (./medjava build, or mvn -pl image-store -am package -DskipTests)";
        Path war = BenchPaths.requireFile(target.resolve("image-store.war"), hint);
        Path payara = BenchPaths.requireFile(target.resolve("payara/payara-micro.jar"), hint);
        Path ct = BenchPaths.requireFile(BenchPaths.root().resolve("testdata/samples/dicom/CT_small.dcm"),
                "the repository's test samples are missing");
        note("versions: " + Servers.version(wrk.get(), "-v")
                + nginx.map(n -> "; " + Servers.version(n, "-v")).orElse("")
                + orthanc.map(o -> "; " + Servers.version(o, "--version")).orElse(""));
        note(String.format(Locale.ROOT, "load: wrk -t%d -c%d --latency, %d s per cell, %d interleaved rounds; the "
                        + "large file with wrk -t1 -c1, %d s per cell", plan.threads(), plan.connections(),
                plan.seconds(), plan.rounds(), plan.largeSeconds()));

        Path work = Files.createTempDirectory("medjava-bench-serve-");
        Path files = Files.createDirectories(work.resolve("files"));
        try {
            long setup = System.nanoTime();
            Map<Case, Path> payload = new LinkedHashMap<>();
            payload.put(Case.DICOM_39K, Files.copy(ct, files.resolve("CT_small.dcm")));
            MultiFrameDicom.write(files.resolve("1mib.dcm"), 1, 2101);
            payload.put(Case.MIB_1, files.resolve("1mib.dcm"));
            Files.writeString(files.resolve("live"), "OK");
            if (plan.largeMiB() > 0) {
                Path large = files.resolve(plan.largeMiB() + "mib.dcm");
                MultiFrameDicom.write(large, plan.largeMiB(), 2100 + plan.largeMiB());
                payload.put(Case.LARGE, large);
                note("large file: " + plan.largeMiB() + " MiB multi-frame DICOM");
            }
            List<Case> cases = new ArrayList<>(List.of(Case.DICOM_39K, Case.MIB_1, Case.LIVENESS));
            if (payload.containsKey(Case.LARGE)) {
                cases.add(Case.LARGE);
            }
            List<Served> peers = new ArrayList<>();
            List<AutoCloseable> running = new ArrayList<>();
            try {
                if (nginx.isPresent()) {
                    StaticNginx n = StaticNginx.start(nginx.get(), Files.createDirectories(work.resolve("nginx")),
                            files);
                    running.add(n);
                    peers.add(nginxServed(n, payload));
                }
                if (orthanc.isPresent()) {
                    OrthancPeer o = OrthancPeer.start(orthanc.get(), Files.createDirectories(work.resolve("orthanc")));
                    running.add(o);
                    Map<Case, String> ids = new LinkedHashMap<>();
                    for (Map.Entry<Case, Path> e : payload.entrySet()) {
                        ids.put(e.getKey(), o.upload(e.getValue()));
                    }
                    peers.add(orthancServed(o, ids));
                }
                note(String.format(Locale.ROOT, "setup: files written, peers started and loaded in %.0f s",
                        (System.nanoTime() - setup) / 1e9));
                console.println("serve: starting Payara Micro with the image store...");
                long t0 = System.nanoTime();
                // the large file is refused at the door unless the store could decode it (issue 40); it is served,
                // never decoded, here: a budget that admits it
                try (StoreServer store = StoreServer.start(payara, war, rawDir.resolve("serve-store.log"),
                        Map.of("medjava.memory.decode-budget-bytes", Long.toString(1L << 30)))) {
                    note(String.format(Locale.ROOT, "store: ready %.0f s after its JVM was launched",
                            (System.nanoTime() - t0) / 1e9));
                    StoreHttp storeHttp = new StoreHttp(store);
                    storeHttp.put("serve/" + payload.get(Case.DICOM_39K).getFileName(), payload.get(Case.DICOM_39K));
                    Served s = storeServed(store, payload);
                    verify(s, Case.DICOM_39K, payload);
                    // the first seconds of load after start: the cold rate (no JIT yet), then its steady state
                    cell(wrk.get(), plan, s, Case.DICOM_39K, 0, plan.storeWarmUp(), payload);
                    long put = System.nanoTime();
                    for (Case c : cases) {
                        if (payload.containsKey(c) && c != Case.DICOM_39K) {
                            storeHttp.put("serve/" + payload.get(c).getFileName(), payload.get(c));
                        }
                    }
                    note(String.format(Locale.ROOT, "setup: the other files PUT to the store in %.0f s",
                            (System.nanoTime() - put) / 1e9));
                    List<Served> all = new ArrayList<>(List.of(s));
                    all.addAll(peers);
                    for (Served p : peers) {
                        verify(p, Case.DICOM_39K, payload);
                        cell(wrk.get(), plan, p, Case.DICOM_39K, 0, plan.peerWarmUp(), payload);
                    }
                    for (Case c : cases) {
                        for (Served p : all) {
                            verify(p, c, payload);
                            if (c != Case.DICOM_39K && c != Case.LARGE) {
                                warmUp(wrk.get(), plan, p, c);
                            }
                        }
                    }
                    for (int round = 1; round <= plan.rounds(); round++) {
                        console.printf(Locale.ROOT, "serve: round %d of %d%n", round, plan.rounds());
                        for (Case c : cases) {
                            for (Served p : all) {
                                cell(wrk.get(), plan, p, c, round, c == Case.LARGE ? plan.largeSeconds()
                                        : plan.seconds(), payload);
                            }
                        }
                    }
                }
            } finally {
                for (AutoCloseable c : running) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        console.println("serve: stopping a peer failed: " + e.getMessage());
                    }
                }
            }
        } finally {
            Servers.deleteTree(work);
        }
    }

    private Served storeServed(StoreServer store, Map<Case, Path> payload) {
        return served(Target.STORE, store.pid(), c -> c == Case.LIVENESS ? store.uri("/health/live")
                : store.uri("/images/serve/" + payload.get(c).getFileName()),
                c -> c == Case.LIVENESS ? null : store.authorization());
    }

    private static Served nginxServed(StaticNginx n, Map<Case, Path> payload) {
        return served(Target.NGINX, n.pid(), c -> n.uri("/" + (c == Case.LIVENESS ? "live"
                : payload.get(c).getFileName().toString())), c -> null);
    }

    private static Served orthancServed(OrthancPeer o, Map<Case, String> ids) {
        return served(Target.ORTHANC, o.pid(), c -> c == Case.LIVENESS ? o.uri("/system")
                : o.uri("/instances/" + ids.get(c) + "/file"), c -> o.authorization());
    }

    private static Served served(Target target, long pid, java.util.function.Function<Case, URI> url,
                                 java.util.function.Function<Case, String> authorization) {
        return new Served() {
            @Override
            public Target target() {
                return target;
            }

            @Override
            public URI url(Case c) {
                return url.apply(c);
            }

            @Override
            public String authorization(Case c) {
                return authorization.apply(c);
            }

            @Override
            public long pid() {
                return pid;
            }
        };
    }

    /**
     * One GET before any load: status 200, and the file's exact bytes (its length for the large file), so that the
     * servers are seen to serve the same thing; an anonymous GET must be refused where authentication is on.
     */
    private void verify(Served s, Case c, Map<Case, Path> payload) throws IOException, InterruptedException {
        String what = s.target().label + " " + s.url(c).getPath();
        HttpRequest.Builder request = HttpRequest.newBuilder(s.url(c)).timeout(Duration.ofMinutes(5)).GET();
        if (s.authorization(c) != null) {
            request.header("Authorization", s.authorization(c));
            HttpResponse<Void> anonymous = http.send(HttpRequest.newBuilder(s.url(c)).timeout(Duration.ofMinutes(1))
                    .GET().build(), HttpResponse.BodyHandlers.discarding());
            if (anonymous.statusCode() != 401) {
                throw new IOException(what + " answered " + anonymous.statusCode()
                        + " without credentials: authentication is not checked");
            }
        }
        HttpResponse<InputStream> r = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        Path expected = payload.get(c);
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                throw new IOException(what + " answered " + r.statusCode());
            }
            if (expected == null) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            } else if (Files.size(expected) <= 1 << 20) {
                if (!Arrays.equals(in.readAllBytes(), Files.readAllBytes(expected))) {
                    throw new IOException(what + " did not answer the file's bytes");
                }
            } else {
                long n = in.transferTo(java.io.OutputStream.nullOutputStream());
                if (n != Files.size(expected)) {
                    throw new IOException(what + " answered " + n + " of " + Files.size(expected) + " bytes");
                }
            }
        }
    }

    private void warmUp(Path wrk, ServePlan plan, Served s, Case c) throws IOException, InterruptedException {
        int seconds = s.target() == Target.STORE ? plan.storeCaseWarmUp() : plan.caseWarmUp();
        WrkResult r = wrk(wrk, s, c, plan.threads(), plan.connections(), seconds, "warm-up");
        if (r != null && !r.clean()) {
            failures.add(s.target().id + " " + c.id + " warm-up: " + r.summary());
        }
    }

    /** One measured cell: a wrk run, the server's CPU seconds during it, the load at its end. */
    private void cell(Path wrk, ServePlan plan, Served s, Case c, int round, int seconds, Map<Case, Path> payload)
            throws IOException, InterruptedException {
        boolean large = c == Case.LARGE;
        double cpu0 = Servers.cpuSeconds(s.pid());
        WrkResult r = wrk(wrk, s, c, large ? 1 : plan.threads(), large ? 1 : plan.connections(), seconds,
                "round " + round);
        double cpu = Servers.cpuSeconds(s.pid()) - cpu0;
        double load = Servers.load1();
        if (r == null) {
            return;
        }
        long bytes = payload.containsKey(c) ? Files.size(payload.get(c)) : 2;
        // files: bodies per second from wrk's exact rate (its Transfer/sec has three digits: 1.10GB); liveness: its
        // Transfer/sec, headers and all, since the answers differ in size
        double mibPerSecond = payload.containsKey(c) ? r.requestsPerSecond() * bytes / (1 << 20)
                : r.mebibytesPerSecond();
        console.printf(Locale.ROOT, "serve: %-7s %-9s round %d: %s, %.0f MiB/s, CPU %.1f s, load %.2f%n",
                s.target().id, c.id, round, r.summary(), mibPerSecond, cpu, load);
        lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%d,%.2f,%.3f,%.4f,%.4f,%d,%d,%.2f,%.2f",
                s.target().id, c.id, bytes, round, r.seconds(), r.requests(), r.requestsPerSecond(), mibPerSecond,
                r.p50Ms(), r.p99Ms(), r.non2xx(), r.socketErrors(), cpu, load));
        if (!r.clean()) {
            String failure = s.target().id + " " + c.id + " round " + round + ": " + r.summary();
            console.println("serve: FAILED " + failure);
            failures.add(failure);
        }
    }

    /** Runs wrk; its report goes to the log. Null (and a failure recorded) when it printed no report. */
    private WrkResult wrk(Path wrk, Served s, Case c, int threads, int connections, int seconds, String label)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(wrk.toString(), "-t" + threads, "-c" + connections,
                "-d" + seconds + "s", "--timeout", "60s", "--latency"));
        if (s.authorization(c) != null) {
            command.addAll(List.of("-H", "Authorization: " + s.authorization(c)));
        }
        command.add(s.url(c).toString());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 120L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        Files.writeString(rawDir.resolve(WRK_LOG), "### " + s.target().id + " " + c.id + " " + label + "\n" + out
                + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        try {
            return WrkResult.parse(out);
        } catch (IllegalArgumentException e) {
            String failure = s.target().id + " " + c.id + " " + label + ": " + out.strip();
            console.println("serve: FAILED " + failure);
            failures.add(failure);
            return null;
        }
    }

    private void note(String line) {
        console.println(line.startsWith("serve:") ? line : "serve: " + line);
        notes.add(line);
    }
}
