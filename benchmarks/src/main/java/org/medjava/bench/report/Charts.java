package org.medjava.bench.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.imageio.ImageIO;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.variant.Impl;

/** Builds the report's charts and writes each as {@code charts/NAME.svg} and {@code charts/NAME.png}. */
final class Charts {
    private static final Color[] THROUGHPUT_COLORS = {
        new Color(0xa50f15), new Color(0x1f77b4), new Color(0x31a354), new Color(0x6a51a3)};

    private Charts() {
    }

    /**
     * The paper's Figures 9–16 for one filter: time per image against image size, one line per series, the copy
     * baseline of each size as the floor.
     */
    static LineChart filterChart(String filter, List<Measurement> all) {
        return filterChart(filter, all, filter + ": time per image (copy + filter, lower is better)");
    }

    /** {@link #filterChart(String, List)} with its own title (the 16-bit grey charts). */
    static LineChart filterChart(String filter, List<Measurement> all, String title) {
        List<Measurement> mine = all.stream().filter(m -> m.isCopy() || filter.equals(m.filter()))
                .collect(Collectors.toList());
        TreeMap<Long, ImageSize> sizes = new TreeMap<>();
        mine.stream().filter(m -> !m.isCopy()).forEach(m -> sizes.put(m.size().pixels(), m.size()));
        List<LineChart.Tick> ticks = sizes.values().stream()
                .map(s -> new LineChart.Tick(s.pixels(), s.label())).collect(Collectors.toList());
        LineChart chart = new LineChart(title,
                "image size (pixels, log scale)", "ms per image (log scale)", true, ticks, LineChart::number);
        Map<SeriesKey, List<Measurement>> bySeries = new TreeMap<>(Comparator.comparingInt(SeriesKey::order));
        for (Measurement m : mine) {
            if (sizes.containsKey(m.size().pixels())) {
                bySeries.computeIfAbsent(m.series(), k -> new ArrayList<>()).add(m);
            }
        }
        bySeries.forEach((key, ms) -> {
            List<double[]> points = ms.stream().sorted(Comparator.comparingLong(m -> m.size().pixels()))
                    .map(m -> withError(m.size().pixels(), m.scoreMs(), m.errorMs())).collect(Collectors.toList());
            chart.add(new LineChart.Series(key.id(), key.title(), SeriesStyle.color(key), SeriesStyle.stroke(key),
                    SeriesStyle.width(key), points));
        });
        return chart;
    }

    /** A point with its error bar when JMH gave one (a smoke run's single iteration has none). */
    private static double[] withError(double x, double y, double error) {
        if (Double.isNaN(error) || error <= 0) {
            return new double[] {x, y};
        }
        return new double[] {x, y, Math.max(y - error, y * 0.01), y + error};
    }

    /** The columns Java optimized is divided by in the ratio charts, with the JVM of the Java side. */
    private static final List<SeriesKey[]> RATIOS = List.of(
            new SeriesKey[] {SeriesKey.of(Impl.JAVA_OPTIMIZED, JvmColumn.JIT), SeriesKey.of(Impl.C_OPTIMIZED_O2, JvmColumn.JIT)},
            new SeriesKey[] {SeriesKey.of(Impl.JAVA_OPTIMIZED, JvmColumn.JIT),
                SeriesKey.of(Impl.C_OPTIMIZED_NATIVE, JvmColumn.JIT)},
            new SeriesKey[] {SeriesKey.of(Impl.JAVA_OPTIMIZED, JvmColumn.JIT), SeriesKey.of(Impl.OPENCV, JvmColumn.JIT)},
            new SeriesKey[] {SeriesKey.of(Impl.JAVA_OPTIMIZED, JvmColumn.JDK25),
                SeriesKey.of(Impl.C_OPTIMIZED_NATIVE, JvmColumn.JIT)},
            new SeriesKey[] {SeriesKey.of(Impl.JAVA_OPTIMIZED, JvmColumn.JDK25), SeriesKey.of(Impl.OPENCV, JvmColumn.JIT)});

    /**
     * Java optimized ÷ C (and ÷ OpenCV) by image size for one filter, on JDK 17 and JDK 25: below the 1× line Java is
     * faster. Error bars: the two means' confidence intervals combined (relative errors added in quadrature).
     */
    static LineChart ratioChart(String filter, List<Measurement> all) {
        TreeMap<Long, ImageSize> sizes = new TreeMap<>();
        all.stream().filter(m -> filter.equals(m.filter())).forEach(m -> sizes.put(m.size().pixels(), m.size()));
        List<LineChart.Tick> ticks = sizes.values().stream()
                .map(s -> new LineChart.Tick(s.pixels(), s.label())).collect(Collectors.toList());
        LineChart chart = new LineChart(filter + ": Java optimized ÷ C and OpenCV by size (below 1: Java faster)",
                "image size (pixels, log scale)", "time ratio (log scale)", true, ticks, LineChart::number)
                .reference(1, "1×");
        for (SeriesKey[] pair : RATIOS) {
            List<double[]> points = new ArrayList<>();
            for (ImageSize size : sizes.values()) {
                Measurement java = find(all, filter, size, pair[0]);
                Measurement other = find(all, filter, size, pair[1]);
                if (java != null && other != null) {
                    double r = java.scoreMs() / other.scoreMs();
                    double rel = Math.hypot(relative(java), relative(other));
                    points.add(withError(size.pixels(), r, r * rel));
                }
            }
            String jdk = pair[0].jvm() == JvmColumn.JDK25 ? "JDK 25" : "JDK 17";
            chart.add(new LineChart.Series(pair[0].id() + "/" + pair[1].id(), jdk + " ÷ " + pair[1].impl().title(),
                    SeriesStyle.color(pair[1]), pair[0].jvm() == JvmColumn.JDK25 ? Canvas.Stroke.DASHED
                    : Canvas.Stroke.SOLID, 2.2, points));
        }
        return chart;
    }

    private static Measurement find(List<Measurement> all, String filter, ImageSize size, SeriesKey key) {
        return all.stream().filter(m -> filter.equals(m.filter()) && m.size().equals(size) && m.series().equals(key))
                .findFirst().orElse(null);
    }

    private static double relative(Measurement m) {
        return Double.isNaN(m.errorMs()) ? 0 : m.errorMs() / m.scoreMs();
    }

    /** Figure 17: throughput against sender buffer size, one line per transport. */
    static LineChart transportChart(Throughput t) {
        return throughputChart("Loopback TCP throughput by sender buffer size (higher is better)",
                "sender buffer size (log scale)", t, Charts::bufferLabel);
    }

    /** The image store's HTTP GET and PUT throughput by file size. */
    static LineChart storeChart(Throughput t) {
        return throughputChart("Image store over HTTP: throughput by file size (higher is better)",
                "file size (log scale)", t, Charts::bufferLabel);
    }

    private static LineChart throughputChart(String title, String xLabel, Throughput t,
                                             java.util.function.LongFunction<String> label) {
        List<LineChart.Tick> ticks = t.xs().stream().map(x -> new LineChart.Tick(x, label.apply(x)))
                .collect(Collectors.toList());
        LineChart chart = new LineChart(title, xLabel, "MiB/s", false, ticks, LineChart::number);
        List<String> ids = new ArrayList<>(t.points().keySet());
        ids.sort(Comparator.comparingInt(id -> SERIES_ORDER.indexOf(id) < 0 ? 99 : SERIES_ORDER.indexOf(id)));
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            List<double[]> points = new ArrayList<>();
            t.points().get(id).forEach((x, y) -> points.add(new double[] {x, y}));
            chart.add(new LineChart.Series(id, SERIES_TITLES.getOrDefault(id, id),
                    THROUGHPUT_COLORS[i % THROUGHPUT_COLORS.length],
                    id.startsWith("c") ? Canvas.Stroke.DASHED : Canvas.Stroke.SOLID, 2.2, points));
        }
        return chart;
    }

    private static final List<String> SERIES_ORDER = List.of("c-sockets", "java-streams", "java-nio", "GET", "PUT");
    private static final Map<String, String> SERIES_TITLES = Map.of(
            "c-sockets", "C sockets (write/read)",
            "java-streams", "Java blocking streams",
            "java-nio", "Java NIO channels (direct buffers)",
            "GET", "HTTP GET",
            "PUT", "HTTP PUT (incl. validation, fsync)");

    static String bufferLabel(long bytes) {
        if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }

    static void write(LineChart chart, Path dir, String name) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(name + ".svg"), chart.svg());
        if (!ImageIO.write(chart.png(), "png", dir.resolve(name + ".png").toFile())) {
            throw new IOException("no PNG writer in this JDK");
        }
    }
}
