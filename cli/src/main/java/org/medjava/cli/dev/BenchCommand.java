package org.medjava.cli.dev;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code medjava bench ...}: the benchmarks' own command line (benchmarks.jar), in the caller's directory. */
@Command(name = "bench", description = {"Benchmarks and their report in benchmarks/target/report (full ~45 min).",
        "Arguments go to the benchmarks: [--quick|--standard|--full] [--out DIR], report DIR, publish DIR TARGET, "
                + "jmh ..., index-scale [--sizes a,b] [--explain], study-open [--runs N] (Chromium, the store against "
                + "Orthanc); ./medjava bench -- --help for theirs."})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Unmatched
    List<String> args = new ArrayList<>();

    /**
     * Whether the serve step (wrk, h2load, nginx, Orthanc) or the study-open benchmark (nginx, Orthanc) may run: not
     * --quick, report, publish, jmh or index-scale.
     */
    static boolean serves(List<String> args) {
        return !args.contains("--quick") && (args.isEmpty() || !List.of("report", "publish", "jmh", "index-scale")
                .contains(args.get(0)));
    }

    @Override
    public Integer call() {
        Context ctx = Context.of(spec);
        // the JAR, its JNI libraries, and the image store it benchmarks over HTTP
        for (String f : List.of("benchmarks/target/benchmarks.jar", "benchmarks/target/native/libmedjava_jni_native.so",
                "image-store/target/image-store.war")) {
            if (!Files.isRegularFile(ctx.root().resolve(f))) {
                Processes.build(ctx);
                break;
            }
        }
        if (serves(args) && !(onPath("wrk") && onPath("h2load") && Files.isExecutable(Path.of("/usr/sbin/nginx"))
                && Files.isExecutable(Path.of("/usr/sbin/Orthanc")))) {
            try {
                Processes.installDeps(ctx, "--test");
            } catch (CliException e) {
                ctx.err().println("bench: wrk, h2load, nginx or Orthanc could not be installed; the serve step will "
                        + "say what is missing");
            }
        }
        List<String> command = new ArrayList<>(List.of(Processes.java(), "-jar",
                ctx.root().resolve("benchmarks/target/benchmarks.jar").toString()));
        command.addAll(args.size() > 0 && args.get(0).equals("--") ? args.subList(1, args.size()) : args);
        return Processes.run(command, ctx.cwd(), Map.of());
    }

    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
                .anyMatch(d -> Files.isExecutable(Path.of(d, program)));
    }
}
