package org.medjava.cli.dev;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code medjava golden regenerate}: rewrites testdata/ on purpose (Java writes, the C reference must agree). */
@Command(name = "golden", description = "The golden test data.", subcommands = GoldenCommand.Regenerate.class)
public final class GoldenCommand {
    @Command(name = "regenerate", description = "Rewrite testdata/ on purpose (Java writes, C must agree).")
    public static final class Regenerate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        static List<List<String>> commands(Context ctx) {
            return List.of(List.of(ctx.root().resolve("bootstrap/install-deps.sh").toString(), "--test"),
                    Processes.mvnw(ctx, "-q", "-DskipTests", "install"),
                    Processes.mvnw(ctx, "-q", "-pl", "testdata", "exec:java", "-Dexec.classpathScope=test",
                            "-Dexec.mainClass=org.medjava.testdata.RegenerateGolden", "-Dmedjava.root=" + ctx.root()));
        }

        @Override
        public Integer call() {
            Context ctx = Context.of(spec);
            for (List<String> command : commands(ctx)) {
                int status = Processes.run(command, ctx.root(), Map.of());
                if (status != 0) {
                    return status;
                }
            }
            return 0;
        }
    }
}
