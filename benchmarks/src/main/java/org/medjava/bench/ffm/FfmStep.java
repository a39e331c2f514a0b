package org.medjava.bench.ffm;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.setup.JvmColumn;
import org.medjava.bench.setup.Timing;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link NativeCallBenchmark}: on the JDK running the benchmarks (17) through JNI only, and on JDK 25 (when
 * installed) through JNI and FFM. Results go to {@code raw/ffm-NN.json} (apart from the filter benchmarks'
 * {@code jmh-*.json}), JMH's output to {@code raw/ffm-jmh.log}, the blur's byte-for-byte check to
 * {@code raw/ffm-check.csv}, and what was left out to {@code raw/ffm-notes.txt}.
 */
public final class FfmStep {
    public static final String CHECK = "ffm-check.csv";
    public static final String NOTES = "ffm-notes.txt";

    private final Path rawDir;
    private final PrintStream console;

    public FfmStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    /** @return the number of benchmarks that failed */
    public int run(CallPlan plan) throws IOException, RunnerException {
        List<String> notes = new ArrayList<>();
        List<JvmColumn> columns = new ArrayList<>(List.of(JvmColumn.JIT));
        if (JvmColumn.jdk25Installed()) {
            columns.add(JvmColumn.JDK25);
        } else {
            notes.add("JDK 25 not installed (" + JvmColumn.jdk25Home() + "): no FFM column, JNI on this JDK only");
        }
        if (!classCompiled("org/medjava/bench/ffm/FfmCalls.class")) {
            columns.remove(JvmColumn.JDK25);
            notes.add("FfmCalls was not compiled (the build found no JDK 25): no FFM column");
        }
        notes.forEach(n -> console.println("ffm: " + n));
        Path check = rawDir.resolve(CHECK);
        Files.write(check, List.of("op,size,jdk,result"));
        int failed = 0;
        int n = 0;
        try (PrintStream log = new PrintStream(new FileOutputStream(rawDir.resolve("ffm-jmh.log").toFile(), true),
                true, StandardCharsets.UTF_8)) {
            for (JvmColumn column : columns) {
                List<String> paths = column == JvmColumn.JDK25 ? List.of("jni", "ffm") : List.of("jni");
                console.printf(Locale.ROOT, "JNI vs FFM on %s: %s...%n", column.title(), String.join(", ", paths));
                failed += run(log, ++n, column, paths, "empty", List.of("0"), plan.timing(), plan.forks(), check);
                failed += run(log, ++n, column, paths, "pass(Copy|Pinned|OffHeap)", plan.passSizes(), plan.timing(),
                        plan.forks(), check);
                failed += run(log, ++n, column, paths, "blur", List.of(plan.blurSize()), plan.blurTiming(),
                        plan.forks(), check);
            }
        }
        Files.write(rawDir.resolve(NOTES), notes);
        return failed;
    }

    private int run(PrintStream log, int n, JvmColumn column, List<String> paths, String methods, List<String> sizes,
                    Timing timing, int forks, Path check) throws RunnerException {
        Path json = rawDir.resolve(String.format(Locale.ROOT, "ffm-%02d.json", n));
        List<String> jvmArgs = new ArrayList<>(List.of(
                "-D" + JvmColumn.PROPERTY + "=" + column.id(),
                "-Dmedjava.root=" + BenchPaths.root(),
                "-Dmedjava.bench.native.dir=" + BenchPaths.nativeDir(),
                "-D" + NativeCallBenchmark.CHECK_PROPERTY + "=" + check));
        if (column == JvmColumn.JDK25) {
            jvmArgs.add("--enable-native-access=ALL-UNNAMED"); // JNI's System.load and FFM's downcalls, no warning
        }
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include(NativeCallBenchmark.class.getName().replace(".", "\\.") + "\\.(" + methods + ")$")
                .param("path", paths.toArray(new String[0]))
                .param("size", sizes.toArray(new String[0]))
                .forks(forks)
                .warmupIterations(timing.warmupIterations())
                .warmupTime(TimeValue.milliseconds(Math.round(timing.warmupSeconds() * 1000)))
                .measurementIterations(timing.iterations())
                .measurementTime(TimeValue.milliseconds(Math.round(timing.seconds() * 1000)))
                .shouldFailOnError(false)
                .result(json.toString())
                .resultFormat(ResultFormatType.JSON)
                .jvmArgsAppend(jvmArgs.toArray(new String[0]));
        column.launcher().ifPresent(java -> b.jvm(java.toString()));
        log.println("=== JNI vs FFM " + n + ": " + methods + " on " + column.title());
        int expected = paths.size() * sizes.size() * (methods.startsWith("pass") ? 3 : 1);
        int got = new Runner(b.build(), OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL)).run()
                .size();
        if (got < expected) {
            console.printf(Locale.ROOT, "  %d of %d %s benchmarks on %s failed; see raw/ffm-jmh.log%n",
                    expected - got, expected, methods, column.title());
        }
        return expected - got;
    }

    private static boolean classCompiled(String resource) {
        return FfmStep.class.getClassLoader().getResource(resource) != null;
    }
}
