package org.medjava.bench.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.medjava.bench.environment.EnvironmentStep;

/**
 * Issue 20, experiment 1: same-host IPC (Smith & Wells' question) from {@code raw/ipc.csv}: tables of every
 * mechanism and size, the Java ÷ C ratios, each mechanism against loopback TCP, charts by message size, the
 * machine note, and a verdict computed from the figures (none in a quick run: it is a smoke test).
 */
final class IpcReport {
    static final List<String> MECHANISMS = List.of("tcp", "uds", "fifo", "shm");
    static final Map<String, String> TITLES = Map.of(
            "tcp", "loopback TCP", "uds", "Unix domain socket", "fifo", "named pipe (FIFO)",
            "shm", "shared memory + FIFO doorbell");
    private static final Map<String, Color> COLORS = Map.of(
            "tcp", new Color(0xa50f15), "uds", new Color(0x1f77b4), "fifo", new Color(0x31a354),
            "shm", new Color(0x6a51a3));
    /** "Many times faster": what the paper's claim needs to still hold. */
    static final double MANY_TIMES = 3.0;

    /** lang → mechanism → pattern → size → µs per message over every fork and run. */
    private final Map<String, Map<String, Map<String, TreeMap<Integer, Spread>>>> data = new TreeMap<>();
    private final TreeSet<Integer> sizes = new TreeSet<>();

    private IpcReport() {
    }

    /** The section, or null when the run had no IPC step. */
    static Section section(Path raw, Path chartDir, boolean quick) throws IOException {
        List<Map<String, String>> rows = Csv.read(raw.resolve("ipc.csv"));
        if (rows.isEmpty()) {
            return null;
        }
        IpcReport r = new IpcReport();
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        for (Map<String, String> row : rows) {
            String key = row.get("lang") + "|" + row.get("mechanism") + "|" + row.get("pattern") + "|"
                    + row.get("size");
            samples.computeIfAbsent(key, k -> new ArrayList<>()).add(
                    Double.parseDouble(row.get("seconds")) / Long.parseLong(row.get("messages")) * 1e6);
        }
        samples.forEach((key, values) -> {
            String[] k = key.split("\\|");
            int size = Integer.parseInt(k[3]);
            r.sizes.add(size);
            r.data.computeIfAbsent(k[0], x -> new TreeMap<>()).computeIfAbsent(k[1], x -> new TreeMap<>())
                    .computeIfAbsent(k[2], x -> new TreeMap<>()).put(size, Spread.of(values));
        });
        Map<String, String> settings = EnvironmentStep.read(raw.resolve("ipc.properties"));
        Map<String, String> env = EnvironmentStep.read(raw.resolve("environment.properties"));

        List<String> paragraphs = new ArrayList<>();
        if (quick) {
            paragraphs.add("Smoke test (quick mode): a handful of messages per run, one fork — these figures only "
                    + "prove that every mechanism, pattern and size runs in both languages; no verdict is drawn.");
        }
        paragraphs.add("Two processes on the same host, a client and a server, in C (one program that fork()s its "
                + "server) and in Java (two JVMs): loopback TCP (127.0.0.1, TCP_NODELAY), a Unix domain socket "
                + "(Java 16+ SocketChannel with UnixDomainSocketAddress), two named pipes (mkfifo; Java cannot "
                + "create a FIFO and runs mkfifo), and shared memory (C: shm_open + mmap; Java: a file in /dev/shm "
                + "mapped by both JVMs). Shared memory wakes its peer with one doorbell byte per message through a "
                + "FIFO: a futex is not reachable from Java 17 without native code, and neither side spins, so "
                + "shared memory pays one small pipe write and read per message on top of its copies. One-way: "
                + "the client streams N messages and the server answers one byte after the last; round trip: "
                + "the server echoes each message. Time per message = run time ÷ N, N = clamp("
                + settings.getOrDefault("budget", "?") + " B ÷ size, " + settings.getOrDefault("min", "?") + ", "
                + settings.getOrDefault("max", "?") + "); every message carries its sequence number, checked.");
        paragraphs.add("Machine: " + env.getOrDefault("cores", "?") + " cores, shared by client and server (and by "
                + "other users of the machine: load " + settings.getOrDefault("load.start", "?") + " at the start of "
                + "this step, " + settings.getOrDefault("load.end", "?") + " at its end). "
                + ("true".equals(settings.get("pin"))
                ? "Pinned: the client on CPU 0 and the server on CPU 1 (C: sched_setaffinity after fork; Java: each "
                        + "JVM started under taskset, so its JIT and GC threads share that CPU)."
                : "Not pinned: the scheduler places client and server.")
                + " Medians with ranges over " + settings.getOrDefault("forks", "?") + " fork(s) × "
                + settings.getOrDefault("runs", "?") + " runs (after " + settings.getOrDefault("warmup", "?")
                + " warm-up runs per fork); C and Java forks alternate."
                + Spread.loadCaveat(settings.getOrDefault("load.start", "?"), settings.getOrDefault("load.end", "?"),
                        env.getOrDefault("cores", "?")));
        paragraphs.add("The paper (Smith & Wells, Interprocess communication with Java in a Microsoft Windows "
                + "environment, SACJ 29(3), 2017) timed one message of 40, 400, 4,000 and 40,000 bytes, ten runs "
                + "each (its Table 1), and concluded that Java had only slow socket-based communication, while "
                + "Windows' shared memory, named pipes and mailslots reached through JNI were many times faster. "
                + "Its numbers are not reproduced here (we could not obtain the table); the comparison is with its "
                + "conclusion.");

        List<Table> tables = new ArrayList<>();
        for (String pattern : List.of("oneway", "roundtrip")) {
            tables.add(r.timeTable(pattern));
        }
        tables.add(r.tcpTable());
        List<String> charts = new ArrayList<>();
        for (String pattern : List.of("oneway", "roundtrip")) {
            String name = "ipc-" + pattern;
            Charts.write(r.timeChart(pattern), chartDir, name);
            charts.add(name);
        }
        Charts.write(r.ratioChart(), chartDir, "ipc-java-vs-c");
        charts.add("ipc-java-vs-c");
        if (!quick) {
            paragraphs.add(r.verdict());
        }
        return new Section("ipc", "Same-host IPC: Java and C (issue 20, experiment 1)", paragraphs, tables,
                charts);
    }

    private Spread get(String lang, String mech, String pattern, int size) {
        return data.getOrDefault(lang, Map.of()).getOrDefault(mech, Map.of()).getOrDefault(pattern, new TreeMap<>())
                .get(size);
    }

    static String patternTitle(String pattern) {
        return pattern.equals("oneway") ? "one-way" : "round trip";
    }

    static String sizeLabel(int size) {
        return size == 1 << 20 ? "1 MiB" : String.format(Locale.ROOT, "%,d B", size);
    }

    private Table timeTable(String pattern) {
        Table t = new Table("Same-host IPC, " + patternTitle(pattern) + ": µs per message, median [min–max]",
                List.of("mechanism", "size", "C", "Java", "Java ÷ C", "C MiB/s", "Java MiB/s"));
        for (String mech : MECHANISMS) {
            for (int size : sizes) {
                Spread c = get("c", mech, pattern, size);
                Spread j = get("java", mech, pattern, size);
                if (c == null && j == null) {
                    continue;
                }
                t.row(List.of(TITLES.get(mech), sizeLabel(size), c == null ? "—" : c.text(),
                        j == null ? "—" : j.text(), c == null || j == null ? "—" : Spread.ratio(j.median() / c.median()),
                        c == null ? "—" : Spread.num(mibPerSecond(size, c.median(), pattern)),
                        j == null ? "—" : Spread.num(mibPerSecond(size, j.median(), pattern))));
            }
        }
        t.note(pattern.equals("oneway")
                ? "One-way: messages streamed back to back, so this is the cost per message of a stream (throughput), "
                        + "not a single message's latency."
                : "Round trip: the message goes to the server and the same bytes come back; MiB/s counts both ways.");
        return t;
    }

    private static double mibPerSecond(int size, double micros, String pattern) {
        return size * (pattern.equals("oneway") ? 1 : 2) / (micros / 1e6) / (1 << 20);
    }

    private Table tcpTable() {
        Table t = new Table("Same-host IPC: how many times faster than loopback TCP, same language (median ÷ median)",
                List.of("mechanism", "size", "C one-way", "Java one-way", "C round trip", "Java round trip"));
        for (String mech : MECHANISMS.subList(1, MECHANISMS.size())) {
            for (int size : sizes) {
                List<String> row = new ArrayList<>(List.of(TITLES.get(mech), sizeLabel(size)));
                for (String pattern : List.of("oneway", "roundtrip")) {
                    for (String lang : List.of("c", "java")) {
                        Double s = speedUp(lang, mech, pattern, size);
                        row.add(s == null ? "—" : Spread.ratio(s));
                    }
                }
                t.row(row);
            }
        }
        t.note("Above 1×: faster than loopback TCP in the same language. The paper's claim was about Java: its only "
                + "mechanism (sockets) against native IPC reached through JNI.");
        return t;
    }

    /** TCP's median ÷ the mechanism's median, or null. */
    private Double speedUp(String lang, String mech, String pattern, int size) {
        Spread tcp = get(lang, "tcp", pattern, size);
        Spread m = get(lang, mech, pattern, size);
        return tcp == null || m == null ? null : tcp.median() / m.median();
    }

    private LineChart timeChart(String pattern) {
        List<LineChart.Tick> ticks = sizes.stream().map(s -> new LineChart.Tick(s, sizeLabel(s)))
                .collect(Collectors.toList());
        LineChart chart = new LineChart("Same-host IPC, " + patternTitle(pattern)
                + ": µs per message by message size (lower is better)", "message size (log scale)",
                "µs per message (log scale)", true, ticks, LineChart::number);
        for (String mech : MECHANISMS) {
            for (String lang : List.of("c", "java")) {
                List<double[]> points = new ArrayList<>();
                for (int size : sizes) {
                    Spread s = get(lang, mech, pattern, size);
                    if (s != null) {
                        points.add(new double[] {size, s.median()});
                    }
                }
                chart.add(new LineChart.Series(lang + "-" + mech, (lang.equals("c") ? "C, " : "Java, ")
                        + TITLES.get(mech), COLORS.get(mech), lang.equals("c") ? Canvas.Stroke.DASHED
                        : Canvas.Stroke.SOLID, 2.2, points));
            }
        }
        return chart;
    }

    private LineChart ratioChart() {
        List<LineChart.Tick> ticks = sizes.stream().map(s -> new LineChart.Tick(s, sizeLabel(s)))
                .collect(Collectors.toList());
        LineChart chart = new LineChart("Same-host IPC: Java ÷ C time per message by message size (1 = as fast as C)",
                "message size (log scale)", "Java ÷ C (log scale)", true, ticks, LineChart::number);
        for (String mech : MECHANISMS) {
            for (String pattern : List.of("oneway", "roundtrip")) {
                List<double[]> points = new ArrayList<>();
                for (int size : sizes) {
                    Spread c = get("c", mech, pattern, size);
                    Spread j = get("java", mech, pattern, size);
                    if (c != null && j != null) {
                        points.add(new double[] {size, j.median() / c.median()});
                    }
                }
                chart.add(new LineChart.Series(mech + "-" + pattern, TITLES.get(mech) + ", " + patternTitle(pattern),
                        COLORS.get(mech), pattern.equals("oneway") ? Canvas.Stroke.SOLID : Canvas.Stroke.DASHED, 2.2,
                        points));
            }
        }
        return chart;
    }

    /** What of the paper's conclusion holds, in numbers. */
    private String verdict() {
        StringBuilder v = new StringBuilder("Verdict (computed from this run's medians). ");
        // 1. the paper's comparison: native IPC against Java's sockets, now in Java itself
        List<String> javaBest = new ArrayList<>();
        int many = 0;
        int cases = 0;
        for (String pattern : List.of("oneway", "roundtrip")) {
            for (int size : sizes) {
                String best = null;
                double bestSpeed = 0;
                for (String mech : MECHANISMS.subList(1, MECHANISMS.size())) {
                    Double s = speedUp("java", mech, pattern, size);
                    if (s != null && s > bestSpeed) {
                        bestSpeed = s;
                        best = mech;
                    }
                }
                if (best != null) {
                    cases++;
                    if (bestSpeed >= MANY_TIMES) {
                        many++;
                    }
                    javaBest.add(patternTitle(pattern) + " " + sizeLabel(size) + ": " + TITLES.get(best) + " "
                            + Spread.ratio(bestSpeed));
                }
            }
        }
        v.append("Java now reaches Unix domain sockets, named pipes and mapped shared memory without JNI; its fastest "
                + "of them against its own loopback TCP: ").append(String.join("; ", javaBest)).append(". ");
        if (cases > 0 && many * 2 > cases) {
            v.append("The paper's conclusion that same-host IPC is many times (≥ ").append(Spread.ratio(MANY_TIMES))
                    .append(") faster than loopback sockets still holds in ").append(many).append(" of ").append(cases)
                    .append(" cases — but Java no longer needs native code to get there. ");
        } else {
            v.append("The paper's conclusion that native IPC is many times (≥ ").append(Spread.ratio(MANY_TIMES))
                    .append(") faster than loopback sockets no longer holds here: only ").append(many).append(" of ")
                    .append(cases).append(" cases reach that; Linux's loopback TCP is close to the other mechanisms. ");
        }
        // 2. Java against C, per mechanism
        List<String> perMech = new ArrayList<>();
        double worst = 0;
        String worstCase = "";
        for (String mech : MECHANISMS) {
            List<Double> ratios = new ArrayList<>();
            for (String pattern : List.of("oneway", "roundtrip")) {
                for (int size : sizes) {
                    Spread c = get("c", mech, pattern, size);
                    Spread j = get("java", mech, pattern, size);
                    if (c != null && j != null) {
                        double ratio = j.median() / c.median();
                        ratios.add(ratio);
                        if (ratio > worst) {
                            worst = ratio;
                            worstCase = TITLES.get(mech) + " " + patternTitle(pattern) + " " + sizeLabel(size);
                        }
                    }
                }
            }
            if (!ratios.isEmpty()) {
                Spread s = Spread.of(ratios);
                perMech.add(TITLES.get(mech) + " " + Spread.ratio(s.median()) + " (" + Spread.ratio(s.min()) + "–"
                        + Spread.ratio(s.max()) + ")");
            }
        }
        v.append("Java ÷ C per mechanism, median (range) over sizes and patterns: ").append(String.join("; ", perMech))
                .append("; the widest gap is ").append(Spread.ratio(worst)).append(" (").append(worstCase).append(").");
        return v.toString();
    }
}
