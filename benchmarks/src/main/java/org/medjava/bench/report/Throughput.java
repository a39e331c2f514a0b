package org.medjava.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Throughput points (MiB/s) by series and x (buffer or file size in bytes): the median over the measured
 * repetitions (repetition 0, the warm-up, is left out).
 */
public final class Throughput {
    /** Series id → x → MiB/s. */
    private final Map<String, TreeMap<Long, Double>> points = new LinkedHashMap<>();

    /** Reads a CSV with the given series, x and repetition columns plus {@code bytes} and {@code seconds}. */
    public static Throughput read(Path file, String seriesColumn, String xColumn) throws IOException {
        Map<String, Map<Long, List<Double>>> samples = new LinkedHashMap<>();
        for (Map<String, String> row : Csv.read(file)) {
            if (Integer.parseInt(row.get("rep")) == 0) {
                continue;
            }
            double mibPerSecond = Long.parseLong(row.get("bytes")) / Double.parseDouble(row.get("seconds")) / (1 << 20);
            samples.computeIfAbsent(row.get(seriesColumn), k -> new TreeMap<>())
                    .computeIfAbsent(Long.parseLong(row.get(xColumn)), k -> new ArrayList<>()).add(mibPerSecond);
        }
        Throughput t = new Throughput();
        samples.forEach((series, byX) -> byX.forEach((x, values) ->
                t.points.computeIfAbsent(series, k -> new TreeMap<>()).put(x, median(values))));
        return t;
    }

    public boolean isEmpty() {
        return points.isEmpty();
    }

    public Map<String, TreeMap<Long, Double>> points() {
        return points;
    }

    public Double at(String series, long x) {
        TreeMap<Long, Double> s = points.get(series);
        return s == null ? null : s.get(x);
    }

    public List<Long> xs() {
        TreeMap<Long, Boolean> all = new TreeMap<>();
        points.values().forEach(m -> m.keySet().forEach(x -> all.put(x, true)));
        return new ArrayList<>(all.keySet());
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
