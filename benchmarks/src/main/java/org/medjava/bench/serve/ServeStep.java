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
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.transport.MultiFrameDicom;
import org.medjava.bench.transport.StoreHttp;
import org.medjava.bench.transport.StoreServer;

/**
 * The store's read path side by side with nginx (static files) and Orthanc (with and without its authentication,
 * with its DICOMweb plugin), for issue 30's targets: the same files on all, started here on loopback ports, loaded in
 * turn by {@code wrk --latency} — store, nginx, Orthanc, ... for {@link ServePlan#rounds()} rounds of every case —
 * after a warm-up whose first seconds on the store, just after it became ready, are recorded as its cold rate
 * (round 0). Then the store alone: HTTP/2 with 100 streams on one connection (h2load) and overload (wrk with 512
 * connections, answers counted by status, the JVM's resident memory before and after). Each cell also records the
 * server's CPU time (its process and descendants, from /proc) and the 1-minute load average. Writes {@value #CSV},
 * {@value #NOTES} (versions, load settings, what was left out) and every load tool's report to {@value #WRK_LOG}; a
 * round cell with a non-2xx response, a socket error or no request at all fails the step after the CSV is written
 * (the errors of the HTTP/2 and overload cells are what their targets judge: they are recorded, not failures).
 */
public final class ServeStep {
    public static final String CSV = "serve.csv";
    public static final String NOTES = "serve-notes.txt";
    public static final String WRK_LOG = "serve-wrk.log";
    public static final String HEADER =
            "target,case,file_bytes,round,seconds,requests,req_per_s,mib_per_s,p50_ms,p99_ms,non2xx,socket_errors,"
                    + "cpu_s,load1,statuses,no_retry_after,rss_kib_before,rss_kib_after";
    /** Issue 30: the rate in the first 25 s after ready; the rest of the store's warm-up is not recorded. */
    static final int COLD_SECONDS = 25;
    /** Seconds of the overload before it is measured. */
    static final int OVERLOAD_WARMUP = 5;
    /** Issue 30's overload: wrk -c512 (on 2 cores). */
    static final int OVERLOAD_CONNECTIONS = 512;
    /** Issue 30's HTTP/2 load: 100 concurrent streams on one connection. */
    static final int H2_STREAMS = 100;
    /** The WADO-RS object: one uncompressed frame, 512² 16-bit. */
    static final int FRAME_SIDE = 512;
    private static final long FRAME_SEED = 512;
    public static final String QUICK_NOTE = "serve: skipped in quick mode (./medjava bench --standard measures the "
            + "store against nginx and Orthanc)";

    /** The servers compared. */
    public enum Target {
        STORE("store", "the store"),
        NGINX("nginx", "nginx"),
        ORTHANC("orthanc", "Orthanc"),
        ORTHANC_NO_AUTHENTICATION("orthanc-noauth", "Orthanc without authentication");

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
                case ORTHANC_NO_AUTHENTICATION: return "none (AuthenticationEnabled false)";
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
        FRAME("frame", "WADO-RS frame, 512² 16-bit uncompressed"),
        THUMBNAIL("thumbnail", "thumbnail of the same instance, 128² JPEG"),
        LIVENESS("liveness", "liveness: store /health/live, nginx a 2-byte file, Orthanc /system"),
        LARGE("large", "large DICOM, one connection"),
        H2("h2-39k", "39 KB DICOM over HTTP/2, 100 streams on one connection (h2load)"),
        OVERLOAD("overload-39k", "39 KB DICOM under overload (wrk, 512 connections)");

        public final String id;
        public final String label;

        Case(String id, String label) {
            this.id = id;
            this.label = label;
        }

        /** The Accept header the load sends: WADO-RS answers what the client accepts. */
        public String accept() {
            switch (this) {
                case FRAME: return "multipart/related; type=\"application/octet-stream\"";
                case THUMBNAIL: return "image/jpeg";
                default: return null;
            }
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

        /** Null: this server is not loaded with this case. */
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
                    + " (the load tools' reports: raw/" + WRK_LOG + ")");
        }
    }

    private void measure(ServePlan plan) throws IOException, InterruptedException {
        Optional<Path> wrk = Servers.binary("wrk", "/usr/bin/wrk");
        Optional<Path> nginx = Servers.binary("nginx", "/usr/sbin/nginx");
        Optional<Path> orthanc = Servers.binary("Orthanc", "/usr/sbin/Orthanc");
        Optional<Path> h2load = Servers.binary("h2load", "/usr/bin/h2load");
        if (wrk.isEmpty()) {
            note("serve: skipped: wrk is not installed (bootstrap/install-deps.sh --test installs the Debian packages "
                    + "wrk, nghttp2-client, nginx, orthanc and orthanc-dicomweb)");
            return;
        }
        if (nginx.isEmpty()) {
            note("serve: no nginx column: nginx is not installed (bootstrap/install-deps.sh --test)");
        }
        if (orthanc.isEmpty()) {
            note("serve: no Orthanc column: Orthanc is not installed (bootstrap/install-deps.sh --test)");
        } else if (OrthancPeer.dicomWebPlugin().isEmpty()) {
            note("serve: no Orthanc frame and thumbnail: its DICOMweb plugin is not installed (orthanc-dicomweb)");
        }
        if (h2load.isEmpty()) {
            note("serve: no HTTP/2 cell: h2load is not installed (nghttp2-client; bootstrap/install-deps.sh --test)");
        }
        Path target = BenchPaths.root().resolve("image-store/target");
        String hint = "build the image store first (./medjava build, or mvn -pl image-store -am package -DskipTests)";
        Path war = BenchPaths.requireFile(target.resolve("image-store.war"), hint);
        Path payara = BenchPaths.requireFile(target.resolve("payara/payara-micro.jar"), hint);
        Path ct = BenchPaths.requireFile(BenchPaths.root().resolve("testdata/samples/dicom/CT_small.dcm"),
                "the repository's test samples are missing");
        note("versions: " + Servers.version(wrk.get(), "-v")
                + h2load.map(h -> "; " + Servers.version(h, "--version")).orElse("")
                + nginx.map(n -> "; " + Servers.version(n, "-v")).orElse("")
                + orthanc.map(o -> "; " + Servers.version(o, "--version")).orElse("")
                + OrthancPeer.dicomWebPlugin().map(p -> "; its DICOMweb plugin " + p.getFileName()).orElse(""));
        note(String.format(Locale.ROOT, "load: wrk -t%d -c%d --latency, %d s per cell, %d interleaved rounds; the "
                        + "large file with wrk -t1 -c1, %d s per cell; the store's first %d s of load after ready "
                        + "recorded as its cold rate; HTTP/2: h2load -c1 -m%d for %d s (issue 30: 60 s); overload: "
                        + "wrk -t2 -c%d for %d s after %d s of the same", plan.threads(), plan.connections(),
                plan.seconds(), plan.rounds(), plan.largeSeconds(), Math.min(COLD_SECONDS, plan.storeWarmUp()),
                H2_STREAMS, plan.h2Seconds(), OVERLOAD_CONNECTIONS, plan.overloadSeconds(), OVERLOAD_WARMUP));

        Path work = Files.createTempDirectory("medjava-bench-serve-");
        Path files = Files.createDirectories(work.resolve("files"));
        try {
            long setup = System.nanoTime();
            Map<Case, Path> payload = new LinkedHashMap<>();
            payload.put(Case.DICOM_39K, Files.copy(ct, files.resolve("CT_small.dcm")));
            MultiFrameDicom.write(files.resolve("1mib.dcm"), 1, 2101);
            payload.put(Case.MIB_1, files.resolve("1mib.dcm"));
            Path frame = files.resolve("frame512.dcm");
            MultiFrameDicom.write(frame, 1, FRAME_SIDE, 16, FRAME_SEED);
            Files.writeString(files.resolve("live"), "OK");
            if (plan.largeMiB() > 0) {
                Path large = files.resolve(plan.largeMiB() + "mib.dcm");
                MultiFrameDicom.write(large, plan.largeMiB(), 2100 + plan.largeMiB());
                payload.put(Case.LARGE, large);
                note("large file: " + plan.largeMiB() + " MiB multi-frame DICOM");
            }
            List<Case> cases = new ArrayList<>(List.of(Case.DICOM_39K, Case.MIB_1, Case.FRAME, Case.THUMBNAIL,
                    Case.LIVENESS));
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
                    OrthancPeer o = OrthancPeer.start(orthanc.get(), Files.createDirectories(work.resolve("orthanc")),
                            true);
                    running.add(o);
                    Map<Case, String> ids = new LinkedHashMap<>();
                    for (Map.Entry<Case, Path> e : payload.entrySet()) {
                        ids.put(e.getKey(), o.upload(e.getValue()));
                    }
                    o.upload(frame);
                    peers.add(orthancServed(Target.ORTHANC, o, ids, OrthancPeer.dicomWebPlugin().isPresent()));
                    // the same server without its password check, for the 39 KB case (issue 30)
                    OrthancPeer open = OrthancPeer.start(orthanc.get(),
                            Files.createDirectories(work.resolve("orthanc-noauth")), false);
                    running.add(open);
                    peers.add(orthancServed(Target.ORTHANC_NO_AUTHENTICATION, open,
                            Map.of(Case.DICOM_39K, open.upload(payload.get(Case.DICOM_39K))), false));
                }
                note(String.format(Locale.ROOT, "setup: files written, peers started and loaded in %.0f s",
                        (System.nanoTime() - setup) / 1e9));
                console.println("serve: starting Payara Micro with the image store...");
                long t0 = System.nanoTime();
                // the large file is refused at the door unless the store could decode it (issue 40); it is served,
                // never decoded, here: a budget that admits it. Thumbnails are made for each request, as Orthanc
                // makes its rendered images: the store's cache of them would answer all but the first
                try (StoreServer store = StoreServer.start(payara, war, rawDir.resolve("serve-store.log"),
                        Map.of("medjava.memory.decode-budget-bytes", Long.toString(1L << 30),
                                "medjava.http.thumbnail-cache-bytes", "0"))) {
                    note(String.format(Locale.ROOT, "store: ready %.0f s after its JVM was launched",
                            (System.nanoTime() - t0) / 1e9));
                    StoreHttp storeHttp = new StoreHttp(store);
                    storeHttp.put("serve/" + payload.get(Case.DICOM_39K).getFileName(), payload.get(Case.DICOM_39K));
                    Served s = storeServed(store, payload);
                    verify(s, Case.DICOM_39K, payload, frame);
                    // the first seconds of load after start: the cold rate (no JIT yet), then its steady state
                    int cold = Math.min(COLD_SECONDS, plan.storeWarmUp());
                    cell(wrk.get(), plan, s, Case.DICOM_39K, 0, cold, payload);
                    if (plan.storeWarmUp() > cold) {
                        warmUp(wrk.get(), plan, s, Case.DICOM_39K, plan.storeWarmUp() - cold);
                    }
                    long put = System.nanoTime();
                    for (Case c : cases) {
                        if (payload.containsKey(c) && c != Case.DICOM_39K) {
                            storeHttp.put("serve/" + payload.get(c).getFileName(), payload.get(c));
                        }
                    }
                    storeHttp.put("serve/" + frame.getFileName(), frame); // indexed: its WADO-RS URLs answer
                    note(String.format(Locale.ROOT, "setup: the other files PUT to the store in %.0f s",
                            (System.nanoTime() - put) / 1e9));
                    List<Served> all = new ArrayList<>(List.of(s));
                    all.addAll(peers);
                    for (Served p : peers) {
                        verify(p, Case.DICOM_39K, payload, frame);
                        cell(wrk.get(), plan, p, Case.DICOM_39K, 0, plan.peerWarmUp(), payload);
                    }
                    for (Case c : cases) {
                        for (Served p : all) {
                            if (p.url(c) == null) {
                                continue;
                            }
                            verify(p, c, payload, frame);
                            if (c != Case.DICOM_39K && c != Case.LARGE) {
                                warmUp(wrk.get(), plan, p, c, p.target() == Target.STORE ? plan.storeCaseWarmUp()
                                        : plan.caseWarmUp());
                            }
                        }
                    }
                    for (int round = 1; round <= plan.rounds(); round++) {
                        console.printf(Locale.ROOT, "serve: round %d of %d%n", round, plan.rounds());
                        for (Case c : cases) {
                            for (Served p : all) {
                                if (p.url(c) != null) {
                                    cell(wrk.get(), plan, p, c, round, c == Case.LARGE ? plan.largeSeconds()
                                            : plan.seconds(), payload);
                                }
                            }
                        }
                    }
                    if (h2load.isPresent()) {
                        h2(h2load.get(), s, plan.storeCaseWarmUp(), work, payload, "warm-up");
                        h2(h2load.get(), s, plan.h2Seconds(), work, payload, "round 1");
                    }
                    overload(wrk.get(), s, plan.overloadSeconds(), work, payload);
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
        String instance = "/dicomweb/studies/" + MultiFrameDicom.studyUid(FRAME_SEED) + "/series/"
                + MultiFrameDicom.seriesUid(FRAME_SEED) + "/instances/" + MultiFrameDicom.instanceUid(FRAME_SEED);
        return served(Target.STORE, store.pid(), c -> {
            switch (c) {
                case LIVENESS: return store.uri("/health/live");
                case FRAME: return store.uri(instance + "/frames/1");
                case THUMBNAIL: return store.uri(instance + "/thumbnail");
                default: return store.uri("/images/serve/" + payload.get(c == Case.H2 || c == Case.OVERLOAD
                        ? Case.DICOM_39K : c).getFileName());
            }
        }, c -> c == Case.LIVENESS ? null : store.authorization());
    }

    private static Served nginxServed(StaticNginx n, Map<Case, Path> payload) {
        return served(Target.NGINX, n.pid(), c -> c == Case.LIVENESS ? n.uri("/live")
                : payload.containsKey(c) ? n.uri("/" + payload.get(c).getFileName()) : null, c -> null);
    }

    /** Orthanc's frame is its DICOMweb plugin's; the plugin (1.7) has no thumbnail: its rendered image, 128². */
    private static Served orthancServed(Target target, OrthancPeer o, Map<Case, String> ids, boolean dicomWeb) {
        String instance = "/dicom-web/studies/" + MultiFrameDicom.studyUid(FRAME_SEED) + "/series/"
                + MultiFrameDicom.seriesUid(FRAME_SEED) + "/instances/" + MultiFrameDicom.instanceUid(FRAME_SEED);
        return served(target, o.pid(), c -> {
            switch (c) {
                case LIVENESS: return target == Target.ORTHANC ? o.uri("/system") : null;
                case FRAME: return dicomWeb ? o.uri(instance + "/frames/1") : null;
                case THUMBNAIL: return dicomWeb ? o.uri(instance + "/rendered?viewport=128,128") : null;
                default: return ids.containsKey(c) ? o.uri("/instances/" + ids.get(c) + "/file") : null;
            }
        }, c -> o.authorization());
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
     * One GET before any load: status 200, and the file's exact bytes (its length for the large file), the frame's
     * pixel bytes in a multipart answer, a JPEG for the thumbnail, so that the servers are seen to serve the same
     * thing; an anonymous GET must be refused where authentication is on.
     */
    private void verify(Served s, Case c, Map<Case, Path> payload, Path frame)
            throws IOException, InterruptedException {
        String what = s.target().label + " " + s.url(c).getPath();
        HttpRequest.Builder request = HttpRequest.newBuilder(s.url(c)).timeout(Duration.ofMinutes(5)).GET();
        if (c.accept() != null) {
            request.header("Accept", c.accept());
        }
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
        String type = r.headers().firstValue("Content-Type").orElse("");
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                throw new IOException(what + " answered " + r.statusCode() + ": "
                        + new String(in.readNBytes(500), StandardCharsets.UTF_8).strip());
            }
            if (c == Case.FRAME) {
                byte[] pixels = Arrays.copyOfRange(Files.readAllBytes(frame), (int) Files.size(frame)
                        - FRAME_SIDE * FRAME_SIDE * 2, (int) Files.size(frame));
                if (!type.startsWith("multipart/related") || !contains(in.readAllBytes(), pixels)) {
                    throw new IOException(what + " did not answer the frame's pixels in a multipart body (" + type
                            + ")");
                }
            } else if (c == Case.THUMBNAIL) {
                byte[] body = in.readAllBytes();
                if (!type.startsWith("image/jpeg") || body.length < 3 || (body[0] & 0xFF) != 0xFF
                        || (body[1] & 0xFF) != 0xD8) {
                    throw new IOException(what + " did not answer a JPEG (" + type + ", " + body.length + " bytes)");
                }
            } else if (expected == null) {
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

    private static boolean contains(byte[] body, byte[] part) {
        for (int i = 0; i + part.length <= body.length; i++) {
            if (Arrays.equals(body, i, i + part.length, part, 0, part.length)) {
                return true;
            }
        }
        return false;
    }

    private void warmUp(Path wrk, ServePlan plan, Served s, Case c, int seconds)
            throws IOException, InterruptedException {
        WrkResult r = parse(wrk(wrk, s, c, plan.threads(), plan.connections(), seconds, "warm-up", null), s, c,
                "warm-up");
        if (r != null && !r.clean()) {
            failures.add(s.target().id + " " + c.id + " warm-up: " + r.summary());
        }
    }

    /** One measured cell: a wrk run, the server's CPU seconds during it, the load at its end. */
    private void cell(Path wrk, ServePlan plan, Served s, Case c, int round, int seconds, Map<Case, Path> payload)
            throws IOException, InterruptedException {
        boolean large = c == Case.LARGE;
        double cpu0 = Servers.cpuSeconds(s.pid());
        WrkResult r = parse(wrk(wrk, s, c, large ? 1 : plan.threads(), large ? 1 : plan.connections(), seconds,
                "round " + round, null), s, c, "round " + round);
        double cpu = Servers.cpuSeconds(s.pid()) - cpu0;
        if (r == null) {
            return;
        }
        long bytes = bodyBytes(c, payload);
        // files and the frame: bodies per second from wrk's exact rate (its Transfer/sec has three digits: 1.10GB);
        // the rest: its Transfer/sec, headers and all, since the answers differ in size
        double mibPerSecond = bytes > 2 ? r.requestsPerSecond() * bytes / (1 << 20) : r.mebibytesPerSecond();
        console.printf(Locale.ROOT, "serve: %-14s %-9s round %d: %s, %.0f MiB/s, CPU %.1f s, load %.2f%n",
                s.target().id, c.id, round, r.summary(), mibPerSecond, cpu, Servers.load1());
        line(s, c, bytes, round, r.seconds(), r.requests(), r.requestsPerSecond(), mibPerSecond, r.p50Ms(), r.p99Ms(),
                r.non2xx(), r.socketErrors(), cpu, "", "", "", "");
        if (!r.clean()) {
            String failure = s.target().id + " " + c.id + " round " + round + ": " + r.summary();
            console.println("serve: FAILED " + failure);
            failures.add(failure);
        }
    }

    /** The bytes of one answer's body where they are known (a file, the frame's pixels); else 0. */
    private static long bodyBytes(Case c, Map<Case, Path> payload) throws IOException {
        switch (c) {
            case FRAME: return 2L * FRAME_SIDE * FRAME_SIDE;
            case THUMBNAIL: return 0;
            case LIVENESS: return 2;
            case H2: case OVERLOAD: return Files.size(payload.get(Case.DICOM_39K));
            default: return Files.size(payload.get(c));
        }
    }

    /** HTTP/2 (h2c, prior knowledge) on the store: h2load, one connection, 100 streams, its log for percentiles. */
    private void h2(Path h2load, Served s, int seconds, Path work, Map<Case, Path> payload, String label)
            throws IOException, InterruptedException {
        Path log = work.resolve("h2load.log");
        List<String> command = new ArrayList<>(List.of(h2load.toString(), "-c1", "-t1", "-m" + H2_STREAMS,
                "-D", Integer.toString(seconds), "--log-file=" + log, "-H",
                "authorization: " + s.authorization(Case.H2), s.url(Case.H2).toString()));
        double cpu0 = Servers.cpuSeconds(s.pid());
        String out = load(command, s, Case.H2, label, seconds);
        double cpu = Servers.cpuSeconds(s.pid()) - cpu0;
        H2loadResult r;
        try {
            r = H2loadResult.parse(out, Files.isRegularFile(log) ? Files.readAllLines(log) : List.of());
        } catch (IllegalArgumentException e) {
            String failure = s.target().id + " " + Case.H2.id + " " + label + ": " + out.strip();
            console.println("serve: FAILED " + failure);
            failures.add(failure);
            return;
        } finally {
            Files.deleteIfExists(log);
        }
        console.printf(Locale.ROOT, "serve: %-14s %-9s %s: %s, CPU %.1f s, load %.2f%n", s.target().id, Case.H2.id,
                label, r.summary(), cpu, Servers.load1());
        if (!label.equals("warm-up")) {
            long bytes = bodyBytes(Case.H2, payload);
            line(s, Case.H2, bytes, 1, r.seconds(), r.requests(), r.requestsPerSecond(),
                    r.requestsPerSecond() * bytes / (1 << 20), r.p50Ms(), r.p99Ms(), r.non2xx(), r.errored(), cpu,
                    r.statuses().text(), "", "", "");
        }
    }

    /**
     * Overload on the store: wrk with 512 connections and a script that counts the answers by status and the 503s
     * without Retry-After; the JVM's resident memory just before and just after.
     */
    private void overload(Path wrk, Served s, int seconds, Path work, Map<Case, Path> payload)
            throws IOException, InterruptedException {
        Path script = work.resolve("statuses.lua");
        try (InputStream in = ServeStep.class.getResourceAsStream("statuses.lua")) {
            Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        // like every other cell, after a warm-up of its own: the first burst of 512 new connections meets code
        // the JIT has not compiled yet (one such cold burst: p99 0.1-0.8 s, then 12-15 ms; measured)
        wrk(wrk, s, Case.OVERLOAD, 2, OVERLOAD_CONNECTIONS, OVERLOAD_WARMUP, "warm-up", script);
        long rss0 = Servers.rssKib(s.pid());
        double cpu0 = Servers.cpuSeconds(s.pid());
        String out = wrk(wrk, s, Case.OVERLOAD, 2, OVERLOAD_CONNECTIONS, seconds, "round 1", script);
        double cpu = Servers.cpuSeconds(s.pid()) - cpu0;
        long rss1 = Servers.rssKib(s.pid());
        WrkResult r = parse(out, s, Case.OVERLOAD, "round 1");
        if (r == null) {
            return;
        }
        Statuses statuses;
        try {
            statuses = Statuses.fromWrk(out);
        } catch (IllegalArgumentException e) {
            failures.add(s.target().id + " " + Case.OVERLOAD.id + ": " + e.getMessage());
            return;
        }
        console.printf(Locale.ROOT, "serve: %-14s %-9s round 1: %s, statuses %s, %d 503 without Retry-After, RSS "
                        + "%d → %d MiB, CPU %.1f s, load %.2f%n", s.target().id, Case.OVERLOAD.id, r.summary(),
                statuses.text(), statuses.noRetryAfter(), rss0 >> 10, rss1 >> 10, cpu, Servers.load1());
        long bytes = bodyBytes(Case.OVERLOAD, payload);
        line(s, Case.OVERLOAD, bytes, 1, r.seconds(), r.requests(), r.requestsPerSecond(),
                r.requestsPerSecond() * bytes / (1 << 20), r.p50Ms(), r.p99Ms(), r.non2xx(), r.socketErrors(), cpu,
                statuses.text(), Long.toString(statuses.noRetryAfter()), Long.toString(rss0), Long.toString(rss1));
    }

    private void line(Served s, Case c, long bytes, int round, double seconds, long requests, double rate,
                      double mibPerSecond, double p50, double p99, long non2xx, long socketErrors, double cpu,
                      String statuses, String noRetryAfter, String rssBefore, String rssAfter) {
        lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%d,%.2f,%.3f,%.4f,%.4f,%d,%d,%.2f,%.2f,%s,%s,%s,%s",
                s.target().id, c.id, bytes, round, seconds, requests, rate, mibPerSecond, p50, p99, non2xx,
                socketErrors, cpu, Servers.load1(), statuses, noRetryAfter, rssBefore, rssAfter));
    }

    /** Runs wrk (with a Lua script, or none) and returns what it printed. */
    private String wrk(Path wrk, Served s, Case c, int threads, int connections, int seconds, String label,
                       Path script) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(wrk.toString(), "-t" + threads, "-c" + connections,
                "-d" + seconds + "s", "--timeout", "60s", "--latency"));
        if (script != null) {
            command.addAll(List.of("-s", script.toString()));
        }
        if (s.authorization(c) != null) {
            command.addAll(List.of("-H", "Authorization: " + s.authorization(c)));
        }
        if (c.accept() != null) {
            command.addAll(List.of("-H", "Accept: " + c.accept()));
        }
        command.add(s.url(c).toString());
        return load(command, s, c, label, seconds);
    }

    /** Runs a load tool; its report goes to the log. */
    private String load(List<String> command, Served s, Case c, String label, int seconds)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(seconds + 120L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        Files.writeString(rawDir.resolve(WRK_LOG), "### " + s.target().id + " " + c.id + " " + label + "\n" + out
                + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        return out;
    }

    /** wrk's report; null (and a failure recorded) when it printed none. */
    private WrkResult parse(String out, Served s, Case c, String label) {
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
