package org.medjava.bench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.variant.Impl;

/** Reads JMH's JSON result files ({@code raw/jmh-*.json}) into measurements, and merges them into one array. */
public final class JmhResults {
    private JmhResults() {
    }

    public static List<JsonObject> readAll(Path rawDir) throws IOException {
        List<JsonObject> all = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(rawDir, "jmh-*.json")) {
            List<Path> sorted = new ArrayList<>();
            files.forEach(sorted::add);
            sorted.sort(null);
            for (Path file : sorted) {
                try (Reader in = Files.newBufferedReader(file)) {
                    JsonElement root = JsonParser.parseReader(in);
                    if (!root.isJsonArray()) {
                        throw new IOException(file + " is not a JMH JSON result (no array)");
                    }
                    root.getAsJsonArray().forEach(e -> all.add(e.getAsJsonObject()));
                }
            }
        }
        return all;
    }

    public static JsonArray merged(List<JsonObject> results) {
        JsonArray array = new JsonArray();
        results.forEach(array::add);
        return array;
    }

    public static List<Measurement> measurements(List<JsonObject> results) {
        List<Measurement> list = new ArrayList<>();
        for (JsonObject r : results) {
            list.add(measurement(r));
        }
        return list;
    }

    static Measurement measurement(JsonObject r) {
        JsonObject params = r.has("params") ? r.getAsJsonObject("params") : new JsonObject();
        ImageSize size = ImageSize.parse(params.get("size").getAsString());
        JvmColumn jvm = JvmColumn.JIT;
        for (JsonElement arg : r.getAsJsonArray("jvmArgs")) {
            String a = arg.getAsString();
            if (a.startsWith("-D" + JvmColumn.PROPERTY + "=")) {
                jvm = JvmColumn.parse(a.substring(a.indexOf('=') + 1));
            }
        }
        boolean copy = r.get("benchmark").getAsString().endsWith("CopyBaseline.copy");
        SeriesKey series = copy ? SeriesKey.COPY : SeriesKey.of(Impl.parse(params.get("impl").getAsString()), jvm);
        String filter = copy ? null : params.get("filter").getAsString();
        JsonObject primary = r.getAsJsonObject("primaryMetric");
        double factor = toMillis(primary.get("scoreUnit").getAsString());
        double score = primary.get("score").getAsDouble() * factor;
        double error = number(primary.get("scoreError")) * factor;
        List<Double> iterations = new ArrayList<>();
        int forks = 0;
        double best = score;
        if (primary.has("rawData")) {
            for (JsonElement fork : primary.getAsJsonArray("rawData")) {
                forks++;
                for (JsonElement iteration : fork.getAsJsonArray()) {
                    best = Math.min(best, number(iteration) * factor);
                    iterations.add(number(iteration) * factor);
                }
            }
        }
        String data = r.get("benchmark").getAsString().endsWith("Gray16Benchmark.run")
                ? params.get("format").getAsString() : Measurement.RGB8;
        return new Measurement(filter, size, series, score, error, best, allocation(r), iterations.size(), data,
                iterations.stream().mapToDouble(Double::doubleValue).toArray(), Math.max(1, forks), load(r));
    }

    /** The run's own member ({@code medjava.load}, written by the JMH step after the cell), if there. */
    private static Measurement.Load load(JsonObject r) {
        if (!r.has(LOAD)) {
            return Measurement.Load.UNKNOWN;
        }
        JsonObject l = r.getAsJsonObject(LOAD);
        return new Measurement.Load(number(l.get("load1Before")), number(l.get("load1After")),
                number(l.get("othersDuring")), l.get("attempts").getAsInt(), l.get("loaded").getAsBoolean());
    }

    /** Where the benchmarks' run puts the load around a cell in JMH's result object. */
    public static final String LOAD = "medjava.load";

    private static double allocation(JsonObject r) {
        if (!r.has("secondaryMetrics")) {
            return Double.NaN;
        }
        for (Map.Entry<String, JsonElement> e : r.getAsJsonObject("secondaryMetrics").entrySet()) {
            if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                return number(e.getValue().getAsJsonObject().get("score"));
            }
        }
        return Double.NaN;
    }

    /** JMH writes NaN as the string "NaN". */
    private static double number(JsonElement e) {
        if (e == null || e.isJsonNull()) {
            return Double.NaN;
        }
        return e.getAsJsonPrimitive().isNumber() ? e.getAsDouble() : Double.parseDouble(e.getAsString());
    }

    private static double toMillis(String unit) {
        switch (unit) {
            case "ms/op": return 1;
            case "us/op": return 1e-3;
            case "ns/op": return 1e-6;
            case "s/op": return 1e3;
            default: throw new IllegalArgumentException("unexpected JMH score unit " + unit);
        }
    }
}
