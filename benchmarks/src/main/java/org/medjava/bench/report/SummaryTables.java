package org.medjava.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.variant.Impl;

/** The summary's tables: times, the targets as ratios, interpreter, JNI cost, allocation, transport, store. */
final class SummaryTables {
    private final ReportData data;
    /** A smoke run (short, unwarmed iterations): ratios are shown, never judged against the targets. */
    private final boolean smoke;

    SummaryTables(ReportData data) {
        this.data = data;
        this.smoke = data.isSmokeTest();
    }

    /** Times and targets at every measured size (smallest first); the slower comparisons at the reference size. */
    List<Table> all() {
        List<Table> tables = new ArrayList<>();
        for (ImageSize size : data.sizes()) {
            tables.add(times(size));
            boolean jdk25 = data.measurements().stream().anyMatch(m -> m.series().jvm() == JvmColumn.JDK25
                    && m.size().equals(size));
            tables.add(targets(size, JvmColumn.JIT, false));
            if (jdk25) {
                tables.add(targets(size, JvmColumn.JDK25, false));
            }
        }
        data.referenceSize().ifPresent(size -> {
            tables.add(jniVsPureC(size));
            tables.add(allocation(size));
        });
        tables.add(interpreter());
        tables.add(transport());
        tables.add(store());
        tables.removeIf(Table::isEmpty);
        return tables;
    }

    Table times(ImageSize size) {
        List<SeriesKey> series = new ArrayList<>(data.seriesAt(size));
        if (series.stream().anyMatch(k -> k.impl() != null && k.impl().isC())
                && !series.contains(VECTORIZED) && !data.vectorizedMissing().isEmpty()) {
            series.add(VECTORIZED); // the column is there, n/a, so the reader sees it was not forgotten
            series.sort(Comparator.comparingInt(SeriesKey::order));
        }
        List<String> headers = new ArrayList<>(List.of("filter"));
        series.forEach(s -> headers.add(s.id()));
        headers.add("load (1 min)");
        Table t = new Table("Time per image at " + size.label() + " (ms; copy + filter; median [95% confidence "
                + "interval] of " + iterationsNote() + " iterations)", headers);
        for (String filter : data.filters()) {
            List<String> row = new ArrayList<>(List.of(filter));
            List<Measurement> cells = new ArrayList<>();
            for (SeriesKey s : series) {
                Optional<Measurement> m = data.find(filter, size, s);
                m.ifPresent(cells::add);
                row.add(m.map(SummaryTables::medianCell).orElse(missing(filter, s)));
            }
            row.add(load(cells));
            t.row(row);
        }
        data.find(null, size, SeriesKey.COPY).ifPresent(copy -> t.note("Copy baseline (one read and one write of the "
                + "image, the memory floor): " + medianCell(copy) + " ms."));
        t.note("Columns: " + String.join("; ", series.stream().map(s -> s.id() + " = " + data.title(s))
                .toArray(String[]::new)) + ". The portable C relies on gcc's auto-vectorization; the vectorized C on "
                + "hand-written intrinsics. OpenCV is not bit-exact (different kernels, borders and rounding).");
        t.note(STATISTICS_NOTE);
        if (!data.vectorizedMissing().isEmpty()) {
            t.note("n/a: the vectorized C has no kernel for " + String.join(", ", data.vectorizedMissing())
                    + " yet (c-reference answers \"no vectorized variant yet\"); nothing was measured there.");
        }
        return t;
    }

    /**
     * The targets at one size for the Java optimized ports on one JVM column: each ratio is the median of
     * Java's iterations over the other cell's median, with its bootstrap interval, judged only where the interval
     * excludes the target. Java is judged against the vectorized C and OpenCV; the portable C rows are the paper's
     * comparison (ratios only).
     */
    Table targets(ImageSize size, JvmColumn jvm, boolean unused) {
        SeriesKey opt = SeriesKey.of(Impl.JAVA_OPTIMIZED, jvm);
        SeriesKey par = SeriesKey.of(Impl.JAVA_PARALLEL, jvm);
        Table t = new Table("Targets at " + size.label() + ", Java optimized on " + jvm.title() + " (ratios of "
                + "medians [95% CI]; " + (smoke ? "a smoke test judges nothing)" : "✓ met, ✗ missed, ≈ undecided)"),
                List.of("filter", "Java opt (ms)", "÷ C vectorized (≤ 1.0)", "÷ OpenCV (≤ 1.0)",
                        "÷ copy (blur ≤ 2)", "parallel speed-up (≥ 1.7)", "÷ C portable -O2",
                        "÷ C portable native", "load (1 min)"));
        Optional<Measurement> copy = data.find(null, size, SeriesKey.COPY);
        for (String filter : data.filters()) {
            Optional<Measurement> java = data.find(filter, size, opt);
            if (java.isEmpty()) {
                continue;
            }
            Measurement j = java.get();
            Optional<Measurement> vec = data.find(filter, size, VECTORIZED);
            Optional<Measurement> cv = data.find(filter, size, SeriesKey.of(Impl.OPENCV, jvm));
            Optional<Measurement> o2 = data.find(filter, size, SeriesKey.of(Impl.C_OPTIMIZED_O2, jvm));
            Optional<Measurement> nat = data.find(filter, size, SeriesKey.of(Impl.C_OPTIMIZED_NATIVE, jvm));
            Optional<Measurement> parallel = data.find(filter, size, par);
            List<Measurement> cells = new ArrayList<>(List.of(j));
            Stream.of(vec, cv, o2, nat, parallel, copy).forEach(m -> m.ifPresent(cells::add));
            t.row(List.of(filter, medianCell(j),
                    vec.map(v -> atMost(j, v, 1.0)).orElse(missing(filter, VECTORIZED)),
                    cv.map(c -> atMost(j, c, 1.0)).orElse("–"),
                    copy.map(c -> filter.equals("blur") ? atMost(j, c, 2.0) : ratioCell(j, c)).orElse("–"),
                    parallel.map(p -> speedUp(j, p, !filter.equals("spread"))).orElse("–"),
                    o2.map(c -> ratioCell(j, c)).orElse("–"),
                    nat.map(c -> ratioCell(j, c)).orElse("–"),
                    load(cells)));
        }
        if (smoke) {
            t.note(SMOKE_NOTE);
        }
        t.note("A ratio is Java's median time divided by the other's: below 1 Java is faster. " + (smoke ? ""
                : "The verdict: ✓ where the whole 95% interval meets the target, ✗ where the whole interval misses it "
                + "(\"✗ 1.4× over\": Java would have to get 1.4 times faster), ≈ where the interval contains the "
                + "target — the run cannot tell. ") + "Java is judged against the vectorized C ("
                + data.title(VECTORIZED) + ") and OpenCV; the portable C (gcc's auto-vectorization only) is shown "
                + "for the paper's comparison. "
                + "Parallel speed-up = optimized ÷ parallel on " + data.environment().getOrDefault("cores", "?")
                + " cores (Spread is sequential: no target).");
        t.note(STATISTICS_NOTE);
        return t;
    }

    Table interpreter() {
        Table t = new Table("Interpreter (-Xint, the paper's \"JIT off\") against the JIT",
                List.of("filter", "size", "straightforward JIT (ms)", "straightforward -Xint (ms)", "-Xint ÷ JIT",
                        "optimized JIT (ms)", "optimized -Xint (ms)", "-Xint ÷ JIT"));
        for (ImageSize size : data.sizes()) {
            for (String filter : data.filters()) {
                OptionalDouble sx = time(filter, size, new SeriesKey(Impl.JAVA_STRAIGHTFORWARD, JvmColumn.XINT));
                OptionalDouble ox = time(filter, size, new SeriesKey(Impl.JAVA_OPTIMIZED, JvmColumn.XINT));
                if (sx.isEmpty() && ox.isEmpty()) {
                    continue;
                }
                OptionalDouble sj = time(filter, size, SeriesKey.of(Impl.JAVA_STRAIGHTFORWARD, JvmColumn.JIT));
                OptionalDouble oj = time(filter, size, SeriesKey.of(Impl.JAVA_OPTIMIZED, JvmColumn.JIT));
                t.row(List.of(filter, size.label(), ms(sj), ms(sx), ratio(sx, sj), ms(oj), ms(ox), ratio(ox, oj)));
            }
        }
        return t;
    }

    Table jniVsPureC(ImageSize size) {
        Table t = new Table("JNI bridge against pure C at " + size.label()
                + " (same C function, same loop, run back to back; ms per copy + filter)",
                List.of("filter", "implementation", "JNI best", "pure C best", "JNI ÷ C (best)", "JNI mean",
                        "pure C mean", "JNI ÷ C (mean)"));
        for (String filter : data.filters()) {
            for (Impl impl : Impl.c()) {
                Optional<HarnessResult> jni = data.harness(true, filter, size, impl);
                Optional<HarnessResult> c = data.harness(false, filter, size, impl);
                if (jni.isPresent() && c.isPresent()) {
                    HarnessResult j = jni.get();
                    HarnessResult p = c.get();
                    t.row(List.of(filter, impl.id(), ms(j.minMs()), ms(p.minMs()),
                            String.format(Locale.ROOT, "%.2f", j.minMs() / p.minMs()), ms(j.meanMs()),
                            ms(p.meanMs()), String.format(Locale.ROOT, "%.2f", j.meanMs() / p.meanMs())));
                }
            }
        }
        t.note("The pure-C harness (c-reference bench_harness) and the JNI loop (System.arraycopy, then the C function "
                + "on the pinned Java arrays: GetPrimitiveArrayCritical, no pixel copied) time each case alternately; "
                + "\"best\" is the fastest run, the least disturbed by other processes. Straightforward ports are "
                + "paired up to 1024² only.");
        return t;
    }

    Table allocation(ImageSize size) {
        List<SeriesKey> javaSeries = data.seriesAt(size).stream().filter(s -> s.impl() != null && s.impl().isJava()
                && s.jvm() != JvmColumn.XINT).collect(Collectors.toList());
        List<String> headers = new ArrayList<>(List.of("filter"));
        javaSeries.forEach(s -> headers.add(s.id()));
        Table t = new Table("Allocation per image at " + size.label() + " (bytes per operation, -prof gc)", headers);
        for (String filter : data.filters()) {
            List<String> row = new ArrayList<>(List.of(filter));
            for (SeriesKey s : javaSeries) {
                row.add(data.find(filter, size, s).map(m -> bytes(m.allocBytes())).orElse("–"));
            }
            t.row(row);
        }
        t.note("Scratch is O(width) by design (a few line buffers per band; the image itself is never copied): blur at "
                + "4096² allocates about 51 KiB per image on JDK 17 (0.4 MiB in parallel: line buffers for each row band).");
        List<String> heavy = new ArrayList<>();
        for (String filter : data.filters()) {
            for (SeriesKey s : javaSeries) {
                data.find(filter, size, s).filter(m -> m.allocBytes() > HEAVY_ALLOCATION)
                        .ifPresent(m -> heavy.add(filter + " " + s.id() + " " + bytes(m.allocBytes())));
            }
        }
        if (!heavy.isEmpty()) {
            t.note("Above 1 MiB per image (" + String.join(", ", heavy) + "), the JIT allocated where the code does "
                    + "not: Vector API values it did not keep in registers are boxed on the heap. Measured with the same "
                    + "kernels: blur at 4096² allocates 0.9 MiB per image on JDK 25 against 51 KiB on JDK 17 (parallel: "
                    + "9.4 MiB against 0.4 MiB), which is also why JDK 25 can be slower than JDK 17 here.");
        }
        return t;
    }

    Table transport() {
        Throughput tp = data.transport();
        Table t = new Table("Loopback TCP throughput by sender buffer size (MiB/s, median of the repetitions)",
                List.of("buffer", "C sockets", "Java streams", "Java NIO", "streams ÷ C", "NIO ÷ C"));
        for (long buffer : tp.xs()) {
            Double c = tp.at("c-sockets", buffer);
            Double s = tp.at("java-streams", buffer);
            Double n = tp.at("java-nio", buffer);
            boolean targeted = buffer >= 8192;
            t.row(List.of(Charts.bufferLabel(buffer), mib(c), mib(s), mib(n), throughputRatio(s, c, targeted),
                    throughputRatio(n, c, targeted)));
        }
        if (smoke) {
            t.note(SMOKE_NOTE);
        }
        t.note("Target: Java ≥ 0.95× C at every buffer size from 8 KiB" + (smoke ? "" : " (marked ✓/✗)") + ". Sender and receiver run in one "
                + "process on two threads in both languages; the receiver reads with a 64 KiB buffer.");
        return t;
    }

    Table store() {
        Throughput st = data.store();
        Table t = new Table("Image store over HTTP (MiB/s, median of the repetitions)",
                List.of("file size", "GET", "PUT"));
        for (long size : st.xs()) {
            t.row(List.of(Charts.bufferLabel(size), mib(st.at("GET", size)), mib(st.at("PUT", size))));
        }
        t.note("PUT includes what the store does with every upload: stream to staging, fsync, validate the DICOM "
                + "(parse the whole dataset), rename, update the index. GET streams the stored file.");
        return t;
    }

    private OptionalDouble time(String filter, ImageSize size, SeriesKey s) {
        return time(filter, size, s, false);
    }

    private OptionalDouble time(String filter, ImageSize size, SeriesKey s, boolean best) {
        return data.find(filter, size, s).map(m -> OptionalDouble.of(best ? m.bestMs() : m.scoreMs()))
                .orElse(OptionalDouble.empty());
    }

    private String iterationsNote() {
        int min = data.measurements().stream().mapToInt(Measurement::samples).min().orElse(0);
        int max = data.measurements().stream().mapToInt(Measurement::samples).max().orElse(0);
        return min == max ? Integer.toString(min) : min + " to " + max;
    }

    /** More allocation per image than line buffers explain. */
    private static final double HEAVY_ALLOCATION = 1 << 20;

    /** Said under every judged table of a smoke run. */
    static final String SMOKE_NOTE = "Smoke test: a few short iterations without the warm-up a measurement needs; "
            + "the ratios show that every column ran, not how fast it is. Run `./medjava bench --standard` to measure.";

    /** The vectorized C: the C row Java is judged against. */
    static final SeriesKey VECTORIZED = SeriesKey.of(Impl.C_VECTORIZED, JvmColumn.JIT);

    static final String STATISTICS_NOTE = "Statistics: every cell's samples are its measured iterations pooled over "
            + "its forks; intervals are 95% percentile bootstraps (2,000 resamples, seeded by the cell's name, so a "
            + "regenerated report shows the same figures); a ratio's interval is bootstrapped on the ratio of the two "
            + "medians, both cells resampled each round. Load: the highest 1-minute load average read before and "
            + "after the row's cells (range over them); \"loaded\": a cell kept although other processes used more "
            + "than half of each core (the load rule in the environment block).";

    /** "0.412 [0.401–0.430]", a dagger when the cell was kept on a loaded machine. */
    static String medianCell(Measurement m) {
        Bootstrap.Interval i = m.median();
        if (i.isEmpty()) {
            return ms(m.scoreMs()) + " (mean)";
        }
        return ms(i.estimate()) + " [" + ms(i.lo()) + "–" + ms(i.hi()) + "]" + (m.load().loaded() ? " †" : "");
    }

    /** What an absent cell reads: n/a for a vectorized C kernel not written yet, else a dash. */
    String missing(String filter, SeriesKey s) {
        return s.equals(VECTORIZED) && data.vectorizedMissing().contains(filter) ? "n/a" : "–";
    }

    /** "1.2–2.4" (the 1-minute load average over the cells), "loaded" when one of them was kept over the rule. */
    static String load(List<Measurement> cells) {
        double[] loads = cells.stream().map(Measurement::load).filter(Measurement.Load::known)
                .mapToDouble(Measurement.Load::load1).toArray();
        if (loads.length == 0) {
            return "?";
        }
        double lo = Arrays.stream(loads).min().getAsDouble();
        double hi = Arrays.stream(loads).max().getAsDouble();
        String range = lo == hi ? String.format(Locale.ROOT, "%.2f", hi)
                : String.format(Locale.ROOT, "%.2f–%.2f", lo, hi);
        return cells.stream().anyMatch(m -> m.load().loaded()) ? range + " loaded" : range;
    }

    static Bootstrap.Interval ratio(Measurement a, Measurement b) {
        return Bootstrap.ratio(a.iterationsMs(), b.iterationsMs(), a.cellName() + " / " + b.cellName());
    }

    static String interval(Bootstrap.Interval r) {
        return String.format(Locale.ROOT, "%.2f [%.2f–%.2f]", r.estimate(), r.lo(), r.hi());
    }

    /** A ratio without a target. */
    static String ratioCell(Measurement java, Measurement other) {
        Bootstrap.Interval r = ratio(java, other);
        return r.isEmpty() ? SummaryTables.ratioOnly(java.scoreMs(), OptionalDouble.of(other.scoreMs()))
                : interval(r);
    }

    /** Java ÷ other against "≤ limit". */
    String atMost(Measurement java, Measurement other, double limit) {
        Bootstrap.Interval r = ratio(java, other);
        if (r.isEmpty()) {
            return SummaryTables.ratioOnly(java.scoreMs(), OptionalDouble.of(other.scoreMs()));
        }
        if (smoke) {
            return interval(r);
        }
        Bootstrap.Verdict v = Bootstrap.atMost(r, limit);
        return interval(r) + " " + v.mark() + (v == Bootstrap.Verdict.MISSED
                ? String.format(Locale.ROOT, " %.2f× over", r.estimate() / limit) : "");
    }

    static String ratioOnly(double java, OptionalDouble other) {
        return other.isEmpty() ? "–" : String.format(Locale.ROOT, "%.2f", java / other.getAsDouble());
    }

    /** Optimized ÷ parallel against "≥ 1.7". */
    String speedUp(Measurement single, Measurement parallel, boolean targeted) {
        Bootstrap.Interval s = ratio(single, parallel);
        if (s.isEmpty()) {
            return ratioOnly(single.scoreMs(), OptionalDouble.of(parallel.scoreMs()));
        }
        if (!targeted || smoke) {
            return interval(s);
        }
        Bootstrap.Verdict v = Bootstrap.atLeast(s, 1.7);
        return interval(s) + " " + v.mark() + (v == Bootstrap.Verdict.MISSED
                ? String.format(Locale.ROOT, " %.2f× short", 1.7 / s.estimate()) : "");
    }

    String throughputRatio(Double java, Double c, boolean targeted) {
        if (java == null || c == null) {
            return "–";
        }
        double r = java / c;
        if (!targeted || smoke) {
            return String.format(Locale.ROOT, "%.2f", r);
        }
        return r >= 0.95 ? String.format(Locale.ROOT, "%.2f ✓", r) : String.format(Locale.ROOT, "%.2f ✗", r);
    }

    static String ratio(OptionalDouble a, OptionalDouble b) {
        return a.isPresent() && b.isPresent() ? String.format(Locale.ROOT, "%.1f", a.getAsDouble() / b.getAsDouble())
                : "–";
    }

    static String ms(OptionalDouble v) {
        return v.isPresent() ? ms(v.getAsDouble()) : "–";
    }

    static String ms(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    static String mib(Double v) {
        return v == null ? "–" : String.format(Locale.ROOT, "%.0f", v);
    }

    static String bytes(double v) {
        if (Double.isNaN(v)) {
            return "?";
        }
        if (v >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", v / (1 << 20));
        }
        if (v >= 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", v / 1024);
        }
        return String.format(Locale.ROOT, "%.0f B", v);
    }
}
