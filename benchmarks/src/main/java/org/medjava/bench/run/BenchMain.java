package org.medjava.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.medjava.bench.environment.EnvironmentStep;
import org.medjava.bench.ipc.BlocksPlan;
import org.medjava.bench.ipc.BlocksStep;
import org.medjava.bench.ipc.IpcPlan;
import org.medjava.bench.ipc.IpcStep;
import org.medjava.bench.report.ReportGenerator;
import org.medjava.bench.report.ReportPublisher;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.variant.JavaFilters;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

/**
 * {@code java -jar benchmarks.jar} — the whole benchmark run and its report:
 * <pre>
 *   [--quick]                 a smoke test: one small size, short iterations (~1 min): proves the pipeline
 *   [--standard]              every filter at 512², 1024², 4096²: Java optimized/parallel (JDK 17 and 25), C, OpenCV,
 *                             the store (~10 min; issue 20's experiments are left to the full run)
 *   [--full]                  the paper's complete figures (default, ~45 min)
 *   [--out DIR]               default benchmarks/target/report (raw results in DIR/raw)
 *   [--sizes 256,4096,WxH]    [--filters blur,emboss]   narrow the full run
 *   [--data rgb8|gray16|all]  the 8-bit RGB benchmarks, the 16-bit grey ones, or both (default)
 *   [--skip jmh,c,transport,store]
 *   [--skip serve]            issue 30: the store's reads against nginx and Orthanc, HTTP/2, overload (~8 min
 *                             standard, ~20 full)
 *   [--skip ingest]           issue 21: the store's C-STORE and STOW-RS against Orthanc (~2 min standard, ~5 full)
 *   [--skip codec]            issue 34: HTJ2K against JPEG 2000, encode + decode of a 512² CT frame (~2 min)
 *   [--skip ipc,blocks]       issue 20's same-host IPC and transport building blocks (~1 min quick, ~15 min full)
 *   report DIR                only regenerate the report from DIR/raw
 *   index-scale [--sizes a,b] [--explain] [--out DIR]
 *                             issue 32: QIDO/C-FIND query latency and ingest rate at 10k, 100k and 1M instances on
 *                             PostgreSQL ({@link org.medjava.bench.index.IndexScale}; the 1M point takes an hour)
 *   study-open [--runs 5] [--profiles loopback,throttled] [--viewers web,ohif] [--servers store,orthanc] [--out DIR]
 *             [--studies ct,ct-j2k,ct-htj2k,us,mr]
 *                             issue 34: opening studies in Chromium with the store's web viewer and OHIF, against
 *                             the store and Orthanc ({@link org.medjava.bench.open.StudyOpen}; ~2 h)
 *   jmh [JMH options]         plain JMH (org.openjdk.jmh.Main) over FilterBenchmark and CopyBaseline, or over
 *                             the benchmarks a regexp names (jmh StoragePutBenchmark: the storage PUT benchmark)
 * </pre>
 * Steps that fail are recorded in {@code raw/problems.txt}, shown in the report, and make the exit code 1.
 */
public final class BenchMain {
    private final PrintStream console = System.out;
    private final List<String> problems = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("jmh")) {
            org.openjdk.jmh.Main.main(jmhArgs(Arrays.copyOfRange(args, 1, args.length)));
            return;
        }
        if (args.length > 0 && args[0].equals("index-scale")) {
            org.medjava.bench.index.IndexScale.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("study-open")) {
            org.medjava.bench.open.StudyOpen.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("report")) {
            Path out = Paths.get(args.length > 1 ? args[1] : defaultOut().toString());
            ReportGenerator.generate(out);
            System.out.println("report: " + out.resolve("index.html"));
            return;
        }
        if (args.length > 0 && args[0].equals("publish")) { // publish [REPORT_DIR [TARGET_DIR]]
            Path report = Paths.get(args.length > 1 ? args[1] : defaultOut().toString());
            Path target = args.length > 2 ? Paths.get(args[2]) : BenchPaths.root().resolve("docs/reference-report");
            try {
                List<Path> written = ReportPublisher.publish(report, target);
                System.out.println("published " + written.size() + " files of " + report + " into " + target);
            } catch (IOException e) {
                System.err.println("bench publish: " + e.getMessage());
                System.exit(1);
            }
            return;
        }
        try {
            System.exit(new BenchMain().run(Options.parse(args)));
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage());
            System.err.println("usage: bench [--quick|--standard|--full] [--out DIR] [--sizes a,b] [--filters a,b] [--data rgb8|gray16|all] "
                    + "[--skip jmh,c,transport,store,serve,ingest,codec] | report [DIR] | publish [DIR [TARGET]] | jmh [JMH options]"
                    + " | index-scale [--sizes a,b] [--explain] [--out DIR]"
                    + " | study-open [--runs N] [--profiles a,b] [--viewers a,b] [--servers a,b] [--out DIR]");
            System.exit(2);
        }
    }

    /** What plain {@code jmh} runs when no regexp names benchmarks: the filter benchmarks, as it always has. */
    static final String DEFAULT_JMH_INCLUDE = "org\\.medjava\\.bench\\.(FilterBenchmark|CopyBaseline)\\.";

    /**
     * JMH's arguments, plus {@link #DEFAULT_JMH_INCLUDE} when they name no benchmark: StoragePutBenchmark (an
     * S3Proxy process, minutes) then stays out, and {@code -p size=1024} does not reach its {@code size} parameter.
     * Forks get the Vector API module ({@link #VECTOR_MODULE}) as the standard and full runs give it, unless the
     * arguments set {@code -jvmArgsPrepend} themselves: without it the optimized filters fall back to their scalar
     * kernels and a hand-run JMH measures other code than the report. Arguments JMH cannot parse go through as they
     * are, for JMH to explain.
     */
    static String[] jmhArgs(String[] args) {
        CommandLineOptions parsed;
        try {
            parsed = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            return args;
        }
        List<String> out = new ArrayList<>(Arrays.asList(args));
        if (!parsed.getJvmArgsPrepend().hasValue()) {
            out.add(0, "-jvmArgsPrepend");
            out.add(1, VECTOR_MODULE);
        }
        if (parsed.getIncludes().isEmpty()) {
            out.add(DEFAULT_JMH_INCLUDE);
        }
        return out.toArray(new String[0]);
    }

    /**
     * What the JIT columns of the standard and full runs add to every fork
     * ({@link org.medjava.bench.setup.JvmColumn}).
     */
    static final String VECTOR_MODULE = "--add-modules=jdk.incubator.vector";

    static Path defaultOut() {
        return BenchPaths.root().resolve("benchmarks/target/report");
    }

    /** Command-line choices. */
    record Options(String mode, Path out, List<String> sizes, List<String> filters, List<String> skip,
                   RunPlan.Data data) {
        /** Issue 20's experiments (ipc, blocks, zmq, ffm): the full run measures them, a quick run smoke-tests them. */
        static final List<String> EXPERIMENTS = List.of("ipc", "blocks", "zmq", "ffm");

        boolean quick() {
            return mode.equals("quick");
        }

        static Options parse(String[] args) {
            String mode = "full";
            Path out = defaultOut();
            List<String> sizes = RunPlan.FULL_SIZES;
            List<String> filters = JavaFilters.ids();
            List<String> skip = List.of();
            RunPlan.Data data = RunPlan.Data.ALL;
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (a.equals("--quick") || a.equals("--standard") || a.equals("--full")) {
                    mode = a.substring(2);
                } else if (i + 1 < args.length && a.equals("--out")) {
                    out = Paths.get(args[++i]);
                } else if (i + 1 < args.length && a.equals("--sizes")) {
                    sizes = List.of(args[++i].split(","));
                    sizes.forEach(org.medjava.bench.setup.ImageSize::parse);
                } else if (i + 1 < args.length && a.equals("--filters")) {
                    filters = List.of(args[++i].split(","));
                    filters.forEach(JavaFilters::get);
                } else if (i + 1 < args.length && a.equals("--data")) {
                    data = RunPlan.Data.parse(args[++i]);
                } else if (i + 1 < args.length && a.equals("--skip")) {
                    skip = List.of(args[++i].split(","));
                } else {
                    throw new IllegalArgumentException("unknown argument " + a);
                }
            }
            if (mode.equals("standard")) { // ten minutes: the filter targets and the store, not the experiments
                List<String> more = new ArrayList<>(skip);
                EXPERIMENTS.stream().filter(e -> !more.contains(e)).forEach(more::add);
                skip = List.copyOf(more);
            }
            return new Options(mode, out.toAbsolutePath(), sizes, filters, skip, data);
        }
    }

    int run(Options options) throws IOException {
        RunPlan plan = options.quick() ? RunPlan.quick()
                : options.mode().equals("standard") ? RunPlan.standard(options.filters(), !options.skip().contains("store"))
                : RunPlan.full(options.sizes(), options.filters(), !options.skip().contains("store"), options.data());
        Path raw = options.out().resolve(ReportGenerator.RAW);
        clean(options.out());
        Files.createDirectories(raw);
        long start = System.nanoTime();
        console.printf(Locale.ROOT, "MedJava benchmarks, %s run: %d JMH benchmarks; results in %s%n", plan.mode(),
                plan.benchmarkCount(), options.out());
        Map<String, String> env = EnvironmentStep.collect(plan.mode());
        env.put("load.rule", plan.mode().equals("standard") ? LoadGuard.RULE : "recorded per cell, no retries");
        EnvironmentStep.write(raw.resolve("environment.properties"), env);

        step("jmh", options, () -> {
            // the standard run holds its cells to the load rule; the others record the load only
            int failed = new JmhStep(raw, console, LoadGuard.system(plan.mode().equals("standard")))
                    .run(plan.groups());
            if (failed > 0) {
                problems.add(failed + " JMH benchmark(s) failed; see raw/jmh.log");
            }
        });
        step("c", options, () -> new CHarnessStep(raw, console).run(plan.harness()));
        step("transport", options, () -> new TransportStep(raw, console).run(plan.transport()));
        // issue 20, experiments 1 and 3: same-host IPC, and the user-level transport's building blocks
        step("ipc", options, () -> new IpcStep(raw, console).run(options.quick() ? IpcPlan.quick() : IpcPlan.full()));
        step("blocks", options, () -> new BlocksStep(raw, console)
                .run(options.quick() ? BlocksPlan.quick() : BlocksPlan.full()));
        step("zmq", options, () -> new org.medjava.bench.zmq.ZmqStep(raw, console).run(plan.zmq()));
        step("ffm", options, () -> {
            int failed = new org.medjava.bench.ffm.FfmStep(raw, console).run(plan.ffm());
            if (failed > 0) {
                problems.add(failed + " JNI-vs-FFM benchmark(s) failed; see raw/ffm-jmh.log");
            }
        });
        // issue 34: HTJ2K against JPEG 2000, encode + decode of a CT frame
        step("codec", options, () -> {
            int failed = new org.medjava.bench.codec.CodecStep(raw, console).run(plan.codec());
            if (failed > 0) {
                problems.add(failed + " codec benchmark(s) failed; see raw/codec-jmh.log");
            }
        });
        if (plan.store().enabled()) {
            step("store", options, () -> new StoreStep(raw, console).run(plan.store()));
        }
        // issue 30: the store's read path against nginx and Orthanc, in the same run
        if (plan.serve().isPresent()) {
            step("serve", options, () -> new org.medjava.bench.serve.ServeStep(raw, console).run(plan.serve().get()));
        } else if (!options.skip().contains("serve")) {
            org.medjava.bench.serve.ServeStep.skipQuick(raw, console);
        }
        // issue 21: the store's C-STORE and STOW-RS ingest against Orthanc's, in the same run
        if (plan.ingest().isPresent()) {
            step("ingest", options, () -> new org.medjava.bench.ingest.IngestStep(raw, console)
                    .run(plan.ingest().get()));
        } else if (!options.skip().contains("ingest")) {
            org.medjava.bench.ingest.IngestStep.skipQuick(raw, console);
        }

        env.put("load.end", EnvironmentStep.loadAverage());
        env.put("duration", Progress.clock((System.nanoTime() - start) / 1e9));
        EnvironmentStep.write(raw.resolve("environment.properties"), env);
        Files.write(raw.resolve("problems.txt"), problems);
        ReportGenerator.generate(options.out());
        console.printf(Locale.ROOT, "done in %s: %s%n", env.get("duration"), options.out().resolve("index.html"));
        if (plan.smokeTest()) {
            console.println("a smoke test: its times are not measurements (./medjava bench --standard measures)");
        }
        problems.forEach(p -> console.println("problem: " + p));
        return problems.isEmpty() ? 0 : 1;
    }

    private interface Step {
        void run() throws Exception;
    }

    private void step(String name, Options options, Step step) {
        if (options.skip().contains(name)) {
            console.println(name + ": skipped (" + (options.mode().equals("standard")
                    && Options.EXPERIMENTS.contains(name) ? "the full run measures it" : "--skip") + ")");
            return;
        }
        try {
            step.run();
        } catch (Exception e) {
            problems.add(name + " step failed: " + e);
            console.println(name + " step failed: " + e);
        }
    }

    /** Removes the previous report's files (only the ones this tool writes). */
    private static void clean(Path out) throws IOException {
        for (String name : List.of("index.html", "summary.md", "results.csv", "jmh-results.json")) {
            Files.deleteIfExists(out.resolve(name));
        }
        for (String dir : List.of("charts", ReportGenerator.RAW)) {
            Path d = out.resolve(dir);
            if (Files.isDirectory(d)) {
                try (var files = Files.list(d)) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        Files.deleteIfExists(f);
                    }
                }
            }
        }
    }
}
