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
import org.medjava.bench.ingest.IngestStep;
import org.medjava.bench.ingest.IngestStep.Protocol;
import org.medjava.bench.serve.ServeStep.Target;

/**
 * Issue 21's comparison of the store's ingest with Orthanc's, from {@code raw/ingest.csv}: the target (store ≥ 2×
 * Orthanc in instances per second, C-STORE and STOW-RS, 1 and 4 senders) as ratios of medians with the range of the
 * per-round ratios (✓/✗ outside a smoke test), then a table per protocol with rates, per-instance percentiles, CPU per
 * instance and load. Only the notes when the step was skipped.
 */
final class IngestSection {
    /** Issue 21's ingest target: the store at least twice Orthanc's rate. */
    static final double TARGET = 2.0;

    /** One CSV line: one server receiving one batch from some senders in one round. */
    record Cell(Target target, Protocol protocol, int senders, int round, long instances, double seconds,
                double perSecond, double p50Ms, double p99Ms, double cpuSeconds, double load) {

        static Cell of(Map<String, String> r) {
            return new Cell(Target.parse(r.get("target")).orElseThrow(() -> new IllegalArgumentException(
                    "unknown ingest target " + r.get("target"))),
                    Protocol.parse(r.get("protocol")).orElseThrow(() -> new IllegalArgumentException(
                            "unknown ingest protocol " + r.get("protocol"))),
                    Integer.parseInt(r.get("senders")), Integer.parseInt(r.get("round")),
                    Long.parseLong(r.get("instances")), Double.parseDouble(r.get("seconds")),
                    Double.parseDouble(r.get("inst_per_s")), Double.parseDouble(r.get("p50_ms")),
                    Double.parseDouble(r.get("p99_ms")), Double.parseDouble(r.get("cpu_s")),
                    Double.parseDouble(r.get("load1")));
        }
    }

    private final List<Cell> cells;
    private final boolean smoke;

    IngestSection(List<Cell> cells, boolean smoke) {
        this.cells = List.copyOf(cells);
        this.smoke = smoke;
    }

    static Optional<Section> build(Path raw, Path charts, Map<String, String> env, boolean smoke) throws IOException {
        List<Cell> cells = Csv.read(raw.resolve(IngestStep.CSV)).stream().map(Cell::of).collect(Collectors.toList());
        Path notesFile = raw.resolve(IngestStep.NOTES);
        List<String> notes = Files.isRegularFile(notesFile) ? Files.readAllLines(notesFile) : List.of();
        if (cells.isEmpty() && notes.isEmpty()) {
            return Optional.empty();
        }
        IngestSection s = new IngestSection(cells, smoke);
        List<String> paragraphs = new ArrayList<>();
        if (!cells.isEmpty()) {
            paragraphs.add("The same new instances stored by the store (the built WAR on Payara Micro: its DIMSE SCP "
                    + "and its DICOMweb STOW-RS, each instance fsynced and indexed before it is confirmed) and by "
                    + "Orthanc from Debian (its DICOM server and DICOMweb plugin, SQLite index), both started by the "
                    + "run on loopback ports of this machine, which also runs the senders. Rounds interleave the "
                    + "servers, so a change in the machine's load touches both; medians over the rounds with "
                    + "[min–max]. The rate is instances over the wall time of a batch; p50 and p99 are per instance, "
                    + "as a sender sees it.");
        }
        paragraphs.addAll(notes);
        List<Table> tables = new ArrayList<>();
        if (!cells.isEmpty()) {
            tables.add(s.targets());
            for (Protocol p : Protocol.values()) {
                Table t = s.protocolTable(p);
                if (!t.isEmpty()) {
                    tables.add(t);
                }
            }
            ServeSection.loadCaveat(cells.stream().mapToDouble(Cell::load), env.get("cores"),
                    "the servers and the senders").ifPresent(paragraphs::add);
        }
        return Optional.of(new Section("ingest", "Ingest: the store against Orthanc (issue 21)", paragraphs, tables,
                List.of()));
    }

    /** The measured rounds of one server, protocol and number of senders. */
    List<Cell> measured(Target t, Protocol p, int senders) {
        return cells.stream().filter(c -> c.target() == t && c.protocol() == p && c.senders() == senders)
                .collect(Collectors.toList());
    }

    Optional<Spread> spread(Target t, Protocol p, int senders, ToDoubleFunction<Cell> value) {
        List<Cell> m = measured(t, p, senders);
        return m.isEmpty() ? Optional.empty()
                : Optional.of(Spread.of(m.stream().map(value::applyAsDouble).collect(Collectors.toList())));
    }

    /** The target table: medians, the ratio of medians judged, the range of the rounds' own ratios, p99s. */
    Table targets() {
        Table t = new Table("Ingest against Orthanc: issue 21's target (medians of the rounds)",
                List.of("protocol", "senders", "store instances/s", "Orthanc instances/s", "store ÷ Orthanc",
                        "ratio per round [min–max]", "store p99 ms", "Orthanc p99 ms"));
        for (Protocol p : Protocol.values()) {
            for (int senders : IngestStep.SENDERS) {
                Optional<Spread> store = spread(Target.STORE, p, senders, Cell::perSecond);
                if (store.isEmpty()) {
                    continue;
                }
                Optional<Spread> orthanc = spread(Target.ORTHANC, p, senders, Cell::perSecond);
                t.row(List.of(p.label, Integer.toString(senders), Spread.num(store.get().median()),
                        orthanc.map(o -> Spread.num(o.median())).orElse("–"),
                        orthanc.map(o -> ServeSection.judged(store.get().median() / o.median(), TARGET, null, smoke))
                                .orElse("–"),
                        roundRatios(p, senders).map(r -> String.format(Locale.ROOT, "[%.2f–%.2f]", r.min(), r.max()))
                                .orElse("–"),
                        SummaryTables.ms(spread(Target.STORE, p, senders, Cell::p99Ms).get().median()),
                        spread(Target.ORTHANC, p, senders, Cell::p99Ms).map(o -> SummaryTables.ms(o.median()))
                                .orElse("–")));
            }
        }
        t.note("Target (issue 21): the store ≥ " + String.format(Locale.ROOT, "%.0f", TARGET) + "× Orthanc's "
                + "instances per second, C-STORE and STOW-RS, 1 and 4 senders, the same files on the same machine; "
                + "p99 per instance reported. The ratio per round divides the two servers' rates of the same round."
                + (smoke ? " " + SummaryTables.SMOKE_NOTE : " ✓ met, ✗ missed."));
        return t;
    }

    /** The store's rate over Orthanc's in each round that has both. */
    Optional<Spread> roundRatios(Protocol p, int senders) {
        List<Double> ratios = new ArrayList<>();
        for (Cell store : measured(Target.STORE, p, senders)) {
            measured(Target.ORTHANC, p, senders).stream().filter(o -> o.round() == store.round()).findFirst()
                    .ifPresent(o -> ratios.add(store.perSecond() / o.perSecond()));
        }
        return ratios.isEmpty() ? Optional.empty() : Optional.of(Spread.of(ratios));
    }

    /** One protocol: each server and number of senders, median [min–max] over the rounds. */
    Table protocolTable(Protocol p) {
        int rounds = (int) cells.stream().filter(c -> c.protocol() == p).mapToInt(Cell::round).distinct().count();
        Table t = new Table(p.label + ": median [min–max] of " + rounds + " round" + (rounds == 1 ? "" : "s"),
                List.of("server", "senders", "instances/s", "p50 ms", "p99 ms", "CPU ms per instance",
                        "load (1 min)"));
        for (Target target : List.of(Target.STORE, Target.ORTHANC)) {
            for (int senders : IngestStep.SENDERS) {
                List<Cell> m = measured(target, p, senders);
                if (m.isEmpty()) {
                    continue;
                }
                t.row(List.of(target.label, Integer.toString(senders),
                        spread(target, p, senders, Cell::perSecond).get().text(),
                        SummaryTables.ms(spread(target, p, senders, Cell::p50Ms).get().median()),
                        msRange(spread(target, p, senders, Cell::p99Ms).get()), cpuPerInstance(m),
                        Spread.num(spread(target, p, senders, Cell::load).get().median())));
            }
        }
        return t;
    }

    private static String msRange(Spread s) {
        return SummaryTables.ms(s.median()) + " [" + SummaryTables.ms(s.min()) + "–" + SummaryTables.ms(s.max())
                + "]";
    }

    /** CPU milliseconds per instance of the server process (its descendants included) over these cells. */
    static String cpuPerInstance(List<Cell> m) {
        long instances = m.stream().mapToLong(Cell::instances).sum();
        double cpu = m.stream().mapToDouble(Cell::cpuSeconds).sum();
        return instances == 0 ? "–" : String.format(Locale.ROOT, "%.2f", cpu * 1e3 / instances);
    }
}
