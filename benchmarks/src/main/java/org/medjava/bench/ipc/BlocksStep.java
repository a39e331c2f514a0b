package org.medjava.bench.ipc;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.medjava.bench.setup.BenchPaths;

/**
 * Experiment 3 of issue 20: the transport's building blocks in four columns, C {@code -O2}, C
 * {@code -O3 -march=native}, Java JIT and Java {@code -Xint} (the 1999 interpreter's stand-in), each fork a fresh
 * process, the columns rotated fork by fork. Writes {@code raw/blocks.csv}: {@value #HEADER}.
 */
public final class BlocksStep {
    public static final String HEADER = "impl,block,fork,run,seconds,lost";

    private final Path rawDir;
    private final PrintStream console;

    public BlocksStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    public void run(BlocksPlan plan) throws IOException {
        String hint = "build the benchmarks module (mvn -pl benchmarks -am package)";
        Path o2 = BenchPaths.requireFile(BenchPaths.nativeDir().resolve("blocks-O2"), hint);
        Path nat = BenchPaths.requireFile(BenchPaths.nativeDir().resolve("blocks-native"), hint);
        console.printf(Locale.ROOT, "transport building blocks: C -O2, C native, Java JIT, Java -Xint; %d fork(s) × "
                + "%d runs, %,d datagrams...%n", plan.forks(), plan.runs(), plan.datagrams());
        List<String> lines = new ArrayList<>(List.of(HEADER));
        String loadStart = ChildProcess.load();
        for (int fork = 0; fork < plan.forks(); fork++) {
            List<String> common = List.of("--fork", Integer.toString(fork), "--warmup-seconds",
                    Double.toString(plan.warmupSeconds()), "--runs", Integer.toString(plan.runs()), "--datagrams",
                    Integer.toString(plan.datagrams()), "--timeout", Integer.toString(plan.timeoutSeconds()));
            List<List<String>> columns = List.of(
                    with(List.of(o2.toString(), "--label", "O2"), common),
                    with(List.of(nat.toString(), "--label", "native"), common),
                    with(List.of(ChildProcess.java().toString(), "-cp", ChildProcess.classpath(),
                            JavaBlocks.class.getName(), "--label", "jit"), common),
                    with(List.of(ChildProcess.java().toString(), "-Xint", "-cp", ChildProcess.classpath(),
                            JavaBlocks.class.getName(), "--label", "xint"), common));
            for (int k = 0; k < columns.size(); k++) {
                for (String line : ChildProcess.lines(columns.get((k + fork) % columns.size()),
                        plan.timeoutSeconds())) {
                    if (line.split(",").length != 6) {
                        throw new IOException("unexpected building-block line: " + line);
                    }
                    lines.add(line);
                }
            }
        }
        Files.write(rawDir.resolve("blocks.csv"), lines);
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        settings.put("forks", Integer.toString(plan.forks()));
        settings.put("runs", Integer.toString(plan.runs()));
        settings.put("warmup.seconds", Double.toString(plan.warmupSeconds()));
        settings.put("datagrams", Integer.toString(plan.datagrams()));
        settings.put("load.start", loadStart);
        settings.put("load.end", ChildProcess.load());
        ChildProcess.writeProperties(rawDir.resolve("blocks.properties"), settings);
    }

    private static List<String> with(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
