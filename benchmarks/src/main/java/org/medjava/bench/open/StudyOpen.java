package org.medjava.bench.open;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.medjava.bench.environment.EnvironmentStep;
import org.medjava.bench.serve.OrthancPeer;
import org.medjava.bench.serve.Servers;
import org.medjava.bench.serve.StaticNginx;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.transport.StoreHttp;
import org.medjava.bench.transport.StoreServer;
import org.medjava.store.core.transcode.NotTranscodable;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.core.transcode.Transcoder;

/**
 * Issue 34's study-open benchmark: how long a radiologist waits in a real browser. It writes the synthetic CT
 * ({@link SyntheticStudy}), its JPEG 2000 and HTJ2K copies, a US and an MR ({@link Variant}), starts the image store
 * (the built WAR on Payara Micro) and, unless left out, Debian's Orthanc with its DICOMweb plugin, stores the same
 * studies in both, and has {@code web/bench/study-open.mjs}
 * (Chromium driven by playwright-core) open it with the store's web viewer and with OHIF against each. Orthanc is
 * reached through an nginx front on its own origin — {@code /dicomweb/} and {@code /dicom-web/} go to Orthanc's
 * DICOMweb, everything else (the viewers' files, the login) to the store — so both viewers run unchanged, with
 * their same-origin DICOMweb root, against Orthanc; the way OHIF is deployed before Orthanc.
 *
 * <pre>
 * study-open [--runs 5] [--profiles loopback,throttled] [--viewers web,ohif] [--servers store,orthanc]
 *            [--studies ct,ct-j2k,ct-htj2k,us,mr] [--slices 100] [--out DIR]
 * </pre>
 * Writes {@code results.json} (every run, with the load average at its start) and {@code summary.md} (medians) in
 * the output directory (default {@code benchmarks/target/study-open}). Exit code 1 when a case had no good run.
 */
public final class StudyOpen {
    static final long SEED = 34;

    /**
     * The studies: the synthetic CT as written, the same content transcoded by the store's own transcoder (OpenJPEG,
     * OpenJPH), a 30-frame US and a 4-series MR — each with its own UIDs (its own seed), so that all live in one store
     * side by side. The CT's slice count is {@code --slices}.
     */
    enum Variant {
        CT("ct", null, "uncompressed"),
        CT_J2K("ct-j2k", TransferSyntaxes.J2K_LOSSLESS, "JPEG 2000 lossless"),
        CT_HTJ2K("ct-htj2k", TransferSyntaxes.HTJ2K_RPCL_LOSSLESS, "HTJ2K lossless (RPCL)"),
        US("us", null, "US 30 frames 640×480 8-bit, uncompressed, one object"),
        MR("mr", null, "MR 4 series × 30 slices 256² 16-bit, uncompressed; the first series opened");

        final String id;
        final String transferSyntax;
        final String label;

        Variant(String id, String transferSyntax, String label) {
            this.id = id;
            this.transferSyntax = transferSyntax;
            this.label = label;
        }

        static List<String> names() {
            return java.util.Arrays.stream(values()).map(v -> v.id).toList();
        }

        static Variant of(String id) {
            return java.util.Arrays.stream(values()).filter(v -> v.id.equals(id)).findFirst().orElseThrow();
        }

        String name(int slices) {
            return this == US || this == MR ? label : "CT " + slices + "×512² " + label;
        }

        /** The study in {@code dir}: written, then transcoded where it is a compressed copy of the CT. */
        SyntheticStudy.Study write(Path dir, int slices) throws IOException {
            long seed = SEED + ordinal();
            if (this == US) {
                return SyntheticStudy.us(dir.resolve(id), 30, seed);
            }
            if (this == MR) {
                return SyntheticStudy.mr(dir.resolve(id), 4, 30, seed);
            }
            SyntheticStudy.Study plain = SyntheticStudy.ct(dir.resolve(id + "-source"), slices, seed);
            if (transferSyntax == null) {
                return plain;
            }
            Path out = Files.createDirectories(dir.resolve(id));
            List<Path> files = new ArrayList<>();
            for (Path f : plain.files()) {
                try {
                    files.add(Files.write(out.resolve(f.getFileName()), Transcoder.part10(f,
                            TransferSyntaxes.EXPLICIT_LE, transferSyntax, "MEDJAVA")));
                } catch (NotTranscodable e) {
                    throw new IOException("the store's transcoder cannot write " + label + ": " + e.getMessage(), e);
                }
            }
            return new SyntheticStudy.Study(plain.studyUid(), plain.seriesUid(), plain.frames(), files);
        }
    }

    /** Command-line choices. */
    record Options(int runs, List<String> profiles, List<String> viewers, List<String> servers, List<String> studies,
                   int slices, Path out) {
        static Options parse(String[] args) {
            int runs = 5;
            int slices = 100;
            List<String> profiles = List.of("loopback", "throttled");
            List<String> viewers = List.of("web", "ohif");
            List<String> servers = List.of("store", "orthanc");
            List<String> studies = Variant.names();
            Path out = BenchPaths.root().resolve("benchmarks/target/study-open");
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                String v = args[++i];
                switch (a) {
                    case "--runs" -> runs = Integer.parseInt(v);
                    case "--slices" -> slices = Integer.parseInt(v);
                    case "--profiles" -> profiles = only(v, "loopback", "throttled");
                    case "--viewers" -> viewers = only(v, "web", "ohif");
                    case "--servers" -> servers = only(v, "store", "orthanc");
                    case "--studies" -> studies = only(v, Variant.names().toArray(new String[0]));
                    case "--out" -> out = Path.of(v);
                    default -> throw new IllegalArgumentException("study-open [--runs N] [--profiles "
                            + "loopback,throttled] [--viewers web,ohif] [--servers store,orthanc] [--studies "
                            + String.join(",", Variant.names()) + "] [--slices N] [--out DIR], not " + a);
                }
            }
            return new Options(runs, profiles, viewers, servers, studies, slices, out.toAbsolutePath());
        }

        private static List<String> only(String value, String... allowed) {
            List<String> list = List.of(value.split(","));
            for (String v : list) {
                if (!List.of(allowed).contains(v)) {
                    throw new IllegalArgumentException(v + " is not one of " + String.join(", ", allowed));
                }
            }
            return list;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench study-open: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.exit(run(options));
    }

    static int run(Options o) throws IOException, InterruptedException {
        Path target = BenchPaths.root().resolve("image-store/target");
        String hint = "build the image store first (./medjava build, or mvn -pl image-store -am package -DskipTests)";
        Path war = BenchPaths.requireFile(target.resolve("image-store.war"), hint);
        Path payara = BenchPaths.requireFile(target.resolve("payara/payara-micro.jar"), hint);
        Files.createDirectories(o.out());
        // a fresh work directory: an Orthanc database left by an interrupted run would hold the same SOP Instance
        // UIDs in another series (Orthanc then answers 404 to their frames)
        Servers.deleteTree(o.out().resolve("work"));
        Path work = Files.createDirectories(o.out().resolve("work"));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("load.start", EnvironmentStep.loadAverage());
        Map<Variant, SyntheticStudy.Study> studies = new LinkedHashMap<>();
        for (String id : o.studies()) {
            Variant v = Variant.of(id);
            studies.put(v, v.write(work.resolve("studies"), o.slices()));
        }
        System.out.printf(Locale.ROOT, "study-open: %s written; starting the store...%n", o.studies());
        Path results = o.out().resolve("results.json");
        try (StoreServer store = StoreServer.start(payara, war, o.out().resolve("store.log"))) {
            StoreHttp http = new StoreHttp(store);
            for (Map.Entry<Variant, SyntheticStudy.Study> e : studies.entrySet()) {
                for (Path f : e.getValue().files()) {
                    http.put("open/" + e.getKey().id + "/" + f.getFileName(), f);
                }
            }
            JsonArray cases = new JsonArray();
            List<JsonObject> described = new ArrayList<>();
            studies.forEach((v, st) -> described.add(study(v.name(o.slices()), st.studyUid(), st.seriesUid(),
                    st.frames())));
            String origin = "http://127.0.0.1:" + store.uri("/").getPort();
            if (o.servers().contains("store")) {
                described.forEach(st -> o.viewers().forEach(v -> cases.add(viewerCase(v, "store", origin, store, st))));
            }
            List<AutoCloseable> peers = new ArrayList<>();
            try {
                if (o.servers().contains("orthanc")) {
                    String front = orthancFront(work, store, studies.values(), peers, env);
                    described.forEach(st -> o.viewers().forEach(v -> cases.add(viewerCase(v, "orthanc", front, store,
                            st))));
                }
                JsonObject plan = new JsonObject();
                plan.addProperty("runs", o.runs());
                plan.add("profiles", new Gson().toJsonTree(o.profiles()));
                plan.add("cases", cases);
                Path planFile = Files.writeString(work.resolve("plan.json"), plan.toString());
                runBrowser(planFile, results, o.out().resolve("browser.log"));
            } finally {
                for (AutoCloseable peer : peers) {
                    try {
                        peer.close();
                    } catch (Exception e) {
                        System.err.println("study-open: stopping " + peer + ": " + e);
                    }
                }
            }
        } finally {
            Servers.deleteTree(work);
        }
        env.put("load.end", EnvironmentStep.loadAverage());
        JsonObject r = JsonParser.parseString(Files.readString(results)).getAsJsonObject();
        r.add("environment", new Gson().toJsonTree(env));
        Files.writeString(results, new GsonBuilder().setPrettyPrinting().serializeNulls().create().toJson(r));
        String summary = summary(r);
        Files.writeString(o.out().resolve("summary.md"), summary, StandardCharsets.UTF_8);
        System.out.println(summary);
        System.out.println("results: " + results + ", " + o.out().resolve("summary.md"));
        boolean anyCaseFailed = false;
        for (JsonElement c : r.getAsJsonArray("cases")) {
            JsonObject m = c.getAsJsonObject().getAsJsonObject("median");
            anyCaseFailed |= m.get("firstImageMs").isJsonNull();
        }
        return anyCaseFailed ? 1 : 0;
    }

    /** Orthanc (no authentication: loopback only) with the study, and the nginx front on its own origin. */
    private static String orthancFront(Path work, StoreServer store, java.util.Collection<SyntheticStudy.Study> studies,
                                       List<AutoCloseable> peers, Map<String, String> env)
            throws IOException, InterruptedException {
        Path orthancBinary = Servers.binary("Orthanc", "/usr/sbin/Orthanc").orElseThrow(() -> new IOException(
                "Orthanc is not installed (bootstrap/install-deps.sh --test installs orthanc and orthanc-dicomweb)"));
        Optional<Path> plugin = OrthancPeer.dicomWebPlugin();
        if (plugin.isEmpty()) {
            throw new IOException("Orthanc's DICOMweb plugin is not installed (orthanc-dicomweb)");
        }
        Path nginxBinary = Servers.binary("nginx", "/usr/sbin/nginx").orElseThrow(() -> new IOException(
                "nginx is not installed (bootstrap/install-deps.sh --test)"));
        System.out.println("study-open: starting Orthanc and its nginx front...");
        OrthancPeer orthanc = OrthancPeer.start(orthancBinary, Files.createDirectories(work.resolve("orthanc")), false);
        peers.add(0, orthanc);
        for (SyntheticStudy.Study st : studies) {
            for (Path f : st.files()) {
                orthanc.upload(f);
            }
        }
        env.put("orthanc", Servers.version(orthancBinary, "--version") + ", " + plugin.get().getFileName());
        int o = orthanc.uri("/").getPort();
        int s = store.uri("/").getPort();
        String upstreams = """
                upstream orthanc { server 127.0.0.1:%d; keepalive 32; }
                upstream store { server 127.0.0.1:%d; keepalive 32; }""".formatted(o, s);
        String proxy = "proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_set_header Host $http_host;"
                + " proxy_read_timeout 300s;";
        String locations = """
                location /dicomweb/ { proxy_pass http://orthanc/dicom-web/; %1$s }
                location /dicom-web/ { proxy_pass http://orthanc/dicom-web/; %1$s }
                location / { proxy_pass http://store; %1$s }""".formatted(proxy);
        StaticNginx front = StaticNginx.front(nginxBinary, Files.createDirectories(work.resolve("nginx")), upstreams,
                locations);
        peers.add(0, front);
        env.put("nginx", Servers.version(nginxBinary, "-v"));
        return "http://127.0.0.1:" + front.uri("/").getPort();
    }

    private static JsonObject study(String name, String studyUid, String seriesUid, int frames) {
        JsonObject s = new JsonObject();
        s.addProperty("name", name);
        s.addProperty("studyUid", studyUid);
        s.addProperty("seriesUid", seriesUid);
        s.addProperty("frames", frames);
        return s;
    }

    private static JsonObject viewerCase(String viewer, String server, String url, StoreServer store,
                                         JsonObject study) {
        JsonObject c = new JsonObject();
        c.addProperty("viewer", viewer);
        c.addProperty("server", server);
        c.addProperty("url", url);
        c.addProperty("user", "admin");
        c.addProperty("password", store.password());
        c.add("study", study);
        return c;
    }

    /** {@code node bench/study-open.mjs} in the web module, its output to the console and {@code log}. */
    private static void runBrowser(Path plan, Path results, Path log) throws IOException, InterruptedException {
        Path web = BenchPaths.root().resolve("web");
        BenchPaths.requireFile(web.resolve("node_modules/playwright-core/package.json"),
                "install the web module's packages (./medjava build, or npm ci in web/)");
        Process node = new ProcessBuilder("node", "bench/study-open.mjs", plan.toString(), results.toString())
                .directory(web.toFile()).redirectErrorStream(true).start();
        Servers.track(node);
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(node.getInputStream(),
                StandardCharsets.UTF_8)); var out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            for (String line; (line = lines.readLine()) != null; ) {
                System.out.println("  " + line);
                out.write(line);
                out.newLine();
                out.flush();
            }
        }
        boolean finished = node.waitFor(10, TimeUnit.SECONDS);
        int status = finished ? node.exitValue() : -1;
        Servers.stop(node, 5);
        if (status != 0 || !Files.isRegularFile(results)) {
            throw new IOException("the browser benchmark failed (exit " + status + "); see " + log);
        }
    }

    /** The medians as a Markdown table, with the load and the environment. */
    static String summary(JsonObject r) {
        StringBuilder md = new StringBuilder("# Study open in a real browser (issue 34)\n\n");
        JsonObject env = r.has("environment") ? r.getAsJsonObject("environment") : new JsonObject();
        md.append(String.format(Locale.ROOT, "%s; Chromium %s; %d CPUs (%s); load average %s at the start, %s at the "
                + "end; %d runs a case, each in a fresh browser context (cold cache).%n%n", r.get("when").getAsString(),
                r.get("chromium").getAsString(), r.get("cpus").getAsInt(), r.get("cpu").getAsString(),
                text(env, "load.start"), text(env, "load.end"), r.get("runsPerCase").getAsInt()));
        if (env.has("orthanc")) {
            md.append("Orthanc: ").append(text(env, "orthanc")).append(" behind ").append(text(env, "nginx"))
                    .append(".\n\n");
        }
        md.append("| viewer | server | study | network | first image (ms) | all frames (ms) | wheel scroll (images/s) "
                + "| load (1 min) | runs failed |\n|---|---|---|---|---:|---:|---:|---:|---:|\n");
        for (JsonElement e : r.getAsJsonArray("cases")) {
            JsonObject c = e.getAsJsonObject();
            JsonObject m = c.getAsJsonObject("median");
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %d of %d |%n",
                    c.get("viewer").getAsString().equals("web") ? "web viewer" : "OHIF", c.get("server").getAsString(),
                    c.get("study").getAsString(), c.get("profile").getAsString(), number(m, "firstImageMs", "%.0f"),
                    number(m, "allFramesMs", "%.0f"), number(m, "scrollImagesPerSecond", "%.1f"),
                    number(m, "load1", "%.2f"), c.get("failed").getAsInt(), c.getAsJsonArray("runs").size()));
        }
        md.append("\nMedians over the runs that finished; every run, its load average and any error are in "
                + "results.json. Figures taken on a loaded machine are not measurements of the servers.\n");
        return md.toString();
    }

    private static String number(JsonObject o, String key, String format) {
        return o.has(key) && !o.get(key).isJsonNull() ? String.format(Locale.ROOT, format, o.get(key).getAsDouble())
                : "–";
    }

    private static String text(JsonObject o, String key) {
        return o.has(key) ? o.get(key).getAsString() : "?";
    }
}
