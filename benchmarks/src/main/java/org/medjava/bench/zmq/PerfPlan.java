package org.medjava.bench.zmq;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The message sizes one pair of perf processes runs over one connection, each with its warm-up and measured
 * message (or round-trip) counts; written and parsed as {@code SIZE:WARMUP:COUNT,...}, the form the C programs
 * ({@code benchmarks/src/main/c-zmq/perf_common.h}) read too.
 */
public record PerfPlan(List<Step> steps) {
    /** One message size with its counts. */
    public record Step(int size, long warmup, long count) {
    }

    public PerfPlan {
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("empty plan");
        }
        steps = List.copyOf(steps);
    }

    public static PerfPlan parse(String text) {
        List<Step> steps = new ArrayList<>();
        for (String part : text.split(",")) {
            String[] f = part.split(":");
            if (f.length != 3) {
                throw new IllegalArgumentException("bad plan " + text + " (SIZE:WARMUP:COUNT,...)");
            }
            Step s = new Step(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]));
            if (s.size() < 1 || s.warmup() < 0 || s.count() < 1) {
                throw new IllegalArgumentException("bad plan " + text + " (SIZE:WARMUP:COUNT,...)");
            }
            steps.add(s);
        }
        return new PerfPlan(steps);
    }

    /**
     * A plan over {@code sizes}: {@code maxCount} messages per size, fewer for big ones so that no size moves more
     * than {@code maxBytes} (but at least {@code minCount}); a tenth of that again as the warm-up, except for the
     * first size, whose warm-up is as long as its measurement: it also warms up the connection and, in Java, the JIT
     * (with a tenth only, JeroMQ's first sizes measured 4–5× the latency of the next ones in a standard run).
     */
    public static PerfPlan scaled(List<Integer> sizes, long maxCount, long minCount, long maxBytes) {
        List<Step> steps = new ArrayList<>();
        for (int size : sizes) {
            long count = Math.max(minCount, Math.min(maxCount, maxBytes / size));
            steps.add(new Step(size, steps.isEmpty() ? count : Math.max(1, count / 10), count));
        }
        return new PerfPlan(steps);
    }

    public int maxSize() {
        return steps.stream().mapToInt(Step::size).max().orElseThrow();
    }

    @Override
    public String toString() {
        return steps.stream().map(s -> String.format(Locale.ROOT, "%d:%d:%d", s.size(), s.warmup(), s.count()))
                .collect(Collectors.joining(","));
    }
}
