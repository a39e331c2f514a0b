package org.medjava.bench.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.medjava.bench.jni.CBuild;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.variant.Impl;

/**
 * The pure-C column: c-reference's {@code bench_harness} at {@code -O2} and at {@code -O3 -march=native} (no JVM),
 * and right after each case the same C function through JNI with the same timing loop ({@link JniHarness}), so
 * the report can show what the bridge costs under the same machine conditions. Optimized ports at every size,
 * straightforward ones up to 1024² (a run of those takes seconds at 4096²; a per-call cost would not show
 * anyway). Writes {@code raw/c-harness.csv}.
 */
final class CHarnessStep {
    static final String HEADER = "via,build,filter,width,height,impl,runs,mean_ms,min_ms";
    private static final long STRAIGHTFORWARD_MAX_PIXELS = 1024 * 1024;

    private final Path rawDir;
    private final PrintStream console;

    CHarnessStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    void run(RunPlan.HarnessPlan plan) throws IOException {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        for (CBuild build : CBuild.values()) {
            Path exe = BenchPaths.requireFile(BenchPaths.cReference()
                            .resolve(build == CBuild.O2 ? "build" : "build-native").resolve("bench_harness"),
                    "build the benchmarks module (its make builds c-reference's harness at both levels)");
            console.printf(Locale.ROOT, "pure C and JNI (%s), paired: %s, %d filters...%n", build.label(),
                    String.join(" ", plan.sizes()), plan.filters().size());
            Process c = new ProcessBuilder(exe.toString(), "--stdin", "--warmup",
                    Double.toString(plan.warmupSeconds()), "--time", Double.toString(plan.seconds()), "--label",
                    build.label()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (PrintWriter cases = new PrintWriter(c.getOutputStream(), true, StandardCharsets.US_ASCII);
                 BufferedReader answers = new BufferedReader(new InputStreamReader(c.getInputStream(),
                         StandardCharsets.US_ASCII))) {
                for (String size : plan.sizes()) {
                    ImageSize s = ImageSize.parse(size);
                    for (String filter : plan.filters()) {
                        for (boolean optimized : new boolean[] {false, true}) {
                            if (!optimized && s.pixels() > STRAIGHTFORWARD_MAX_PIXELS) {
                                continue;
                            }
                            cases.println(size + " " + filter + " " + (optimized ? "optimized" : "straightforward"));
                            String line = answers.readLine();
                            if (line == null) {
                                throw new IOException(exe + " ended before answering " + size + " " + filter);
                            }
                            lines.add("c," + line);
                            Impl impl = Impl.parse("c-" + (optimized ? "optimized" : "straightforward") + "-"
                                    + build.label());
                            lines.add("jni," + JniHarness.time(impl, filter, s, plan.warmupSeconds(),
                                    plan.seconds()));
                        }
                    }
                }
            } finally {
                try {
                    if (!c.waitFor(60, TimeUnit.SECONDS)) {
                        c.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    c.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        }
        Files.write(rawDir.resolve("c-harness.csv"), lines);
    }
}
