package org.medjava.bench.run;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the plan's JMH groups one after another, each into {@code raw/jmh-NN.json}; JMH's detailed output goes to
 * {@code raw/jmh.log}, the console gets a progress line per benchmark.
 */
final class JmhStep {
    private final Path rawDir;
    private final PrintStream console;

    JmhStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    /** @return the number of benchmarks that failed */
    int run(List<JmhGroup> groups) throws IOException, RunnerException {
        double planned = groups.stream().mapToDouble(CostModel::groupSeconds).sum();
        int total = groups.stream().mapToInt(JmhGroup::benchmarkCount).sum();
        console.printf(Locale.ROOT, "JMH: %d benchmarks in %d groups, planned ~%s%n", total, groups.size(),
                Progress.clock(planned));
        Progress progress = new Progress(total, planned);
        Path logFile = rawDir.resolve("jmh.log");
        try (PrintStream log = new PrintStream(new FileOutputStream(logFile.toFile(), true), true,
                StandardCharsets.UTF_8)) {
            int n = 0;
            for (JmhGroup group : groups) {
                n++;
                Path json = rawDir.resolve(String.format(Locale.ROOT, "jmh-%02d.json", n));
                progress.nextCost(CostModel.groupSeconds(group) / group.benchmarkCount());
                log.println("=== group " + n + ": " + group.name() + " (" + group.jvm().title() + ")");
                ProgressFormat format = new ProgressFormat(
                        OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL), console, progress);
                new Runner(group.options(json), format).run();
                if (!Files.exists(json)) {
                    console.println("  no results written for group " + group.name());
                }
            }
        }
        console.printf(Locale.ROOT, "JMH done in %s, %d failed%n", Progress.clock(progress.elapsed()),
                progress.failures());
        return progress.failures();
    }
}
