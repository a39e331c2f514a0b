package org.medjava.cli;

import java.util.concurrent.Callable;
import org.medjava.cli.admin.AdminCommand;
import org.medjava.cli.command.Context;
import org.medjava.cli.dev.BenchCommand;
import org.medjava.cli.dev.BuildCommand;
import org.medjava.cli.dev.ClusterCommand;
import org.medjava.cli.dev.FuzzCommand;
import org.medjava.cli.dev.GoldenCommand;
import org.medjava.cli.dev.TestCommand;
import org.medjava.cli.store.StoreCommand;
import org.medjava.cli.store.ViewerCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** {@code medjava}: the root command. Subcommands reach the {@link Context} through {@link Context#of(CommandSpec)}. */
@Command(name = "medjava", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        versionProvider = MedjavaCommand.Version.class, usageHelpAutoWidth = true,
        description = "MedJava: the image store, its administration, the filters, the viewer, tests and benchmarks.",
        footer = {"", "Quick start: ./medjava start (the store; Ctrl-C stops it), ./medjava test (the whole suite)."},
        subcommands = {StoreCommand.class, AdminCommand.class, ClusterCommand.class, ViewerCommand.class,
                FilterCommand.class, FiltersCommand.class, DemoCommand.class, BuildCommand.class, TestCommand.class,
                FuzzCommand.class, GoldenCommand.class, BenchCommand.class})
public final class MedjavaCommand implements Callable<Integer>, Context.Holder {
    private final Context context;

    @Spec
    CommandSpec spec;

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "log more, and print the stack trace of an error")
    boolean verbose;

    MedjavaCommand(Context context) {
        this.context = context;
    }

    @Override
    public Context context() {
        return context;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(context.out());
        return 0;
    }

    /** The version of this build, from the JAR's manifest. */
    static final class Version implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"medjava " + (version == null ? "(development build)" : version)};
        }
    }
}
