package org.medjava.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.medjava.bench.serve.ServeStep;
import org.medjava.bench.serve.ServeStep.Case;
import org.medjava.bench.serve.ServeStep.Target;
import org.medjava.bench.serve.Statuses;

/**
 * Issue 30's comparison of the store's read path with nginx and Orthanc, from {@code raw/serve.csv}: the targets
 * (✓/✗ outside a smoke test), then a table per case with the median and range over the rounds, the latency
 * percentiles, the CPU each server spent per request and the load, and the store's HTTP/2 and overload runs. Only
 * the notes when the step was skipped (the quick run, a missing tool). Raw data of earlier runs (issue 21's columns
 * and cases) still reads: the targets it has no cells for are left out.
 */
final class ServeSection {
    /** Issue 30's overload target: the p99 of accepted requests, in ms. */
    static final double OVERLOAD_P99_MS = 50;
    /** "Memory flat" read as: the store's resident memory after the overload at most this much above before. */
    static final double RSS_GROWTH = 1.10;

    /**
     * One CSV line: a load run against one server. Round 0 is the warm-up (the store's first seconds after start);
     * the HTTP/2 and overload runs also have the answers by status and, overload, the resident memory around it.
     */
    record Cell(Target target, Case kase, long fileBytes, int round, double seconds, long requests, double reqPerSecond,
                double mibPerSecond, double p50Ms, double p99Ms, long non2xx, long socketErrors, double cpuSeconds,
                double load, Statuses statuses, long rssKibBefore, long rssKibAfter) {

        static Cell of(Map<String, String> r) {
            return new Cell(Target.parse(r.get("target")).orElseThrow(() -> new IllegalArgumentException(
                    "unknown serve target " + r.get("target"))),
                    Case.parse(r.get("case")).orElseThrow(() -> new IllegalArgumentException(
                            "unknown serve case " + r.get("case"))),
                    Long.parseLong(r.get("file_bytes")), Integer.parseInt(r.get("round")),
                    Double.parseDouble(r.get("seconds")),
                    Long.parseLong(r.get("requests")), Double.parseDouble(r.get("req_per_s")),
                    Double.parseDouble(r.get("mib_per_s")), Double.parseDouble(r.get("p50_ms")),
                    Double.parseDouble(r.get("p99_ms")), Long.parseLong(r.get("non2xx")),
                    Long.parseLong(r.get("socket_errors")), Double.parseDouble(r.get("cpu_s")),
                    Double.parseDouble(r.get("load1")),
                    Statuses.parse(r.getOrDefault("statuses", "")).withNoRetryAfter(number(r, "no_retry_after")),
                    number(r, "rss_kib_before"), number(r, "rss_kib_after"));
        }

        /** A column of issue 30's runs: -1 where a run did not record it (or raw data from before). */
        private static long number(Map<String, String> r, String column) {
            String v = r.getOrDefault(column, "");
            return v.isEmpty() ? -1 : Long.parseLong(v);
        }

        /** A round whose numbers do not compare; the HTTP/2 and overload runs' errors are what their targets judge. */
        boolean failed() {
            return requests == 0 || !judgesErrors(kase) && (non2xx > 0 || socketErrors > 0);
        }

        /** Errors of every kind in the HTTP/2 and overload runs: not 2xx (but a 503 with Retry-After), sockets. */
        long errors() {
            return kase == Case.OVERLOAD ? statuses.errors() + socketErrors : non2xx + socketErrors;
        }
    }

    private static boolean judgesErrors(Case c) {
        return c == Case.H2 || c == Case.OVERLOAD;
    }

    private final List<Cell> cells;
    private final boolean smoke;

    ServeSection(List<Cell> cells, boolean smoke) {
        this.cells = List.copyOf(cells);
        this.smoke = smoke;
    }

    static Optional<Section> build(Path raw, Path charts, Map<String, String> env, boolean smoke) throws IOException {
        List<Cell> cells = Csv.read(raw.resolve(ServeStep.CSV)).stream().map(Cell::of).collect(Collectors.toList());
        Path notesFile = raw.resolve(ServeStep.NOTES);
        List<String> notes = Files.isRegularFile(notesFile) ? Files.readAllLines(notesFile) : List.of();
        if (cells.isEmpty() && notes.isEmpty()) {
            return Optional.empty();
        }
        ServeSection s = new ServeSection(cells, smoke);
        List<String> paragraphs = new ArrayList<>();
        if (!cells.isEmpty()) {
            paragraphs.add("The same files served by the store (the built WAR on Payara Micro behind its own front, "
                    + "HTTP Basic authentication on), by nginx from Debian (static files: sendfile, one worker per "
                    + "core, no authentication: the ceiling of a file server) and by Orthanc from Debian (GET "
                    + "/instances/{id}/file; its DICOMweb plugin for frames and rendered images), once with HTTP "
                    + "Basic authentication on and, for the 39 KB file, once more with it off; all started by the run "
                    + "on loopback ports of this machine, which also runs the load generators (wrk, h2load). Rounds "
                    + "interleave the servers (store, nginx, Orthanc, ...), so a change in the machine's load touches "
                    + "all of them; medians over the rounds with [min–max]. Liveness compares different things: the "
                    + "store's /health/live, a 2-byte static file from nginx, Orthanc's /system.");
        }
        notes.forEach(n -> paragraphs.add(n));
        List<Table> tables = new ArrayList<>();
        if (!cells.isEmpty()) {
            tables.add(s.targets());
            Table cold = s.cold();
            if (!cold.isEmpty()) {
                tables.add(cold);
            }
            for (Case c : Case.values()) {
                if (judgesErrors(c)) {
                    continue; // the store alone: its own table
                }
                Table t = s.caseTable(c);
                if (!t.isEmpty()) {
                    tables.add(t);
                }
            }
            Table alone = s.storeAlone();
            if (!alone.isEmpty()) {
                tables.add(alone);
            }
            s.stillWarming().ifPresent(paragraphs::add);
            s.loadCaveat(env.get("cores")).ifPresent(paragraphs::add);
            List<String> failed = s.cells.stream().filter(Cell::failed).map(c -> c.target().id + " " + c.kase().id
                    + " round " + c.round() + " (" + c.non2xx() + " non-2xx, " + c.socketErrors()
                    + " socket errors)").collect(Collectors.toList());
            if (!failed.isEmpty()) {
                paragraphs.add("Cells with errors (their numbers are not comparable): " + String.join(", ", failed)
                        + ". See raw/" + ServeStep.WRK_LOG + ".");
            }
        }
        return Optional.of(new Section("serve", "The store against nginx and Orthanc (issue 30)", paragraphs, tables,
                List.of()));
    }

    /**
     * A warning when the store's 39 KB rate kept rising over the rounds (each round above the one before, the last
     * more than 1.5× the first): its JIT was still compiling, so the medians understate its steady state.
     */
    Optional<String> stillWarming() {
        List<Double> rates = measured(Target.STORE, Case.DICOM_39K).stream().sorted(
                java.util.Comparator.comparingInt(Cell::round)).map(Cell::reqPerSecond).collect(Collectors.toList());
        if (rates.size() < 2 || rates.get(rates.size() - 1) < 1.5 * rates.get(0)) {
            return Optional.empty();
        }
        for (int i = 1; i < rates.size(); i++) {
            if (rates.get(i) <= rates.get(i - 1)) {
                return Optional.empty();
            }
        }
        return Optional.of("The store was still warming up: its 39 KB rate rose in every round ("
                + rates.stream().map(Spread::num).collect(Collectors.joining(" → ")) + " req/s), so its medians "
                + "understate its steady state (the full run warms it for a minute; "
                + "-Dmedjava.bench.serve.warmup=SECONDS sets it).");
    }

    /** A warning when the 1-minute load exceeded the cores during the cells: the servers and wrk queued for them. */
    Optional<String> loadCaveat(String cores) {
        return loadCaveat(cells.stream().mapToDouble(Cell::load), cores, "the servers and wrk");
    }

    /** The same for any step's cells: {@code who} waited for the CPU (the servers and their load generator). */
    static Optional<String> loadCaveat(java.util.stream.DoubleStream loads, String cores, String who) {
        double worst = loads.filter(d -> !Double.isNaN(d)).max().orElse(0);
        try {
            int n = Integer.parseInt(cores);
            if (worst > n) {
                return Optional.of("Caution: the load average reached " + Spread.num(worst) + " on " + n + " cores "
                        + "during these cells: " + who + " waited for the CPU, the peers as much as the "
                        + "store; the ratios are steadier than the absolute rates, which are this machine's at this "
                        + "time, not the servers' best.");
            }
        } catch (RuntimeException unknown) {
            // cores unknown: no caveat
        }
        return Optional.empty();
    }

    /** The measured rounds (1..N) of one server and case. */
    List<Cell> measured(Target t, Case c) {
        return cells.stream().filter(x -> x.target() == t && x.kase() == c && x.round() > 0)
                .collect(Collectors.toList());
    }

    Optional<Spread> spread(Target t, Case c, ToDoubleFunction<Cell> value) {
        List<Cell> m = measured(t, c);
        return m.isEmpty() ? Optional.empty()
                : Optional.of(Spread.of(m.stream().map(value::applyAsDouble).collect(Collectors.toList())));
    }

    /** The unit a case is compared in: requests per second, or MiB/s for the large file. */
    private static ToDoubleFunction<Cell> rate(Case c) {
        return c == Case.LARGE ? Cell::mibPerSecond : Cell::reqPerSecond;
    }

    /** The median of one server's rounds of a case; empty without cells. */
    private Optional<Double> median(Target t, Case c, ToDoubleFunction<Cell> value) {
        return spread(t, c, value).map(Spread::median);
    }

    /** The only run of the store alone (HTTP/2, overload). */
    private Optional<Cell> alone(Case c) {
        return measured(Target.STORE, c).stream().findFirst();
    }

    /** Issue 30's targets, one a row: the store's figure, what it is compared with, the result and ✓/✗. */
    Table targets() {
        Table t = new Table("Store against nginx and Orthanc: issue 30's targets (medians of the rounds)",
                List.of("target", "store", "compared with", "result"));
        String small = "39 KB GET with authentication";
        ratioRow(t, small + " ≥ 1.2× Orthanc", Case.DICOM_39K, Target.ORTHANC, 1.2);
        ratioRow(t, small + " ≥ 0.6× nginx", Case.DICOM_39K, Target.NGINX, 0.6);
        atMostRow(t, small + ": p99 ≤ 2× Orthanc's", Case.DICOM_39K, Target.ORTHANC, Cell::p99Ms, 2, " ms");
        cpuRow(t, small + ": CPU per request ≤ Orthanc's");
        ratioRow(t, "39 KB GET against Orthanc without authentication (not judged)", Case.DICOM_39K,
                Target.ORTHANC_NO_AUTHENTICATION, Double.NaN);
        ratioRow(t, "1 MiB ≥ 0.9× nginx", Case.MIB_1, Target.NGINX, 0.9);
        atMostRow(t, "1 MiB: p99 ≤ 2× nginx's", Case.MIB_1, Target.NGINX, Cell::p99Ms, 2, " ms");
        ratioRow(t, label(Case.LARGE) + " ≥ 0.9× nginx", Case.LARGE, Target.NGINX, 0.9);
        ratioRow(t, "WADO-RS frame (512² 16-bit) ≥ 1.2× Orthanc's DICOMweb plugin", Case.FRAME, Target.ORTHANC,
                1.2);
        ratioRow(t, "thumbnail ≥ 1.2× Orthanc's DICOMweb plugin (its rendered 128²)", Case.THUMBNAIL, Target.ORTHANC,
                1.2);
        ratioRow(t, "liveness ≥ 0.5× nginx's 2-byte file", Case.LIVENESS, Target.NGINX, 0.5);
        Optional<Double> steady = median(Target.STORE, Case.DICOM_39K, Cell::reqPerSecond);
        warmUp(Target.STORE).ifPresent(cold -> steady.ifPresent(m -> t.row(List.of(String.format(Locale.ROOT,
                "first %.0f s after ready (39 KB) ≥ 0.5× steady", cold.seconds()), Spread.num(cold.reqPerSecond())
                + " req/s", "the store's 39 KB median " + Spread.num(m), judged(cold.reqPerSecond() / m, 0.5, null)))));
        alone(Case.H2).ifPresent(h2 -> {
            String what = String.format(Locale.ROOT, "HTTP/2, 100 streams on one connection for %.0f s",
                    h2.seconds());
            t.row(List.of(what + ": no error", h2.errors() + " errors", "–", verdict(Long.toString(h2.errors()),
                    "none", h2.errors() == 0)));
            steady.ifPresent(m -> t.row(List.of(what + ": rate ≥ HTTP/1.1 with 16 connections",
                    Spread.num(h2.reqPerSecond()) + " req/s", "the store's 39 KB median (wrk) " + Spread.num(m),
                    judged(h2.reqPerSecond() / m, 1.0, null))));
        });
        alone(Case.OVERLOAD).ifPresent(o -> {
            t.row(List.of("overload (512 connections): no error but 503 with Retry-After", o.errors() + " errors",
                    "–", verdict(Long.toString(o.errors()), "none", o.errors() == 0)));
            t.row(List.of("overload: p99 of accepted requests ≤ 50 ms", SummaryTables.ms(o.p99Ms()) + " ms", "–",
                    verdict(SummaryTables.ms(o.p99Ms()) + " ms", "≤ 50 ms", o.p99Ms() <= OVERLOAD_P99_MS)));
            if (o.rssKibBefore() > 0 && o.rssKibAfter() > 0) {
                double growth = (double) o.rssKibAfter() / o.rssKibBefore();
                t.row(List.of("overload: memory flat", mib(o.rssKibAfter()) + " after", mib(o.rssKibBefore())
                        + " before", verdict(String.format(Locale.ROOT, "%.2f×", growth), String.format(Locale.ROOT,
                        "≤ %.2f×", RSS_GROWTH), growth <= RSS_GROWTH)));
            }
        });
        t.note("Targets (issue 30). The verdicts against Orthanc use Orthanc with its authentication on: the store "
                + "checks a password on every request too; Orthanc without authentication is shown for comparison "
                + "and not judged. HTTP/2 is measured for a shorter time than issue 30's minute outside the full run "
                + "(-Dmedjava.bench.serve.h2seconds=N sets it). Overload: wrk's p99 covers every answer, 503s "
                + "included (wrk cannot split it by status; it is the accepted requests' exactly when all were 200); "
                + "memory flat is read as the store JVM's resident memory (VmRSS) after the run at most "
                + String.format(Locale.ROOT, "%.0f", (RSS_GROWTH - 1) * 100) + " % above before."
                + (smoke ? " " + SummaryTables.SMOKE_NOTE : " ✓ met, ✗ missed; no mark: no target."));
        return t;
    }

    /** The store's median rate ÷ a peer's (MiB/s for the large file), judged ≥ {@code target} (NaN: not judged). */
    private void ratioRow(Table t, String what, Case c, Target peer, double target) {
        ToDoubleFunction<Cell> rate = rate(c);
        String unit = c == Case.LARGE ? " MiB/s" : " req/s";
        spread(Target.STORE, c, rate).ifPresent(store -> spread(peer, c, rate).ifPresent(p -> t.row(List.of(what,
                Spread.num(store.median()) + unit, peer.label + " " + Spread.num(p.median()) + unit,
                ratio(store, Optional.of(p), target)))));
    }

    /** The store's median of {@code value} ÷ a peer's, judged ≤ {@code limit}. */
    private void atMostRow(Table t, String what, Case c, Target peer, ToDoubleFunction<Cell> value, double limit,
                           String unit) {
        median(Target.STORE, c, value).ifPresent(store -> median(peer, c, value).ifPresent(p -> t.row(List.of(what,
                SummaryTables.ms(store) + unit, peer.label + " " + SummaryTables.ms(p) + unit,
                verdict(String.format(Locale.ROOT, "%.2f", store / p), String.format(Locale.ROOT, "≤ %.1f", limit),
                        store / p <= limit)))));
    }

    /** CPU milliseconds per request over all the rounds, the store's ÷ Orthanc's, judged ≤ 1. */
    private void cpuRow(Table t, String what) {
        List<Cell> store = measured(Target.STORE, Case.DICOM_39K);
        List<Cell> orthanc = measured(Target.ORTHANC, Case.DICOM_39K);
        double s = cpuMsPerRequest(store);
        double o = cpuMsPerRequest(orthanc);
        if (!Double.isNaN(s) && !Double.isNaN(o)) {
            t.row(List.of(what, cpuPerRequest(store) + " ms", Target.ORTHANC.label + " " + cpuPerRequest(orthanc)
                    + " ms", verdict(String.format(Locale.ROOT, "%.2f", s / o), "≤ 1.0", s <= o)));
        }
    }

    private static String mib(long kib) {
        return String.format(Locale.ROOT, "%,d MiB", Math.round(kib / 1024.0));
    }

    /** Round 0 of the 39 KB case: the store's first seconds of load after it became ready, the peers' warm-up. */
    Table cold() {
        Table t = new Table("39 KB DICOM right after start (the warm-up, before the rounds)",
                List.of("server", "seconds of load", "req/s", "p50 ms", "p99 ms", "CPU ms per request",
                        "store ÷ this"));
        Optional<Cell> store = warmUp(Target.STORE);
        for (Target target : Target.values()) {
            warmUp(target).ifPresent(c -> t.row(List.of(target.label, String.format(Locale.ROOT, "%.0f", c.seconds()),
                    Spread.num(c.reqPerSecond()), SummaryTables.ms(c.p50Ms()), SummaryTables.ms(c.p99Ms()),
                    cpuPerRequest(List.of(c)), target == Target.STORE || store.isEmpty() ? "–"
                            : String.format(Locale.ROOT, "%.2f", store.get().reqPerSecond() / c.reqPerSecond()))));
        }
        t.note("The store is loaded as soon as it answers /health/ready (its JIT has compiled nothing yet); the rest "
                + "of its warm-up is not recorded. nginx and Orthanc have been up a little longer and get a shorter "
                + "warm-up, so their row is close to their steady state. Issue 30 judges the store's row against its "
                + "own steady median (the targets table).");
        return t;
    }

    private Optional<Cell> warmUp(Target target) {
        return cells.stream().filter(c -> c.target() == target && c.kase() == Case.DICOM_39K && c.round() == 0)
                .findFirst();
    }

    /** One case: every server's median [min–max] over the rounds, latency, CPU per request, load. */
    Table caseTable(Case c) {
        int rounds = (int) cells.stream().filter(x -> x.kase() == c && x.round() > 0).mapToInt(Cell::round)
                .distinct().count();
        Table t = new Table("GET " + label(c) + ": median [min–max] of " + rounds + " round" + (rounds == 1 ? "" : "s"),
                List.of("server", "authentication", "req/s", "MiB/s", "p50 ms", "p99 ms", "CPU ms per request",
                        "load (1 min)"));
        for (Target target : Target.values()) {
            List<Cell> m = measured(target, c);
            if (m.isEmpty()) {
                continue;
            }
            t.row(List.of(target.label, target.authentication(c), spread(target, c, Cell::reqPerSecond).get().text(),
                    Spread.num(spread(target, c, Cell::mibPerSecond).get().median()),
                    SummaryTables.ms(spread(target, c, Cell::p50Ms).get().median()),
                    SummaryTables.ms(spread(target, c, Cell::p99Ms).get().median()),
                    cpuPerRequest(m), Spread.num(spread(target, c, Cell::load).get().median())));
        }
        if (c == Case.LARGE) {
            t.note("One connection (wrk -t1 -c1): whole transfers of the large file, one after the other; the "
                    + "latency is the time of one transfer.");
        }
        if (c == Case.LIVENESS) {
            t.note("Not the same work: the store's /health/live runs its liveness checks (anonymous), nginx sends a "
                    + "2-byte file, Orthanc's /system answers its JSON description (authenticated). MiB/s here counts "
                    + "headers too (wrk's Transfer/sec); for files it is bodies: rate × file size.");
        }
        if (c == Case.FRAME) {
            t.note("GET .../studies/{study}/series/{series}/instances/{instance}/frames/1 of one uncompressed "
                    + "512×512 16-bit MONOCHROME2 instance (explicit VR little endian), with Accept: "
                    + "multipart/related; type=\"application/octet-stream\": the store's /dicomweb/, Orthanc's "
                    + "DICOMweb plugin at "
                    + "/dicom-web/. MiB/s: the frame's pixel bytes (512² × 2) per second.");
        }
        if (c == Case.THUMBNAIL) {
            t.note("The store: GET /dicomweb/.../instances/{instance}/thumbnail (a 128×128 JPEG, its default), "
                    + "made for each request: the run turns the store's thumbnail cache off "
                    + "(medjava.http.thumbnail-cache-bytes=0), which would otherwise answer every request but the "
                    + "first from memory. "
                    + "Orthanc's DICOMweb plugin (1.7) has no thumbnail resource: its .../instances/{instance}/"
                    + "rendered?viewport=128,128 makes the same 128×128 JPEG. Both with Accept: image/jpeg. MiB/s: "
                    + "wrk's Transfer/sec, headers and all.");
        }
        return t;
    }

    /** The store alone after the rounds: HTTP/2 with 100 streams on one connection, overload with 512 connections. */
    Table storeAlone() {
        Table t = new Table("The store alone: HTTP/2 and overload (one run each, after the rounds)",
                List.of("load", "seconds", "req/s", "p50 ms", "p99 ms", "answers by status", "errors",
                        "resident memory before → after", "CPU ms per request"));
        alone(Case.H2).ifPresent(c -> t.row(List.of("39 KB over HTTP/2 (h2c): h2load -c1 -m100",
                String.format(Locale.ROOT, "%.0f", c.seconds()), Spread.num(c.reqPerSecond()),
                SummaryTables.ms(c.p50Ms()), SummaryTables.ms(c.p99Ms()), c.statuses().text(),
                c.non2xx() + " failed, " + c.socketErrors() + " errored", "–", cpuPerRequest(List.of(c)))));
        alone(Case.OVERLOAD).ifPresent(c -> t.row(List.of("39 KB under overload: wrk -t2 -c512",
                String.format(Locale.ROOT, "%.0f", c.seconds()), Spread.num(c.reqPerSecond()),
                SummaryTables.ms(c.p50Ms()), SummaryTables.ms(c.p99Ms()), c.statuses().text(),
                c.socketErrors() + " socket errors, " + c.statuses().noRetryAfter() + " 503 without Retry-After",
                c.rssKibBefore() > 0 ? mib(c.rssKibBefore()) + " → " + mib(c.rssKibAfter()) : "–",
                cpuPerRequest(List.of(c)))));
        t.note("HTTP/2: h2load (nghttp2) with prior knowledge (h2c) on the store's port, one connection, 100 "
                + "concurrent streams, the admin's credentials on every request; its percentiles are over the 2xx "
                + "answers, from its per-request log; failed: answers that were not 2xx/3xx, errored: streams or "
                + "connections that broke. Overload: wrk -t2 -c512 --latency with a script counting the answers by "
                + "status and the 503s without Retry-After; socket errors are wrk's (connect, read, write, timeout); "
                + "its percentiles cover every answer. Resident memory: VmRSS of the store's JVM (/proc/PID/status) "
                + "just before and just after the run.");
        return t;
    }

    /** The case's name; the large file's with its size, which the run chose. */
    String label(Case c) {
        if (c != Case.LARGE) {
            return c.label;
        }
        long bytes = cells.stream().filter(x -> x.kase() == c).mapToLong(Cell::fileBytes).max().orElse(0);
        return String.format(Locale.ROOT, "%d MiB DICOM, one connection", Math.round(bytes / 1048576.0));
    }

    /** CPU milliseconds per request of the server process (its descendants included) over these cells. */
    static String cpuPerRequest(List<Cell> m) {
        double ms = cpuMsPerRequest(m);
        return Double.isNaN(ms) ? "–" : String.format(Locale.ROOT, "%.3f", ms);
    }

    static double cpuMsPerRequest(List<Cell> m) {
        long requests = m.stream().mapToLong(Cell::requests).sum();
        double cpu = m.stream().mapToDouble(Cell::cpuSeconds).sum();
        return requests == 0 ? Double.NaN : cpu * 1e3 / requests;
    }

    private String ratio(Spread store, Optional<Spread> peer, double target) {
        if (peer.isEmpty()) {
            return "–";
        }
        return judged(store.median() / peer.get().median(), target, null);
    }

    /** "0.42 (≥ 0.5) ✗"; without a target or in a smoke test, the number alone (the target still shown). */
    String judged(double value, double target, String targetText) {
        return judged(value, target, targetText, smoke);
    }

    /** "928 ms (≤ 50 ms) ✗": a figure and its limit, marked outside a smoke test. */
    String verdict(String value, String limit, boolean met) {
        return value + " (" + limit + ")" + (smoke ? "" : met ? " ✓" : " ✗");
    }

    /** The same for any step's targets. */
    static String judged(double value, double target, String targetText, boolean smoke) {
        String v = targetText == null ? String.format(Locale.ROOT, "%.2f", value) : "";
        if (Double.isNaN(target)) {
            return v;
        }
        String limit = targetText != null ? targetText : String.format(Locale.ROOT, "≥ %.1f", target);
        String text = (v.isEmpty() ? "" : v + " ") + "(" + limit + ")";
        if (smoke) {
            return text;
        }
        return text + (value >= target ? " ✓" : " ✗");
    }
}
