package org.medjava.bench.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.medjava.bench.CopyBaseline;
import org.medjava.bench.FilterBenchmark;
import org.medjava.bench.Gray16Benchmark;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.setup.Timing;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * One JMH run: a benchmark over sizes × filters × implementations (every combination valid) on one JVM column with
 * one timing. {@code filters} and {@code impls} are empty for the copy baseline. {@code grayFormats} empty: the 8-bit
 * RGB {@link FilterBenchmark}; else the 16-bit grey {@link Gray16Benchmark} on each of these formats ({@code u16},
 * {@code s16}).
 */
public record JmhGroup(String name, boolean copyBaseline, List<String> sizes, List<String> filters,
                       List<String> impls, JvmColumn jvm, Timing timing, List<String> extraJvmArgs,
                       List<String> grayFormats) {

    /** An 8-bit RGB group (or the copy baseline). */
    public JmhGroup(String name, boolean copyBaseline, List<String> sizes, List<String> filters, List<String> impls,
                    JvmColumn jvm, Timing timing, List<String> extraJvmArgs) {
        this(name, copyBaseline, sizes, filters, impls, jvm, timing, extraJvmArgs, List.of());
    }

    public boolean gray16() {
        return !grayFormats.isEmpty();
    }

    public int benchmarkCount() {
        return copyBaseline ? sizes.size()
                : sizes.size() * filters.size() * impls.size() * Math.max(1, grayFormats.size());
    }

    /**
     * The group as its cells, one benchmark each (a size × filter × implementation × format), so that each can be
     * timed against the machine's load and retried on its own ({@link LoadGuard}).
     */
    public List<JmhGroup> cells() {
        List<JmhGroup> cells = new ArrayList<>();
        for (String size : sizes) {
            if (copyBaseline) {
                cells.add(new JmhGroup(name + " " + size, true, List.of(size), filters, impls, jvm, timing,
                        extraJvmArgs, grayFormats));
                continue;
            }
            for (String filter : filters) {
                for (String impl : impls) {
                    for (String format : grayFormats.isEmpty() ? List.of("") : grayFormats) {
                        cells.add(new JmhGroup(String.join(" ", name, size, filter, impl, format).trim(), false,
                                List.of(size), List.of(filter), List.of(impl), jvm, timing, extraJvmArgs,
                                format.isEmpty() ? List.of() : List.of(format)));
                    }
                }
            }
        }
        return cells;
    }

    public Options options(Path jsonResult) {
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include((copyBaseline ? CopyBaseline.class : gray16() ? Gray16Benchmark.class
                        : FilterBenchmark.class).getName().replace(".", "\\.") + "\\.")
                .param("size", sizes.toArray(new String[0]))
                .forks(timing.forks())
                .warmupIterations(timing.warmupIterations())
                .warmupTime(millis(timing.warmupSeconds()))
                .measurementIterations(timing.iterations())
                .measurementTime(millis(timing.seconds()))
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(false)
                .result(jsonResult.toString())
                .resultFormat(ResultFormatType.JSON)
                .jvmArgs(jvmArgs().toArray(new String[0]));
        if (!copyBaseline) {
            b.param("filter", filters.toArray(new String[0])).param("impl", impls.toArray(new String[0]));
        }
        if (gray16()) {
            b.param("format", grayFormats.toArray(new String[0]));
        }
        jvm.launcher().ifPresent(java -> b.jvm(java.toString()));
        return b.build();
    }

    /**
     * Fork options: the column tag, where the native parts are, and the column's own flags (the fixed heap comes
     * from the benchmarks' {@code @Fork(jvmArgsAppend)}).
     */
    List<String> jvmArgs() {
        List<String> args = new ArrayList<>(List.of(
                "-D" + JvmColumn.PROPERTY + "=" + jvm.id(),
                "-Dmedjava.root=" + BenchPaths.root(),
                "-Dmedjava.bench.native.dir=" + BenchPaths.nativeDir()));
        args.addAll(jvm.jvmArgs());
        args.addAll(extraJvmArgs);
        return args;
    }

    private static TimeValue millis(double seconds) {
        return TimeValue.milliseconds(Math.round(seconds * 1000));
    }
}
