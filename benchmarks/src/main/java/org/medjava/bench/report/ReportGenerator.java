package org.medjava.bench.report;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.medjava.bench.environment.EnvironmentStep;

/**
 * Turns a run's raw outputs ({@code OUT/raw/}: JMH JSON, pure-C CSV, transport and store CSVs, environment) into the
 * report in {@code OUT/}: {@code index.html}, {@code summary.md}, {@code results.csv}, {@code jmh-results.json}
 * (all JMH results merged) and {@code charts/*.svg|png}. No network, no JVM forks: it can be re-run at any time.
 */
public final class ReportGenerator {
    public static final String RAW = "raw";

    private ReportGenerator() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ReportGenerator REPORT_DIR   (reads REPORT_DIR/raw, writes the report)");
            System.exit(2);
        }
        generate(Path.of(args[0]));
    }

    /** @return the files written */
    public static List<Path> generate(Path out) throws IOException {
        Path raw = out.resolve(RAW);
        if (!Files.isDirectory(raw)) {
            throw new IOException(raw + " does not exist: run the benchmarks first");
        }
        List<JsonObject> jmh = JmhResults.readAll(raw);
        List<String> problems = new ArrayList<>();
        Path problemFile = raw.resolve("problems.txt");
        if (Files.isRegularFile(problemFile)) {
            problems.addAll(Files.readAllLines(problemFile));
        }
        ReportData everything = new ReportData(EnvironmentStep.read(raw.resolve("environment.properties")),
                JmhResults.measurements(jmh), HarnessResult.read(raw.resolve("c-harness.csv")),
                Throughput.read(raw.resolve("transport.csv"), "impl", "buffer"),
                Throughput.read(raw.resolve("store-http.csv"), "op", "size"), problems);
        ReportData data = everything.only(Measurement.RGB8); // the 8-bit tables and charts

        List<Path> written = new ArrayList<>();
        written.add(write(out.resolve("jmh-results.json"),
                new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create()
                        .toJson(JmhResults.merged(jmh))));
        written.add(write(out.resolve("results.csv"), resultsCsv(everything)));

        Path charts = out.resolve("charts");
        List<String> chartNames = new ArrayList<>();
        for (String filter : data.filters()) {
            Charts.write(Charts.filterChart(filter, data.measurements()), charts, filter);
            chartNames.add(filter);
            LineChart ratios = Charts.ratioChart(filter, data.measurements());
            if (!ratios.series().isEmpty()) {
                Charts.write(ratios, charts, filter + "-ratio");
                chartNames.add(filter + "-ratio");
            }
        }
        // the 16-bit grey charts (unsigned data: every implementation was measured on it)
        List<String> formats = everything.grayFormats();
        if (!formats.isEmpty()) {
            ReportData grey = everything.only(formats.get(0));
            for (String filter : grey.filters()) {
                String name = filter + "-gray16";
                LineChart chart = Charts.filterChart(filter, grey.measurements(),
                        filter + ", 16-bit grey " + formats.get(0) + ": time per image (copy + filter, lower is better)");
                Charts.write(chart, charts, name);
                chartNames.add(name);
            }
        }
        if (!data.transport().isEmpty()) {
            Charts.write(Charts.transportChart(data.transport()), charts, "transport");
            chartNames.add("transport");
        }
        if (!data.store().isEmpty()) {
            Charts.write(Charts.storeChart(data.store()), charts, "store-http");
            chartNames.add("store-http");
        }
        for (String name : chartNames) {
            written.add(charts.resolve(name + ".svg"));
            written.add(charts.resolve(name + ".png"));
        }
        List<Table> tables = new SummaryTables(data).all();
        // the 16-bit tables beside the 8-bit ones: after the 8-bit times and targets
        int at = 0;
        for (int i = 0; i < tables.size(); i++) {
            if (tables.get(i).title().startsWith("Time per image") || tables.get(i).title().startsWith("Targets")) {
                at = i + 1;
            }
        }
        tables.addAll(at, new Gray16Tables(everything).all());
        // issue 20's experiments, a section each (they write their own charts), absent when their step did not run
        boolean quick = "quick".equals(everything.environment().get("mode"));
        List<Section> sections = new ArrayList<>();
        for (SectionSource source : SECTIONS) {
            Optional<Section> section = source.build(raw, charts, everything.environment(), quick);
            if (section.isPresent()) {
                sections.add(section.get());
                for (String name : section.get().charts()) {
                    written.add(charts.resolve(name + ".svg"));
                    written.add(charts.resolve(name + ".png"));
                }
            }
        }
        written.add(write(out.resolve("summary.md"), Summary.markdown(data, tables, sections)));
        written.add(write(out.resolve("index.html"), Summary.html(data, tables, chartNames, sections)));
        return written;
    }

    /** A report section built from a step's raw files (and the charts it writes), empty when the step did not run. */
    interface SectionSource {
        Optional<Section> build(Path raw, Path charts, Map<String, String> environment, boolean quick)
                throws IOException;
    }

    /** The sections after the filter and transport part, in the issue's order. */
    static final List<SectionSource> SECTIONS = List.of(
            (raw, charts, env, quick) -> Optional.ofNullable(IpcReport.section(raw, charts, quick)), // 1: IPC
            ZmqSection::build,                                                                       // 2: ØMQ
            (raw, charts, env, quick) -> Optional.ofNullable(BlocksReport.section(raw, charts, quick)), // 3: blocks
            FfmSection::build,                                                                       // 4: JNI vs FFM
            ServeSection::build,                                               // issue 30: store vs nginx, Orthanc
            IngestSection::build,                                              // issue 21: ingest vs Orthanc
            CodecSection::build);                                              // issue 34: HTJ2K vs JPEG 2000

    static String resultsCsv(ReportData data) {
        StringBuilder csv = new StringBuilder(
                "filter,size,width,height,pixels,series,implementation,jvm,score_ms,error_ms,best_ms,alloc_bytes_per_op,"
                        + "samples,bit_exact,data\n");
        data.measurements().stream()
                .sorted(Comparator.comparing((Measurement m) -> !m.isRgb8()).thenComparing(Measurement::data)
                        .thenComparing((Measurement m) -> m.isCopy() ? "" : m.filter())
                        .thenComparingLong(m -> m.size().pixels()).thenComparingInt(m -> m.series().order()))
                .forEach(m -> csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%s,%s,%s,%.6f,%.6f,%.6f,%.1f,%d,%s,%s%n",
                        m.isCopy() ? "copy" : m.filter(), m.size(), m.size().width(), m.size().height(),
                        m.size().pixels(), m.series().id(), m.isCopy() ? "copy" : m.series().impl().id(),
                        m.series().jvm().id(), m.scoreMs(), Double.isNaN(m.errorMs()) ? 0.0 : m.errorMs(),
                        m.bestMs(), m.allocBytes(), m.samples(),
                        m.isCopy() || m.series().impl() != org.medjava.bench.variant.Impl.OPENCV, m.data())));
        return csv.toString();
    }

    private static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    /** Environment keys in the order the summary shows them, with their labels. */
    static final Map<String, String> ENVIRONMENT_LABELS = new java.util.LinkedHashMap<>();

    static {
        ENVIRONMENT_LABELS.put("date", "date");
        ENVIRONMENT_LABELS.put("mode", "run");
        ENVIRONMENT_LABELS.put("cpu", "CPU");
        ENVIRONMENT_LABELS.put("cpu.vector", "CPU vectors");
        ENVIRONMENT_LABELS.put("cores", "cores");
        ENVIRONMENT_LABELS.put("memory", "memory");
        ENVIRONMENT_LABELS.put("os", "OS");
        ENVIRONMENT_LABELS.put("jdk", "JDK");
        ENVIRONMENT_LABELS.put("jdk25", "JDK 25");
        ENVIRONMENT_LABELS.put("c.O2", "C -O2");
        ENVIRONMENT_LABELS.put("c.native", "C native");
        ENVIRONMENT_LABELS.put("java.vector", "Java vectors");
        ENVIRONMENT_LABELS.put("c.vector", "C vectors");
        ENVIRONMENT_LABELS.put("c.vectorized.missing", "no C kernel");
        ENVIRONMENT_LABELS.put("load.rule", "load rule");
        ENVIRONMENT_LABELS.put("opencv", "OpenCV");
        ENVIRONMENT_LABELS.put("jmh", "JMH");
        ENVIRONMENT_LABELS.put("commit", "commit");
        ENVIRONMENT_LABELS.put("load.start", "load at start");
        ENVIRONMENT_LABELS.put("load.end", "load at end");
        ENVIRONMENT_LABELS.put("duration", "duration");
    }
}
