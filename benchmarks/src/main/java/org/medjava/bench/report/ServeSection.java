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

/**
 * Issue 21's comparison of the store's GET path with nginx and Orthanc, from {@code raw/serve.csv}: the targets as
 * ratios of medians (✓/✗ outside a smoke test), then a table per case with the median and range over the rounds,
 * the latency percentiles, the CPU each server spent per request and the load. Only the notes when the step was
 * skipped (the quick run, a missing tool).
 */
final class ServeSection {
    /** Issue 21's liveness target: ten times the store's /health rate it measured (1,601 req/s). */
    static final double LIVENESS_TODAY = 1601;

    /** One CSV line: a wrk run against one server. Round 0 is the warm-up (the store's first seconds after start). */
    record Cell(Target target, Case kase, long fileBytes, int round, double seconds, long requests, double reqPerSecond,
                double mibPerSecond, double p50Ms, double p99Ms, long non2xx, long socketErrors, double cpuSeconds,
                double load) {

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
                    Double.parseDouble(r.get("load1")));
        }

        boolean failed() {
            return requests == 0 || non2xx > 0 || socketErrors > 0;
        }
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
            paragraphs.add("The same files served by the store (the built WAR on Payara Micro, HTTP Basic "
                    + "authentication on), by nginx from Debian (static files: sendfile, one worker per core, no "
                    + "authentication: the ceiling of a file server) and by Orthanc from Debian (GET "
                    + "/instances/{id}/file, HTTP Basic authentication on), all three started by the run on loopback "
                    + "ports of this machine, which also runs the load generator (wrk). Rounds interleave the "
                    + "servers (store, nginx, Orthanc, store, ...), so a change in the machine's load touches all "
                    + "three; medians over the rounds with [min–max]. Liveness compares different things: the "
                    + "store's MicroProfile /health/live, a 2-byte static file from nginx, Orthanc's /system.");
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
                Table t = s.caseTable(c);
                if (!t.isEmpty()) {
                    tables.add(t);
                }
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
        return Optional.of(new Section("serve", "The store against nginx and Orthanc (issue 21)", paragraphs, tables,
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

    /** The targets table: medians, the store's ratios to each peer, ✓/✗ against issue 21's figures. */
    Table targets() {
        Table t = new Table("Store against nginx and Orthanc: issue 21's targets (medians of the rounds)",
                List.of("GET", "unit", "store", "nginx", "Orthanc", "store ÷ nginx", "store ÷ Orthanc"));
        for (Case c : Case.values()) {
            ToDoubleFunction<Cell> rate = rate(c);
            Optional<Spread> store = spread(Target.STORE, c, rate);
            if (store.isEmpty()) {
                continue;
            }
            Optional<Spread> nginx = spread(Target.NGINX, c, rate);
            Optional<Spread> orthanc = spread(Target.ORTHANC, c, rate);
            String storeCell = Spread.num(store.get().median());
            if (c == Case.LIVENESS) {
                storeCell += " " + judged(store.get().median() / (10 * LIVENESS_TODAY), 1.0,
                        "≥ " + Spread.num(10 * LIVENESS_TODAY));
            }
            t.row(List.of(label(c), c == Case.LARGE ? "MiB/s" : "req/s", storeCell,
                    nginx.map(x -> Spread.num(x.median())).orElse("–"),
                    orthanc.map(x -> Spread.num(x.median())).orElse("–"),
                    ratio(store.get(), nginx, c == Case.DICOM_39K ? 0.5 : c == Case.MIB_1 ? 0.8
                            : c == Case.LARGE ? 0.9 : Double.NaN),
                    ratio(store.get(), orthanc, c == Case.DICOM_39K ? 1.0 : Double.NaN)));
        }
        t.note("Targets (issue 21): 39 KB with authentication ≥ 1.0× Orthanc and ≥ 0.5× nginx; 1 MiB ≥ 0.8× nginx; "
                + "the large file ≥ 0.9× nginx; liveness ≥ 10× the store's /health rate the issue measured ("
                + Spread.num(LIVENESS_TODAY) + " req/s). The ratios must also hold within a minute of start: see the "
                + "cold table." + (smoke ? " " + SummaryTables.SMOKE_NOTE : " ✓ met, ✗ missed; no mark: no target."));
        return t;
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
                            : judged(store.get().reqPerSecond() / c.reqPerSecond(),
                            target == Target.NGINX ? 0.5 : 1.0, null))));
        }
        t.note("The store is loaded as soon as it answers /health/ready (its JIT has compiled nothing yet), for its "
                + "whole warm-up; nginx and Orthanc have been up a little longer and get a shorter warm-up, so their "
                + "row is close to their steady state. " + (smoke ? "" : "Judged against the 39 KB targets (issue 21: "
                + "the ratios must hold within a minute of start)."));
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
            t.note("Not the same work: the store's /health/live runs its MicroProfile liveness checks (anonymous), "
                    + "nginx sends a 2-byte file, Orthanc's /system answers its JSON description (authenticated). "
                    + "MiB/s here counts headers too (wrk's Transfer/sec); for files it is bodies: rate × file size.");
        }
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
        long requests = m.stream().mapToLong(Cell::requests).sum();
        double cpu = m.stream().mapToDouble(Cell::cpuSeconds).sum();
        return requests == 0 ? "–" : String.format(Locale.ROOT, "%.3f", cpu * 1e3 / requests);
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
