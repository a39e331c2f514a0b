package org.medjava.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Collection;
import java.util.Locale;
import org.medjava.bench.setup.JvmColumn;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;

/**
 * JMH's own output goes to a log file (the delegate); the console gets one line per benchmark with its score,
 * the overall count and an estimate of the time left, and every line of JMH output that reports an error.
 */
final class ProgressFormat implements OutputFormat {
    private final OutputFormat log;
    private final PrintStream console;
    private final Progress progress;

    ProgressFormat(OutputFormat log, PrintStream console, Progress progress) {
        this.log = log;
        this.console = console;
        this.progress = progress;
    }

    @Override
    public void startBenchmark(BenchmarkParams params) {
        log.startBenchmark(params);
        console.print(progress.startLine(describe(params)));
        console.flush();
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        log.endBenchmark(result);
        if (result == null || result.getPrimaryResult() == null) {
            console.println("FAILED (see the JMH log)");
            progress.failed();
        } else {
            Result<?> r = result.getPrimaryResult();
            console.println(String.format(Locale.ROOT, "%10.3f %s", r.getScore(), r.getScoreUnit()));
        }
        progress.done();
    }

    static String describe(BenchmarkParams p) {
        String size = p.getParam("size");
        String filter = p.getParam("filter");
        String impl = p.getParam("impl");
        String jvm = "";
        for (Object arg : p.getJvmArgs()) {
            String a = String.valueOf(arg);
            if (a.startsWith("-D" + JvmColumn.PROPERTY + "=") && !a.endsWith("=" + JvmColumn.JIT.id())) {
                jvm = "@" + a.substring(a.indexOf('=') + 1);
            }
        }
        return filter == null ? size + " copy" : size + " " + filter + " " + impl + jvm;
    }

    @Override
    public void println(String s) {
        log.println(s);
        if (s != null && (s.contains("ERROR") || s.contains("Exception") || s.contains("failed"))) {
            console.println();
            console.println("  jmh: " + s);
        }
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        log.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
                                IterationResult data) {
        log.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void startRun() {
        log.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        log.endRun(result);
    }

    @Override
    public void print(String s) {
        log.print(s);
    }

    @Override
    public void flush() {
        log.flush();
        console.flush();
    }

    @Override
    public void close() {
        log.close();
    }

    @Override
    public void verbosePrintln(String s) {
        log.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        log.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        log.write(b);
    }
}
