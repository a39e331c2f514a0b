package org.medjava.bench.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.medjava.bench.environment.EnvironmentStep;

/**
 * Issue 20, experiment 3: the building blocks of Apvrille et al.'s user-level transport from {@code raw/blocks.csv}:
 * one table of every block in four columns (C -O2, C -O3 -march=native, Java JIT, Java -Xint) with the paper's
 * figures beside ours, the UDP losses, a chart, and a verdict computed from the figures (none in a quick run).
 */
final class BlocksReport {
    static final List<String> IMPLS = List.of("c-O2", "c-native", "java-jit", "java-xint");
    static final Map<String, String> IMPL_TITLES = Map.of("c-O2", "C -O2", "c-native", "C -O3 -march=native",
            "java-jit", "Java JIT", "java-xint", "Java -Xint");
    static final List<String> BLOCKS = List.of("copy-memcpy", "copy-loop", "crc16", "udp");
    static final Map<String, String> BLOCK_TITLES = Map.of(
            "copy-memcpy", "copy 1,024 B × 10,000 (memcpy / System.arraycopy)",
            "copy-loop", "copy 1,024 B × 10,000 (byte loop)",
            "crc16", "CRC-16/CCITT-FALSE over 50 × 1,024 B",
            "udp", "UDP send + receive, datagrams of 1,024 B");
    private static final Map<String, String> CHART_TITLES = Map.of("copy-memcpy", "copy (memcpy / arraycopy)",
            "copy-loop", "copy (byte loop)", "crc16", "CRC16, 50 × 1 KiB", "udp", "UDP, 1 KiB datagrams");
    private static final Color[] COLORS = {new Color(0xa50f15), new Color(0x1f77b4), new Color(0x31a354),
        new Color(0x6a51a3)};
    /** Below this Java ÷ C ratio, "C is 2× faster" no longer describes the figures. */
    static final double STILL_FASTER = 1.5;

    private final Map<String, Map<String, Spread>> ms = new LinkedHashMap<>();
    private final Map<String, Spread> lost = new LinkedHashMap<>();

    private BlocksReport() {
    }

    static Section section(Path raw, Path chartDir, boolean quick) throws IOException {
        List<Map<String, String>> rows = Csv.read(raw.resolve("blocks.csv"));
        if (rows.isEmpty()) {
            return null;
        }
        BlocksReport r = new BlocksReport();
        Map<String, List<Double>> times = new LinkedHashMap<>();
        Map<String, List<Double>> losses = new LinkedHashMap<>();
        for (Map<String, String> row : rows) {
            String key = row.get("impl") + "|" + row.get("block");
            times.computeIfAbsent(key, k -> new ArrayList<>()).add(Double.parseDouble(row.get("seconds")) * 1e3);
            if (row.get("block").equals("udp")) {
                losses.computeIfAbsent(row.get("impl"), k -> new ArrayList<>()).add(Double.parseDouble(row.get("lost")));
            }
        }
        times.forEach((key, v) -> {
            String[] k = key.split("\\|");
            r.ms.computeIfAbsent(k[0], x -> new LinkedHashMap<>()).put(k[1], Spread.of(v));
        });
        losses.forEach((impl, v) -> r.lost.put(impl, Spread.of(v)));
        Map<String, String> settings = EnvironmentStep.read(raw.resolve("blocks.properties"));

        List<String> paragraphs = new ArrayList<>();
        if (quick) {
            paragraphs.add("Smoke test (quick mode): one short run of each block and "
                    + settings.getOrDefault("datagrams", "?") + " datagrams instead of 100,000 — these figures only "
                    + "prove that every block runs in every column; no verdict is drawn.");
        }
        paragraphs.add("Apvrille et al. timed the building blocks of their user-level multimedia transport (POC) in "
                + "Java and C: copying a 1,024-byte block 10,000 times, a CRC16 over 50 packets of 1,024 bytes, and "
                + "sending and receiving 100,000 datagrams of 1,024 bytes; they found C 2× faster than JIT Java and "
                + "3× faster than interpreted Java for the copy. Here: C at -O2 and at -O3 -march=native, Java with "
                + "its JIT and with -Xint (the 1999 interpreter's stand-in). The CRC is CRC-16/CCITT-FALSE (poly "
                + "0x1021, init 0xFFFF; check value of \"123456789\" = 0x29B1, verified by both programs at start), "
                + "table-driven in both languages. UDP: a receiver thread on 127.0.0.1 in the same process, the "
                + "sender as fast as it can, time from the first send to the last datagram received; the receiver "
                + "stops after 200 ms of silence and the datagrams it never got are counted as lost (loopback UDP "
                + "drops when the receiver falls behind). Every column runs in its own processes, "
                + settings.getOrDefault("forks", "?") + " fork(s) × " + settings.getOrDefault("runs", "?")
                + " timed runs after " + settings.getOrDefault("warmup.seconds", "?") + " s of warm-up per block; "
                + "load " + settings.getOrDefault("load.start", "?") + " at the start, "
                + settings.getOrDefault("load.end", "?") + " at the end; not pinned (the UDP sender and receiver "
                + "threads share the two cores)."
                + Spread.loadCaveat(settings.getOrDefault("load.start", "?"), settings.getOrDefault("load.end", "?"),
                        EnvironmentStep.read(raw.resolve("environment.properties")).getOrDefault("cores", "?")));

        List<Table> tables = List.of(r.timeTable(), r.lossTable(settings.getOrDefault("datagrams", "?")));
        Charts.write(r.chart(), chartDir, "blocks");
        if (!quick) {
            paragraphs.add(r.verdict());
        }
        return new Section("blocks", "Transport building blocks: Java and C (issue 20, experiment 3)",
                paragraphs, tables, List.of("blocks"));
    }

    private Spread get(String impl, String block) {
        return ms.getOrDefault(impl, Map.of()).get(block);
    }

    private Double ratio(String impl, String block) {
        Spread a = get(impl, block);
        Spread c = get("c-O2", block);
        return a == null || c == null ? null : a.median() / c.median();
    }

    private Table timeTable() {
        List<String> headers = new ArrayList<>(List.of("block"));
        IMPLS.forEach(i -> headers.add(IMPL_TITLES.get(i) + " ms"));
        headers.addAll(List.of("JIT ÷ C -O2", "-Xint ÷ C -O2", "paper (C vs Java)"));
        Table t = new Table("Transport building blocks: ms per block, median [min–max]", headers);
        for (String block : BLOCKS) {
            List<String> row = new ArrayList<>(List.of(BLOCK_TITLES.get(block)));
            for (String impl : IMPLS) {
                Spread s = get(impl, block);
                row.add(s == null ? "—" : s.text());
            }
            Double jit = ratio("java-jit", block);
            Double xint = ratio("java-xint", block);
            row.add(jit == null ? "—" : Spread.ratio(jit));
            row.add(xint == null ? "—" : Spread.ratio(xint));
            row.add(block.startsWith("copy") ? "C 2× faster than JIT, 3× than interpreted" : "timed; ratio not quoted");
            t.row(row);
        }
        t.note("Ratios above 1×: Java slower than C -O2. The paper's copy figures are for a 1999-era JVM; which copy "
                + "its Java used is not known, hence both a System.arraycopy and a byte-loop row.");
        return t;
    }

    private Table lossTable(String datagrams) {
        Table t = new Table("UDP over loopback: datagrams lost per run of " + datagrams + ", median [min–max]",
                List.of("column", "lost", "datagrams per second received (median)"));
        for (String impl : IMPLS) {
            Spread l = lost.get(impl);
            Spread s = get(impl, "udp");
            if (l == null || s == null) {
                continue;
            }
            double received = Double.parseDouble(datagrams) - l.median();
            t.row(List.of(IMPL_TITLES.get(impl), l.text(), Spread.num(received / (s.median() / 1e3))));
        }
        return t;
    }

    /** Each block's time ÷ C -O2's, across the four columns (log-spaced positions 1, 2, 4, 8). */
    private LineChart chart() {
        List<LineChart.Tick> ticks = new ArrayList<>();
        for (int i = 0; i < IMPLS.size(); i++) {
            ticks.add(new LineChart.Tick(1 << i, IMPL_TITLES.get(IMPLS.get(i))));
        }
        LineChart chart = new LineChart("Transport building blocks: time ÷ C -O2 by column (lower is better)",
                "column", "time ÷ C -O2 (log scale)", true, ticks, LineChart::number);
        for (int b = 0; b < BLOCKS.size(); b++) {
            String block = BLOCKS.get(b);
            List<double[]> points = new ArrayList<>();
            for (int i = 0; i < IMPLS.size(); i++) {
                Double r = ratio(IMPLS.get(i), block);
                if (r != null) {
                    points.add(new double[] {1 << i, r});
                }
            }
            chart.add(new LineChart.Series(block, CHART_TITLES.get(block), COLORS[b], Canvas.Stroke.SOLID, 2.2,
                    points));
        }
        return chart;
    }

    private String verdict() {
        StringBuilder v = new StringBuilder("Verdict (computed from this run's medians). ");
        Double memcpy = ratio("java-jit", "copy-memcpy");
        Double loop = ratio("java-jit", "copy-loop");
        Double xintLoop = ratio("java-xint", "copy-loop");
        if (memcpy != null && loop != null) {
            double worse = Math.max(memcpy, loop);
            v.append("Copy: JIT Java takes ").append(Spread.ratio(memcpy)).append(" C -O2's time with "
                    + "System.arraycopy and ").append(Spread.ratio(loop)).append(" with a byte loop; the paper's "
                    + "\"C 2× faster than JIT Java\" ").append(worse >= STILL_FASTER ? "still roughly holds for the "
                    + (memcpy >= loop ? "arraycopy" : "loop") + " copy" : "no longer holds").append(". ");
        }
        if (xintLoop != null) {
            v.append("Interpreted (-Xint) byte-loop copy: ").append(Spread.ratio(xintLoop)).append(" C's time — the "
                    + "paper's 3× ").append(xintLoop >= 3 ? "understates today's gap (C compilers improved far more "
                    + "than the interpreter)" : "still describes it").append(". ");
        }
        Double crc = ratio("java-jit", "crc16");
        if (crc != null) {
            v.append("CRC16: JIT Java ").append(Spread.ratio(crc)).append(" C -O2. ");
        }
        Double udp = ratio("java-jit", "udp");
        if (udp != null) {
            v.append("UDP: JIT Java ").append(Spread.ratio(udp)).append(" C -O2 — the kernel's share dominates, "
                    + "and losses (table above) make the time partly a measure of how fast the receiver keeps up.");
        }
        return v.toString();
    }
}
