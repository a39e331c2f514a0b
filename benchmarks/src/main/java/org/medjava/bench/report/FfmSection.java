package org.medjava.bench.report;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.awt.Color;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.medjava.bench.ffm.FfmStep;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;

/**
 * The JNI-vs-FFM section (issue 20, experiment 4) from {@code raw/ffm-*.json} (JMH results of
 * {@code NativeCallBenchmark}) and {@code raw/ffm-check.csv}: time per call of each operation through JNI on JDK 17
 * and 25 and through FFM on JDK 25, a chart by frame size, and a verdict computed from the measured means (none in
 * the quick run's smoke test).
 */
final class FfmSection {
    private static final List<String> PASS_OPS = List.of("passCopy", "passPinned", "passOffHeap");
    private static final Map<String, String> OP_TITLES = Map.of(
            "empty", "empty call",
            "passCopy", "frame by copy (in and out)",
            "passPinned", "frame in place (JNI: GetPrimitiveArrayCritical; FFM: heap segment, critical call)",
            "passOffHeap", "frame off the heap (JNI: direct ByteBuffer; FFM: MemorySegment)",
            "blur", "whole C blur (optimized port, -O2)");
    private static final Map<String, Color> OP_COLORS = Map.of(
            "passCopy", new Color(0xa50f15), "passPinned", new Color(0x1f77b4), "passOffHeap", new Color(0x31a354));

    /** One JMH result: ns per call, JMH's error, the fastest and slowest iteration. */
    record Result(String op, String path, JvmColumn jvm, String size, double ns, double error, double min,
                  double max) {
    }

    private final List<Result> results = new ArrayList<>();

    private FfmSection() {
    }

    static Optional<Section> build(Path raw, Path charts, Map<String, String> env, boolean smokeTest)
            throws IOException {
        FfmSection f = new FfmSection();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(raw, "ffm-*.json")) {
            for (Path file : files) {
                try (Reader in = Files.newBufferedReader(file)) {
                    for (JsonElement e : JsonParser.parseReader(in).getAsJsonArray()) {
                        f.results.add(result(e.getAsJsonObject()));
                    }
                }
            }
        }
        if (f.results.isEmpty()) {
            return Optional.empty();
        }
        List<String> checks = Csv.read(raw.resolve(FfmStep.CHECK)).stream()
                .map(r -> r.get("op") + " at " + r.get("size") + " on JDK " + r.get("jdk") + ": FFM output "
                        + (r.get("result").equals("identical") ? "identical to JNI's, byte for byte" : "DIFFERS from JNI's"))
                .distinct() // one line per fork
                .collect(java.util.stream.Collectors.toList());
        List<String> notes = Files.isRegularFile(raw.resolve(FfmStep.NOTES))
                ? Files.readAllLines(raw.resolve(FfmStep.NOTES)) : List.of();
        return Optional.of(f.section(charts, env, smokeTest, checks, notes));
    }

    private static Result result(JsonObject r) {
        String benchmark = r.get("benchmark").getAsString();
        JsonObject params = r.getAsJsonObject("params");
        JvmColumn jvm = JvmColumn.JIT;
        for (JsonElement arg : r.getAsJsonArray("jvmArgs")) {
            String a = arg.getAsString();
            if (a.startsWith("-D" + JvmColumn.PROPERTY + "=")) {
                jvm = JvmColumn.parse(a.substring(a.indexOf('=') + 1));
            }
        }
        JsonObject primary = r.getAsJsonObject("primaryMetric");
        double score = primary.get("score").getAsDouble();
        JsonElement err = primary.get("scoreError");
        double error = err != null && err.getAsJsonPrimitive().isNumber() ? err.getAsDouble() : Double.NaN;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (JsonElement fork : primary.getAsJsonArray("rawData")) {
            for (JsonElement iteration : fork.getAsJsonArray()) {
                min = Math.min(min, iteration.getAsDouble());
                max = Math.max(max, iteration.getAsDouble());
            }
        }
        return new Result(benchmark.substring(benchmark.lastIndexOf('.') + 1), params.get("path").getAsString(), jvm,
                params.get("size").getAsString(), score, error, min, max);
    }

    Optional<Result> find(String op, String path, JvmColumn jvm, String size) {
        return results.stream().filter(r -> r.op().equals(op) && r.path().equals(path) && r.jvm() == jvm
                && (op.equals("empty") || r.size().equals(size))).findFirst();
    }

    static String time(double ns) {
        if (ns < 1e3) {
            return String.format(Locale.ROOT, "%.3g ns", ns);
        }
        if (ns < 1e6) {
            return String.format(Locale.ROOT, "%.3g µs", ns / 1e3);
        }
        return String.format(Locale.ROOT, "%.3g ms", ns / 1e6);
    }

    private String cell(String op, String path, JvmColumn jvm, String size) {
        return find(op, path, jvm, size).map(r -> time(r.ns()) + " (" + time(r.min()) + "–" + time(r.max()) + ")")
                .orElse("–");
    }

    private String ratio(String op, String size) {
        Optional<Result> f = find(op, "ffm", JvmColumn.JDK25, size);
        Optional<Result> j = find(op, "jni", JvmColumn.JDK25, size);
        return f.isPresent() && j.isPresent() ? String.format(Locale.ROOT, "%.2f", f.get().ns() / j.get().ns()) : "–";
    }

    private TreeSet<String> sizes(String op) {
        TreeSet<String> s = new TreeSet<>((a, b) -> Long.compare(ImageSize.parse(a).pixels(), ImageSize.parse(b).pixels()));
        results.stream().filter(r -> r.op().equals(op)).forEach(r -> s.add(r.size()));
        return s;
    }

    private Section section(Path charts, Map<String, String> env, boolean smokeTest, List<String> checks,
                            List<String> notes) throws IOException {
        List<String> paragraphs = new ArrayList<>();
        if (smokeTest) {
            paragraphs.add("Smoke test (quick run): 256² frames, one fork, iterations of a few milliseconds, only to "
                    + "prove that both paths, the report section and its chart work. The numbers mean nothing; no "
                    + "verdict.");
        }
        paragraphs.add("The same C functions (benchmarks/src/main/c-ffm/call_bench.c, with c-reference's filters "
                + "at -O2) called from Java through JNI, as the filter bridge does today, and through the Foreign "
                + "Function & Memory API (final in JDK 22): an empty call; an RGB frame handed over by copying it into "
                + "native memory and back, in place (JNI pins the arrays with GetPrimitiveArrayCritical; FFM passes "
                + "heap segments to a downcall linked with Linker.Option.critical(true)), and already off the heap "
                + "(direct ByteBuffers against MemorySegments); and the whole C blur. The C side only touches the "
                + "frame's first and last byte, so the passing is what is timed. JMH, average time per call, mean "
                + "with the fastest and slowest iteration in brackets. JDK 17 runs the JNI column only: the FFM code "
                + "is compiled with --release 22 by JDK 25 (profile ffm-jdk25) and runs on JDK 25. Load average "
                + env.getOrDefault("load.start", "?") + " at the start of the whole benchmark run, "
                + env.getOrDefault("load.end", "?") + " at its end, on " + env.getOrDefault("cores", "?")
                + " cores.");
        paragraphs.add("The experience report on Java and C integration (video conferencing and tele-medicine) "
                + "gives no call or copy timings that could be set beside these; its warning, that copying pixel "
                + "arrays across the native interface costs more than the call, is what the frame rows measure.");
        notes.forEach(n -> paragraphs.add("Note: " + n + "."));
        checks.forEach(c -> paragraphs.add("Check: " + c + "."));

        Table t = new Table("JNI and FFM: time per call", List.of("operation", "frame", "JNI, " + JvmColumn.JIT.title(),
                "JNI, " + JvmColumn.JDK25.title(), "FFM, " + JvmColumn.JDK25.title(), "FFM ÷ JNI (JDK 25)"));
        for (String op : List.of("empty", "passCopy", "passPinned", "passOffHeap", "blur")) {
            for (String size : op.equals("empty") ? List.of("0") : List.copyOf(sizes(op))) {
                t.row(List.of(OP_TITLES.get(op), op.equals("empty") ? "–" : ImageSize.parse(size).label(),
                        cell(op, "jni", JvmColumn.JIT, size), cell(op, "jni", JvmColumn.JDK25, size),
                        cell(op, "ffm", JvmColumn.JDK25, size), ratio(op, size)));
            }
        }
        t.note("FFM ÷ JNI below 1: the FFM call is cheaper. A frame is width × height × 3 bytes (RGB).");
        if (!smokeTest) {
            paragraphs.addAll(verdict());
        }
        Charts.write(chart(), charts, "ffm-frames");
        return new Section("jni-ffm", "JNI against the Foreign Function & Memory API (issue 20, experiment 4)",
                paragraphs, List.of(t), List.of("ffm-frames"));
    }

    /** The verdict paragraphs, every judgement from the measured means. */
    List<String> verdict() {
        List<String> v = new ArrayList<>();
        Optional<Result> fe = find("empty", "ffm", JvmColumn.JDK25, "0");
        Optional<Result> je = find("empty", "jni", JvmColumn.JDK25, "0");
        Optional<Result> je17 = find("empty", "jni", JvmColumn.JIT, "0");
        if (fe.isPresent() && je.isPresent()) {
            double r = fe.get().ns() / je.get().ns();
            v.add(String.format(Locale.ROOT, "Verdict, the call: an empty FFM downcall takes %s against JNI's %s on "
                    + "JDK 25 (FFM ÷ JNI = %.2f: %s)%s.", time(fe.get().ns()), time(je.get().ns()), r,
                    r < 0.9 ? "FFM is cheaper" : r <= 1.1 ? "the same cost" : "FFM is dearer",
                    je17.map(j -> String.format(Locale.ROOT, "; JNI on JDK 17 takes %s", time(j.ns()))).orElse("")));
        } else if (je17.isPresent()) {
            v.add("Verdict, the call: an empty JNI call takes " + time(je17.get().ns()) + " on JDK 17; no FFM column "
                    + "was measured (see the notes).");
        }
        TreeSet<String> sizes = sizes("passCopy");
        if (!sizes.isEmpty()) {
            String big = sizes.last();
            JvmColumn jvm = find("passCopy", "ffm", JvmColumn.JDK25, big).isPresent() ? JvmColumn.JDK25 : JvmColumn.JIT;
            Optional<Result> copy = find("passCopy", "jni", jvm, big);
            Optional<Result> pinned = find("passPinned", "jni", jvm, big);
            if (copy.isPresent() && pinned.isPresent()) {
                double bytes = 3.0 * ImageSize.parse(big).pixels();
                double k = copy.get().ns() / pinned.get().ns();
                v.add(String.format(Locale.ROOT, "Verdict, the frame: handing a %s frame (%.0f MB) to C by copying it "
                        + "in and out takes %s through JNI (%.1f GB/s of copying both ways) against %s in place, "
                        + "%,.0f× as much: the old advice, never copy pixel arrays across the native interface, %s. "
                        + "In place, FFM ÷ JNI is %s (a critical downcall makes no thread-state transition; JNI's "
                        + "GetPrimitiveArrayCritical and every JNI call do); off the heap, %s.", ImageSize.parse(big).label(), bytes / 1e6,
                        time(copy.get().ns()), 2 * bytes / copy.get().ns(), time(pinned.get().ns()), k,
                        k >= 10 ? "still holds" : "matters less than it did", ratio("passPinned", big),
                        ratio("passOffHeap", big)));
            }
        }
        TreeSet<String> blurSizes = sizes("blur");
        if (!blurSizes.isEmpty()) {
            String size = blurSizes.last();
            Optional<Result> fb = find("blur", "ffm", JvmColumn.JDK25, size);
            Optional<Result> jb = find("blur", "jni", JvmColumn.JDK25, size);
            if (fb.isPresent() && jb.isPresent()) {
                double r = fb.get().ns() / jb.get().ns();
                v.add(String.format(Locale.ROOT, "Verdict, real work: the whole blur at %s takes %s through FFM and "
                        + "%s through JNI (FFM ÷ JNI = %.2f): %s", ImageSize.parse(size).label(), time(fb.get().ns()),
                        time(jb.get().ns()), r, Math.abs(r - 1) <= 0.05
                                ? "the way of calling does not show once C does real work."
                                : "a difference of more than 5%, larger than the calls themselves explain: machine "
                                + "noise or memory placement, not the interface."));
            }
        }
        return v;
    }

    private LineChart chart() {
        TreeSet<String> sizes = new TreeSet<>((a, b) -> Long.compare(ImageSize.parse(a).pixels(),
                ImageSize.parse(b).pixels()));
        PASS_OPS.forEach(op -> sizes.addAll(sizes(op)));
        List<LineChart.Tick> ticks = new ArrayList<>();
        sizes.forEach(s -> ticks.add(new LineChart.Tick(ImageSize.parse(s).pixels(), ImageSize.parse(s).label())));
        LineChart chart = new LineChart("JNI and FFM: handing an RGB frame to C, time per call (lower is better)",
                "frame size (pixels, log scale)", "µs per call (log scale)", true, ticks, LineChart::number);
        for (String op : PASS_OPS) {
            for (String[] column : List.of(new String[] {"jni", "jit"}, new String[] {"jni", "jdk25"},
                    new String[] {"ffm", "jdk25"})) {
                JvmColumn jvm = JvmColumn.parse(column[1]);
                List<double[]> points = new ArrayList<>();
                for (String size : sizes) {
                    find(op, column[0], jvm, size).ifPresent(r -> points.add(
                            new double[] {ImageSize.parse(size).pixels(), r.ns() / 1e3}));
                }
                chart.add(new LineChart.Series(op + "-" + column[0] + "@" + column[1],
                        OP_TITLES.get(op).replaceAll(" \\(.*", "") + ": " + column[0].toUpperCase(Locale.ROOT) + ", "
                                + jvm.title(), OP_COLORS.get(op),
                        column[0].equals("ffm") ? Canvas.Stroke.SOLID
                                : jvm == JvmColumn.JIT ? Canvas.Stroke.DOTTED : Canvas.Stroke.DASHED,
                        column[0].equals("ffm") ? 2.2 : 1.6, points));
            }
        }
        return chart;
    }
}
