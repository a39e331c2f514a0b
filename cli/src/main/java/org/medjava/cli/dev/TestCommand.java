package org.medjava.cli.dev;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code medjava test}: the whole test suite, as CI runs it (.ci/run): the test set's tools, {@code ./mvnw verify}
 * (which replays the committed fuzz inputs), then one time-boxed round of real fuzzing (~4 min) unless the tests
 * are skipped or MEDJAVA_NO_FUZZ is set.
 */
@Command(name = "test", description = {"Run the whole test suite, as CI runs it (~30 min); extra arguments go to "
        + "Maven (e.g. -pl cli).", "Then one round of fuzzing (~4 min) unless -DskipTests or MEDJAVA_NO_FUZZ=1."})
public final class TestCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dry-run", description = "print the commands instead of running them")
    boolean dryRun;

    @Unmatched
    List<String> mavenArgs = new ArrayList<>();

    /** The commands, in order, each run in the checkout; the fuzz round only when the verify run passed. */
    public static List<List<String>> commands(Context ctx, List<String> mavenArgs) {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of(ctx.root().resolve("bootstrap/install-deps.sh").toString(), "--test"));
        List<String> verify = new ArrayList<>(Processes.mvnw(ctx, "verify"));
        verify.addAll(mavenArgs);
        commands.add(verify);
        if (mavenArgs.stream().noneMatch(a -> a.startsWith("-DskipTests")) && !ctx.isSet("MEDJAVA_NO_FUZZ")) {
            commands.add(FuzzCommand.round(ctx));
        }
        return commands;
    }

    @Override
    public Integer call() {
        Context ctx = Context.of(spec);
        List<List<String>> commands = commands(ctx, mavenArgs);
        if (dryRun) {
            commands.forEach(c -> ctx.out().println(String.join(" ", c)));
            return 0;
        }
        for (List<String> command : commands) {
            boolean fuzz = command.contains("-Dtest=*FuzzTest");
            int status = Processes.run(command, ctx.root(), fuzz ? FuzzCommand.ENV : Map.of());
            if (status != 0) {
                if (fuzz) {
                    FuzzCommand.reportFindings(ctx);
                }
                return status;
            }
        }
        return 0;
    }
}
