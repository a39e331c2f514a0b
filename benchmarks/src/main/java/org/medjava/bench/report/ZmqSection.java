package org.medjava.bench.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.medjava.bench.zmq.ZmqStep;
import org.medjava.bench.zmq.ZmqStep.Mechanism;

/**
 * The ØMQ section (issue 20, experiment 2) from {@code raw/zmq.csv}: latency and throughput per message size for
 * libzmq, JeroMQ and the raw-socket baselines over tcp:// and ipc://, Java ÷ C ratios, the whitepaper's figures
 * beside ours, two charts by message size, and a verdict computed from the measured medians (none in the quick
 * run's smoke test).
 */
final class ZmqSection {
    /** The whitepaper's throughput at 1 B (msg/s), as issue 20 quotes it: C++ and the Java extension. */
    static final double PAPER_C_1B = 2.44e6;
    static final double PAPER_JAVA_1B = 1.45e6;

    private static final Map<Mechanism, Color[]> COLORS = Map.of( // tcp, ipc
            Mechanism.LIBZMQ, new Color[] {new Color(0xa50f15), new Color(0xfc9272)},
            Mechanism.JEROMQ, new Color[] {new Color(0x1f77b4), new Color(0x9ecae1)},
            Mechanism.C_RAW, new Color[] {new Color(0x31a354), new Color(0xa1d99b)},
            Mechanism.JAVA_RAW, new Color[] {new Color(0x6a51a3), new Color(0xbcbddc)});

    /** (mechanism, transport, test) → size → samples (µs one way for latency, messages/s for throughput). */
    private final Map<String, TreeMap<Integer, List<Double>>> samples = new TreeMap<>();
    private final TreeSet<Integer> sizes = new TreeSet<>();
    private int runs;
    private String libzmq;

    private ZmqSection() {
    }

    static Optional<Section> build(Path raw, Path charts, Map<String, String> env, boolean smokeTest)
            throws IOException {
        List<Map<String, String>> rows = Csv.read(raw.resolve(ZmqStep.CSV));
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        ZmqSection z = new ZmqSection();
        for (Map<String, String> r : rows) {
            long count = Long.parseLong(r.get("count"));
            double seconds = Double.parseDouble(r.get("seconds"));
            boolean lat = r.get("test").equals("lat");
            double value = lat ? seconds / count / 2 * 1e6 : count / seconds;
            int size = Integer.parseInt(r.get("size"));
            z.sizes.add(size);
            z.runs = Math.max(z.runs, Integer.parseInt(r.get("run")) + 1);
            z.samples.computeIfAbsent(key(Mechanism.parse(r.get("impl")), r.get("transport"), r.get("test")),
                    k -> new TreeMap<>()).computeIfAbsent(size, k -> new ArrayList<>()).add(value);
        }
        List<String> notes = Files.isRegularFile(raw.resolve(ZmqStep.NOTES))
                ? Files.readAllLines(raw.resolve(ZmqStep.NOTES)) : List.of();
        Path version = raw.resolve(ZmqStep.LIBZMQ_VERSION);
        z.libzmq = Files.isRegularFile(version) ? Files.readString(version).trim() : "(not built)";
        return Optional.of(z.section(charts, env, smokeTest, notes));
    }

    private static String key(Mechanism m, String transport, String test) {
        return m.id() + "/" + transport + "/" + test;
    }

    Optional<Double> median(Mechanism m, String transport, String test, int size) {
        List<Double> v = samples.getOrDefault(key(m, transport, test), new TreeMap<>()).get(size);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(Throughput.median(v));
    }

    private String cell(Mechanism m, String transport, String test, int size) {
        List<Double> v = samples.getOrDefault(key(m, transport, test), new TreeMap<>()).get(size);
        if (v == null || v.isEmpty()) {
            return "–";
        }
        double med = Throughput.median(v);
        String text = test.equals("lat") ? micros(med) : rate(med);
        if (v.size() > 1) {
            text += " (" + (test.equals("lat") ? micros(Collections.min(v)) : rate(Collections.min(v))) + "–"
                    + (test.equals("lat") ? micros(Collections.max(v)) : rate(Collections.max(v))) + ")";
        }
        return text;
    }

    private String ratio(Mechanism java, Mechanism c, String transport, String test, int size) {
        Optional<Double> j = median(java, transport, test, size);
        Optional<Double> k = median(c, transport, test, size);
        return j.isPresent() && k.isPresent() ? String.format(Locale.ROOT, "%.2f", j.get() / k.get()) : "–";
    }

    static String micros(double us) {
        return us >= 100 ? String.format(Locale.ROOT, "%.0f", us) : String.format(Locale.ROOT, "%.3g", us);
    }

    static String rate(double perSecond) {
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.0f k", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", perSecond);
    }

    private Section section(Path charts, Map<String, String> env, boolean smokeTest, List<String> notes)
            throws IOException {
        List<String> paragraphs = new ArrayList<>();
        if (smokeTest) {
            paragraphs.add("Smoke test (quick run): a few hundred messages per size and one run, only to prove that "
                    + "every program, the report section and its charts work. The numbers mean nothing; no verdict.");
        }
        paragraphs.add(String.format(Locale.ROOT, "Programs equivalent to ØMQ's perf tools, two processes per "
                + "measurement (a local end that binds, a remote end that connects), on this machine's loopback: "
                + "latency as local_lat/remote_lat (REQ against REP; one way = round trip ÷ 2, ØMQ's convention), "
                + "throughput as local_thr/remote_thr (PUSH into PULL; messages ÷ the receiver's time from its first "
                + "measured message to its last). C: libzmq %s (Debian libzmq3-dev). Java: JeroMQ 0.6.0 on the JDK "
                + "running the benchmarks. Raw sockets: the same message pattern on a plain stream socket (one write "
                + "per message, every message read in full; TCP_NODELAY), C (write/read) and Java (blocking NIO "
                + "channels, direct buffers); their ipc:// is a Unix domain socket. JeroMQ 0.6.0 has no Unix domain "
                + "sockets: its ipc:// is TCP on the loopback to a port derived from the path, so its ipc column "
                + "measures TCP again. Median of %d run(s) per point, range in brackets; the implementations take "
                + "turns. Both processes share the machine's %s cores with each other (and with whatever else runs: "
                + "load average %s at the start of the whole benchmark run, %s at its end); nothing is pinned.",
                libzmq, runs, env.getOrDefault("cores", "?"),
                env.getOrDefault("load.start", "?"), env.getOrDefault("load.end", "?")));
        notes.forEach(n -> paragraphs.add("Note: " + n + "."));

        List<Table> tables = new ArrayList<>();
        for (String transport : ZmqStep.TRANSPORTS) {
            for (String test : List.of("lat", "thr")) {
                tables.add(table(transport, test));
            }
        }
        tables.add(paperTable());
        if (!smokeTest) {
            paragraphs.addAll(verdict());
        }
        Charts.write(chart("lat"), charts, "zmq-latency");
        Charts.write(chart("thr"), charts, "zmq-throughput");
        return new Section("zmq", "ØMQ: libzmq and JeroMQ against raw sockets (issue 20, experiment 2)", paragraphs,
                tables, List.of("zmq-latency", "zmq-throughput"));
    }

    private Table table(String transport, String test) {
        boolean lat = test.equals("lat");
        String title = (lat ? "ØMQ latency over " + transport + ":// (µs one way, lower is better)"
                : "ØMQ throughput over " + transport + ":// (messages/s, higher is better)")
                + (runs > 1 ? ": median of " + runs + " runs (min–max)" : "");
        Table t = new Table(title, List.of("message size", "C libzmq", "Java JeroMQ", "JeroMQ ÷ libzmq",
                "C raw socket", "Java raw socket", "Java raw ÷ C raw"));
        for (int size : sizes) {
            t.row(List.of(Charts.bufferLabel(size), cell(Mechanism.LIBZMQ, transport, test, size),
                    cell(Mechanism.JEROMQ, transport, test, size),
                    ratio(Mechanism.JEROMQ, Mechanism.LIBZMQ, transport, test, size),
                    cell(Mechanism.C_RAW, transport, test, size), cell(Mechanism.JAVA_RAW, transport, test, size),
                    ratio(Mechanism.JAVA_RAW, Mechanism.C_RAW, transport, test, size)));
        }
        t.note(lat ? "Java ÷ C above 1: Java takes longer." : "Java ÷ C below 1: Java moves fewer messages.");
        return t;
    }

    private Table paperTable() {
        Table t = new Table("ØMQ: the whitepaper's figures beside ours (tcp://, 1 B messages)",
                List.of("figure", "whitepaper (ØMQ 0.3, C++ and its Java extension)", "ours (libzmq " + libzmq
                        + ", JeroMQ 0.6.0)"));
        Optional<Double> c = median(Mechanism.LIBZMQ, "tcp", "thr", 1);
        Optional<Double> j = median(Mechanism.JEROMQ, "tcp", "thr", 1);
        t.row(List.of("throughput, C/C++", rate(PAPER_C_1B) + " msg/s", c.map(v -> rate(v) + " msg/s").orElse("–")));
        t.row(List.of("throughput, Java", rate(PAPER_JAVA_1B) + " msg/s", j.map(v -> rate(v) + " msg/s").orElse("–")));
        t.row(List.of("throughput, Java ÷ C", String.format(Locale.ROOT, "%.2f", PAPER_JAVA_1B / PAPER_C_1B),
                c.isPresent() && j.isPresent() ? String.format(Locale.ROOT, "%.2f", j.get() / c.get()) : "–"));
        t.row(List.of("throughput, Java ÷ C, other sizes", "about 0.5 until the network limit",
                ratioRange(Mechanism.JEROMQ, Mechanism.LIBZMQ, "tcp", "thr")));
        Optional<Double> cl = median(Mechanism.LIBZMQ, "tcp", "lat", 1);
        Optional<Double> jl = median(Mechanism.JEROMQ, "tcp", "lat", 1);
        t.row(List.of("latency, Java − C", "a few µs", cl.isPresent() && jl.isPresent()
                ? String.format(Locale.ROOT, "%+.1f µs (%s against %s µs)", jl.get() - cl.get(), micros(jl.get()),
                micros(cl.get())) : "–"));
        t.note("The whitepaper's numbers come from its own hardware and network of the time and a Java binding of "
                + "ØMQ 0.3; JeroMQ is today's pure-Java ØMQ. Only the ratios compare; ours are on the loopback, "
                + "where no network limit caps the large messages.");
        return t;
    }

    private String ratioRange(Mechanism java, Mechanism c, String transport, String test) {
        List<Double> r = ratios(java, c, transport, test, Integer.MAX_VALUE);
        return r.isEmpty() ? "–" : String.format(Locale.ROOT, "%.2f–%.2f over %s–%s", Collections.min(r),
                Collections.max(r), Charts.bufferLabel(sizes.first()), Charts.bufferLabel(sizes.last()));
    }

    /** Java ÷ C of the medians at every size up to {@code maxSize}. */
    private List<Double> ratios(Mechanism java, Mechanism c, String transport, String test, int maxSize) {
        List<Double> r = new ArrayList<>();
        for (int size : sizes) {
            Optional<Double> j = median(java, transport, test, size);
            Optional<Double> k = median(c, transport, test, size);
            if (size <= maxSize && j.isPresent() && k.isPresent()) {
                r.add(j.get() / k.get());
            }
        }
        return r;
    }

    /** The verdict paragraphs, every judgement from the measured medians. */
    List<String> verdict() {
        List<String> v = new ArrayList<>();
        int first = sizes.first();
        int last = sizes.last();
        Optional<Double> cThr = median(Mechanism.LIBZMQ, "tcp", "thr", first);
        Optional<Double> jThr = median(Mechanism.JEROMQ, "tcp", "thr", first);
        List<Double> small = ratios(Mechanism.JEROMQ, Mechanism.LIBZMQ, "tcp", "thr", 512);
        if (cThr.isPresent() && jThr.isPresent() && !small.isEmpty()) {
            double r = jThr.get() / cThr.get();
            double mid = Throughput.median(small);
            String judgement = mid > 1.05 ? "no longer holds the other way round: JeroMQ outruns libzmq"
                    : mid > 0.75 ? "no longer holds: JeroMQ comes much closer to C than half"
                    : mid >= 0.35 ? "still holds: JeroMQ moves about half to two thirds of libzmq's messages"
                    : "no longer holds: JeroMQ falls further behind than half";
            v.add(String.format(Locale.ROOT, "Verdict, throughput: at %s JeroMQ moves %s msg/s against libzmq's "
                    + "%s over tcp:// (Java ÷ C = %.2f; the whitepaper: %.2f). Over %s–512 B the ratio is %.2f–%.2f, "
                    + "median %.2f, so the whitepaper's \"about 50%% of C++\" %s. At %s Java ÷ C is %s.",
                    Charts.bufferLabel(first), rate(jThr.get()), rate(cThr.get()), r, PAPER_JAVA_1B / PAPER_C_1B,
                    Charts.bufferLabel(first), Collections.min(small), Collections.max(small), mid, judgement,
                    Charts.bufferLabel(last), ratio(Mechanism.JEROMQ, Mechanism.LIBZMQ, "tcp", "thr", last)));
        } else {
            v.add("Verdict, throughput: no libzmq or JeroMQ figures to compare (see the notes above).");
        }
        Optional<Double> cLat = median(Mechanism.LIBZMQ, "tcp", "lat", first);
        Optional<Double> jLat = median(Mechanism.JEROMQ, "tcp", "lat", first);
        List<Double> gaps = new ArrayList<>(); // Java − C per size up to 512 B: one size alone is too noisy to judge
        for (int size : sizes.headSet(512, true)) {
            median(Mechanism.JEROMQ, "tcp", "lat", size).ifPresent(j -> median(Mechanism.LIBZMQ, "tcp", "lat", size)
                    .ifPresent(c -> gaps.add(j - c)));
        }
        if (cLat.isPresent() && jLat.isPresent() && !gaps.isEmpty()) {
            double d = Throughput.median(gaps);
            String judgement = d < 0 ? "no longer holds: JeroMQ answers sooner than libzmq"
                    : d <= 10 ? "still holds" : "no longer holds: the gap is larger than a few µs";
            v.add(String.format(Locale.ROOT, "Verdict, latency: at %s JeroMQ's one-way latency over tcp:// is "
                    + "%s µs against libzmq's %s µs (Java ÷ C = %.2f); over %s–512 B JeroMQ is %+.1f to %+.1f µs "
                    + "above libzmq, median %+.1f µs, so \"Java a few µs above C\" %s. Over ipc:// libzmq takes %s µs "
                    + "at %s (a Unix domain socket); JeroMQ's ipc:// is TCP underneath.",
                    Charts.bufferLabel(first), micros(jLat.get()), micros(cLat.get()), jLat.get() / cLat.get(),
                    Charts.bufferLabel(first), Collections.min(gaps), Collections.max(gaps), d, judgement,
                    median(Mechanism.LIBZMQ, "ipc", "lat", first).map(ZmqSection::micros).orElse("–"),
                    Charts.bufferLabel(first)));
        }
        List<Double> rawLat = ratios(Mechanism.JAVA_RAW, Mechanism.C_RAW, "tcp", "lat", Integer.MAX_VALUE);
        List<Double> rawThr = ratios(Mechanism.JAVA_RAW, Mechanism.C_RAW, "tcp", "thr", Integer.MAX_VALUE);
        if (!rawLat.isEmpty() && !rawThr.isEmpty()) {
            Optional<Double> zmqOverRaw = median(Mechanism.LIBZMQ, "tcp", "thr", first)
                    .flatMap(z -> median(Mechanism.C_RAW, "tcp", "thr", first).map(r -> z / r));
            v.add(String.format(Locale.ROOT, "Without ØMQ, on raw sockets, Java ÷ C over tcp:// is %.2f–%.2f for "
                    + "latency and %.2f–%.2f for throughput across the sizes: %s%s",
                    Collections.min(rawLat), Collections.max(rawLat), Collections.min(rawThr), Collections.max(rawThr),
                    Throughput.median(rawLat) <= 1.25 && Throughput.median(rawThr) >= 0.8
                            ? "the JDK's sockets themselves cost about what C's do, so the gap above is the "
                            + "messaging library's, not the language's."
                            : "the JDK's socket path itself is slower than C's here.",
                    zmqOverRaw.map(x -> String.format(Locale.ROOT, " libzmq moves %.1f× as many %s messages as "
                            + "the raw C socket (one write per message): what its batching buys.", x,
                            Charts.bufferLabel(first))).orElse("")));
        }
        return v;
    }

    private LineChart chart(String test) {
        boolean lat = test.equals("lat");
        List<LineChart.Tick> ticks = new ArrayList<>();
        sizes.forEach(s -> ticks.add(new LineChart.Tick(s, Charts.bufferLabel(s))));
        LineChart chart = new LineChart(lat ? "ØMQ and raw sockets: one-way latency by message size (lower is better)"
                : "ØMQ and raw sockets: throughput by message size (higher is better)",
                "message size (log scale)", lat ? "µs one way (log scale)" : "messages/s (log scale)", true, ticks,
                LineChart::number);
        for (Mechanism m : Mechanism.values()) {
            for (int t = 0; t < ZmqStep.TRANSPORTS.size(); t++) {
                String transport = ZmqStep.TRANSPORTS.get(t);
                List<double[]> points = new ArrayList<>();
                for (int size : sizes) {
                    median(m, transport, test, size).ifPresent(v -> points.add(new double[] {size, v}));
                }
                chart.add(new LineChart.Series(m.id() + "@" + transport, m.title() + ", " + transport + "://"
                        + (m == Mechanism.JEROMQ && transport.equals("ipc") ? " (TCP)" : ""), COLORS.get(m)[t],
                        m.java() ? Canvas.Stroke.SOLID : Canvas.Stroke.DASHED, t == 0 ? 2.2 : 1.6, points));
            }
        }
        return chart;
    }
}
