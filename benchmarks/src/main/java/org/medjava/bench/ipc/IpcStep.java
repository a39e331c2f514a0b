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
 * Experiment 1 of issue 20: same-host IPC, C ({@code target/native/ipc}) and Java ({@link JavaIpc}), each fork a
 * fresh client/server pair; C and Java alternate fork by fork (the machine may be shared: a load change then hits
 * both). Writes {@code raw/ipc.csv}: {@value #HEADER}.
 */
public final class IpcStep {
    public static final String HEADER = "lang,mechanism,pattern,size,fork,run,messages,seconds";

    private final Path rawDir;
    private final PrintStream console;

    public IpcStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    public void run(IpcPlan plan) throws IOException {
        Path exe = BenchPaths.requireFile(BenchPaths.nativeDir().resolve("ipc"),
                "build the benchmarks module (mvn -pl benchmarks -am package)");
        Path dir = Files.createTempDirectory("medjava-ipc");
        List<String> lines = new ArrayList<>(List.of(HEADER));
        String loadStart = ChildProcess.load();
        console.printf(Locale.ROOT, "same-host IPC: %s × %s × %d sizes, %d fork(s) × %d runs, C and Java%s...%n",
                String.join("/", plan.mechanisms()), String.join("/", plan.patterns()), plan.sizes().size(),
                plan.forks(), plan.runs(), plan.pin() ? ", client on CPU 0, server on CPU 1" : "");
        try {
            for (int fork = 0; fork < plan.forks(); fork++) {
                List<String> c = new ArrayList<>(List.of(exe.toString()));
                c.addAll(plan.arguments());
                c.addAll(List.of("--fork", Integer.toString(fork), "--dir", dir.toString()));
                List<String> java = new ArrayList<>(List.of(ChildProcess.java().toString(), "-Xmx512m", "-cp",
                        ChildProcess.classpath(), JavaIpc.class.getName()));
                java.addAll(plan.arguments());
                java.addAll(List.of("--fork", Integer.toString(fork), "--dir", dir.toString()));
                // C pins its own processes (sched_setaffinity); the Java client JVM is started on CPU 0
                List<List<String>> both = List.of(c, Pinning.on(plan.pin(), 0, java));
                for (int k = 0; k < 2; k++) {
                    List<String> command = both.get((k + fork) % 2);
                    for (String line : ChildProcess.lines(command, plan.timeoutSeconds())) {
                        if (line.split(",").length != 8) {
                            throw new IOException("unexpected IPC harness line: " + line);
                        }
                        lines.add(line);
                    }
                }
            }
        } finally {
            try (var left = Files.list(dir)) {
                for (Path p : (Iterable<Path>) left::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
        Files.write(rawDir.resolve("ipc.csv"), lines);
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        settings.put("pin", Boolean.toString(plan.pin()));
        settings.put("forks", Integer.toString(plan.forks()));
        settings.put("warmup", Integer.toString(plan.warmup()));
        settings.put("runs", Integer.toString(plan.runs()));
        settings.put("budget", Long.toString(plan.budgetBytes()));
        settings.put("min", Long.toString(plan.minMessages()));
        settings.put("max", Long.toString(plan.maxMessages()));
        settings.put("load.start", loadStart);
        settings.put("load.end", ChildProcess.load());
        ChildProcess.writeProperties(rawDir.resolve("ipc.properties"), settings);
    }
}
