package org.medjava.cli.command;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Child processes of the command line: the JDK's java, the Maven wrapper, the bootstrap script. */
public final class Processes {
    private Processes() {
    }

    /** The java of the JDK this command line runs on. */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The checkout's Maven wrapper, batch mode, no transfer progress. */
    public static List<String> mvnw(Context ctx, String... args) {
        List<String> command = new ArrayList<>(List.of(ctx.root().resolve("mvnw").toString(), "-B", "-ntp"));
        command.addAll(List.of(args));
        return command;
    }

    /** bootstrap/install-deps.sh: what Maven cannot fetch (Debian packages, PixelMed); quick when all is there. */
    public static void installDeps(Context ctx, String... args) {
        List<String> command = new ArrayList<>(List.of(ctx.root().resolve("bootstrap/install-deps.sh").toString()));
        command.addAll(List.of(args));
        check(command, run(command, ctx.root(), Map.of()));
    }

    /** The build without tests, installed as the store, viewer and benchmarks expect it; for what is missing. */
    public static void build(Context ctx) {
        if (ctx.isSet("MEDJAVA_NO_BUILD")) {
            throw new CliException("what this command needs is not built in " + ctx.root()
                    + " and MEDJAVA_NO_BUILD is set: run ./medjava build first");
        }
        buildAll(ctx);
    }

    /** {@link #build}, also when MEDJAVA_NO_BUILD is set (./medjava build). */
    public static void buildAll(Context ctx) {
        installDeps(ctx);
        ctx.err().println("building (tests skipped)...");
        List<String> command = mvnw(ctx, "-q", "-DskipTests", "install");
        check(command, run(command, ctx.root(), Map.of()));
    }

    static void check(List<String> command, int status) {
        if (status != 0) {
            throw new CliException(Path.of(command.get(0)).getFileName() + " failed (exit status " + status
                    + "): its output above says why");
        }
    }

    /**
     * Runs a command in the foreground, sharing this terminal, and returns its exit status. On Ctrl-C the terminal
     * signals the child too: this JVM waits (at most two minutes) for it to finish stopping before it exits.
     */
    public static int run(List<String> command, Path dir, Map<String, String> env) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).inheritIO();
        builder.environment().putAll(env);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new CliException("cannot run " + command.get(0) + ": " + e.getMessage());
        }
        Thread waiter = new Thread(() -> {
            try {
                process.waitFor(2, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(waiter);
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroy();
            return 1;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(waiter);
            } catch (IllegalStateException shuttingDown) {
                // the hook is already running: it waits for the child
            }
        }
    }
}
