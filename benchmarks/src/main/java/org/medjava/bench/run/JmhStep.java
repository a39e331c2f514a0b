package org.medjava.bench.run;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.medjava.bench.report.JmhResults;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the plan's JMH groups one after another — in the standard run cell by cell (one benchmark each) — each into
 * {@code raw/jmh-NN-MMM.json} with the machine's load around it added to its result ({@code medjava.load}, see
 * {@link LoadGuard}; the standard run retries a cell measured on a busy machine). JMH's detailed output goes to
 * {@code raw/jmh.log}, the console gets a progress line per benchmark.
 */
final class JmhStep {
    private final Path rawDir;
    private final PrintStream console;
    private final LoadGuard guard;

    JmhStep(Path rawDir, PrintStream console, LoadGuard guard) {
        this.rawDir = rawDir;
        this.console = console;
        this.guard = guard;
    }

    /** @return the number of benchmarks that failed */
    int run(List<JmhGroup> groups) throws Exception {
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
                progress.nextCost(CostModel.groupSeconds(group) / group.benchmarkCount());
                log.println("=== group " + n + ": " + group.name() + " (" + group.jvm().title() + ")");
                int m = 0;
                // cell by cell where a busy cell is retried alone; else the group in one JMH run (the quick run's
                // minute), its load recorded around the whole group
                for (JmhGroup cell : guard.retries() ? group.cells() : List.of(group)) {
                    Path json = rawDir.resolve(String.format(Locale.ROOT, "jmh-%02d-%03d.json", n, ++m));
                    LoadGuard.Outcome<Boolean> outcome = guard.run(() -> {
                        Files.deleteIfExists(json); // a discarded attempt's result must not survive
                        ProgressFormat format = new ProgressFormat(
                                OutputFormatFactory.createFormatInstance(log, VerboseMode.NORMAL), console, progress);
                        new Runner(cell.options(json), format).run();
                        return Files.exists(json);
                    });
                    if (outcome.result()) {
                        annotate(json, outcome);
                    } else {
                        console.println("  no results written for " + cell.name());
                    }
                    if (outcome.attempts() > 1 || outcome.loaded()) {
                        console.printf(Locale.ROOT, "  %s: %d attempts, others' CPU %.2f per core%s%n", cell.name(),
                                outcome.attempts(), outcome.othersDuring(), outcome.loaded() ? " (loaded)" : "");
                        log.printf(Locale.ROOT, "load guard: %s: %d attempts, others %.2f per core at start, %.2f "
                                + "during%s%n", cell.name(), outcome.attempts(), outcome.othersAtStart(),
                                outcome.othersDuring(), outcome.loaded() ? ", kept as loaded" : "");
                    }
                }
            }
        }
        console.printf(Locale.ROOT, "JMH done in %s, %d failed%n", Progress.clock(progress.elapsed()),
                progress.failures());
        return progress.failures();
    }

    /** Adds the cell's load readings to each result in its JSON file (JMH's own members stay as they are). */
    static void annotate(Path json, LoadGuard.Outcome<?> outcome) throws IOException {
        JsonArray results = JsonParser.parseString(Files.readString(json)).getAsJsonArray();
        for (JsonElement result : results) {
            JsonObject load = new JsonObject();
            load.addProperty("load1Before", outcome.load1Before());
            load.addProperty("load1After", outcome.load1After());
            load.addProperty("othersAtStart", Double.isNaN(outcome.othersAtStart()) ? null : outcome.othersAtStart());
            load.addProperty("othersDuring", outcome.othersDuring());
            load.addProperty("attempts", outcome.attempts());
            load.addProperty("loaded", outcome.loaded());
            result.getAsJsonObject().add(JmhResults.LOAD, load);
        }
        Files.writeString(json, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create()
                .toJson(results));
    }
}
