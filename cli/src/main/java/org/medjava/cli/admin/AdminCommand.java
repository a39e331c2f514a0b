package org.medjava.cli.admin;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import org.medjava.cli.store.StoreCommand;
import org.medjava.cli.store.StoreProbe;
import org.medjava.cli.store.StoreProcesses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code medjava admin reset-password|backup|restore}: the store's own administration tools (ResetPassword,
 * BackupTool, in the built WAR's classes) run with the data directory or URL this command line knows.
 */
@Command(name = "admin", description = "Administration: reset a password, back up, restore (docs/operations/).",
        subcommands = {AdminCommand.ResetPassword.class, AdminCommand.Backup.class, AdminCommand.Restore.class})
public final class AdminCommand {

    /** java -cp the WAR's classes and libraries MAIN args..., in the caller's directory; its exit status. */
    static int runTool(Context ctx, String main, List<String> args) {
        Path webInf = ctx.store().resolve("image-store/WEB-INF");
        List<String> command = new ArrayList<>(List.of(Processes.java(), "-cp",
                webInf.resolve("classes") + File.pathSeparator + webInf.resolve("lib") + File.separator + "*", main));
        command.addAll(args);
        return Processes.run(command, ctx.cwd(), Map.of());
    }

    @Command(name = "reset-password", description = "A new password for an account, with the store stopped.")
    public static final class ResetPassword implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "the account")
        String name;

        @Option(names = "--stdin", description = "read the new password from standard input (else one is generated)")
        boolean stdin;

        @Override
        public Integer call() {
            Context ctx = Context.of(spec);
            StoreCommand.prepare(ctx);
            Path data = ctx.storeData();
            OptionalLong pid = StoreProcesses.runningPid(data, ctx.err());
            if (!ctx.env("MEDJAVA_CLUSTER_ENABLED", "false").equals("true") && pid.isPresent()) {
                throw new CliException("the image store using " + data + " is running (pid " + pid.getAsLong()
                        + "): nothing was changed. Stop it first (./medjava stop), then run this again; or, while it "
                        + "runs, an administrator can set the password in the web console or with PUT "
                        + "/admin/users/NAME.", 3);
            }
            List<String> args = new ArrayList<>(List.of("--data", data.toString(), name));
            if (stdin) {
                args.add("--stdin");
            }
            return runTool(ctx, "org.medjava.store.server.admin.ResetPassword", args);
        }
    }

    static void ensureTools(Context ctx) {
        if (!Files.isDirectory(ctx.store().resolve("image-store/WEB-INF/lib"))) {
            Processes.build(ctx);
        }
    }

    @Command(name = "backup", description = {"One consistent snapshot of the objects and the index into DIR.",
            "A running store (on MEDJAVA_PORT) writes it on its own disk (the admin password from "
                    + "MEDJAVA_ADMIN_PASSWORD, or asked); a stopped store's data directory (MEDJAVA_DATA, or --data) "
                    + "is backed up offline."})
    public static final class Backup implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "DIR", description = "where the backup goes")
        String dir;

        @Option(names = "--data", paramLabel = "DATA_DIR", description = "back up this stopped store's data directory")
        String data;

        @Option(names = "--url", paramLabel = "URL", description = "back up the store running at URL")
        String url;

        @Option(names = "--user", paramLabel = "NAME", description = "the administrator (default MEDJAVA_ADMIN_USER, admin)")
        String user;

        @Override
        public Integer call() {
            Context ctx = Context.of(spec);
            return runTool(ctx, "org.medjava.store.core.backup.BackupTool", arguments(ctx));
        }

        List<String> arguments(Context ctx) {
            ensureTools(ctx);
            List<String> args = new ArrayList<>(List.of("backup", ctx.path(dir).toString()));
            if (data != null) {
                args.addAll(List.of("--data", ctx.path(data).toString()));
            } else if (url != null || StoreProbe.listening("127.0.0.1", ctx.port())) {
                args.addAll(List.of("--url", url != null ? url : "http://127.0.0.1:" + ctx.port() + "/", "--user",
                        user != null ? user : ctx.env("MEDJAVA_ADMIN_USER", "admin")));
            } else {
                args.addAll(List.of("--data", ctx.storeData().toString()));
            }
            return args;
        }
    }

    @Command(name = "restore", description = "Restore DIR into a stopped store's data directory (MEDJAVA_DATA by "
            + "default): a non-empty one only with --force, which moves its content aside.")
    public static final class Restore implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "DIR", description = "the backup")
        String dir;

        @Option(names = "--data", paramLabel = "DATA_DIR", description = "the data directory to restore into")
        String data;

        @Option(names = "--force", description = "restore into a non-empty data directory, its content moved aside")
        boolean force;

        @Override
        public Integer call() {
            Context ctx = Context.of(spec);
            return runTool(ctx, "org.medjava.store.core.backup.BackupTool", arguments(ctx));
        }

        List<String> arguments(Context ctx) {
            ensureTools(ctx);
            List<String> args = new ArrayList<>(List.of("restore", ctx.path(dir).toString(), "--data",
                    data != null ? ctx.path(data).toString() : ctx.storeData().toString()));
            if (force) {
                args.add("--force");
            }
            return args;
        }
    }
}
