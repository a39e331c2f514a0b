package org.medjava.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import org.medjava.cli.store.StoreCommand;
import org.medjava.filter.UnsupportedDataException;
import org.medjava.filter.runtime.RegistryException;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * The {@code medjava} command line. Exit status: 0 done, 1 failed, 2 a usage error (and 3 where a command says:
 * {@code status} of a store not running). Errors are one line on stderr; {@code --verbose} adds the stack trace.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, Context.of(out, err));
    }

    public static int run(List<String> args, Context ctx) {
        boolean verbose = verbose(args);
        // the registry logs each load and unload at INFO: right for a server, noise for a command
        java.util.logging.Logger.getLogger("org.medjava").setLevel(
                verbose ? java.util.logging.Level.INFO : java.util.logging.Level.WARNING);
        return commandLine(ctx, verbose).execute(args.toArray(String[]::new));
    }

    static CommandLine commandLine(Context ctx, boolean verbose) {
        CommandLine cl = new CommandLine(new MedjavaCommand(ctx));
        // the quick start's words: ./medjava start, stop, status are the store's
        cl.addSubcommand("start", new StoreCommand.Start());
        cl.addSubcommand("stop", new StoreCommand.Stop());
        cl.addSubcommand("status", new StoreCommand.Status());
        CommandLine completion = new CommandLine(new AutoComplete.GenerateCompletion());
        completion.getCommandSpec().name("completion");
        completion.getCommandSpec().usageMessage().hidden(false)
                .description("a bash/zsh completion script: source <(./medjava completion)");
        cl.addSubcommand("completion", completion);
        cl.setOut(new PrintWriter(ctx.out(), true));
        cl.setErr(new PrintWriter(ctx.err(), true));
        cl.setParameterExceptionHandler((e, args) -> {
            ctx.err().println("error: " + e.getMessage() + "; see " + helpOf(e.getCommandLine()));
            return 2;
        });
        cl.setExecutionExceptionHandler((e, command, parseResult) -> failure(e, command, ctx.err(), verbose));
        return cl;
    }

    private static int failure(Exception e, CommandLine command, PrintStream err, boolean verbose) {
        int status;
        if (e instanceof CliException c) {
            err.println("error: " + c.getMessage());
            status = c.exitCode();
        } else if (e instanceof FilterCommand.UsageException) {
            err.println("error: " + e.getMessage() + "; see " + helpOf(command));
            status = 2;
        } else if (e instanceof IOException || e instanceof RegistryException || e instanceof UnsupportedDataException
                || e instanceof IllegalArgumentException) {
            err.println("error: " + e.getMessage());
            status = 1;
        } else {
            err.println("error: " + e + (verbose ? "" : " (unexpected: run again with --verbose for the stack trace)"));
            status = 1;
        }
        if (verbose) {
            e.printStackTrace(err);
        }
        return status;
    }

    static String helpOf(CommandLine command) {
        return "./" + command.getCommandSpec().qualifiedName() + " --help";
    }

    /** --verbose anywhere before a "--", or -Dmedjava.verbose=true (docs/configuration.md). */
    private static boolean verbose(List<String> args) {
        int end = args.indexOf("--");
        return (end < 0 ? args : args.subList(0, end)).contains("--verbose") || Boolean.getBoolean("medjava.verbose");
    }
}
