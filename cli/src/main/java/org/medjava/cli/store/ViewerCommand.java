package org.medjava.cli.store;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code medjava viewer}: the radiologist's viewer (Swing), its bundled plugins from viewer/target/viewer/plugins,
 * the store's downloaded at run time. Without --server it uses the store on MEDJAVA_PORT, starting one for the
 * session when none runs. With the store's commands, as each starts the other: {@code start} opens the viewer beside
 * the store, and the viewer, finding none with {@link StoreProbe}, starts one.
 */
@Command(name = "viewer", description = {"The radiologist's viewer (starts a store first when none is running).",
        "Arguments go to the viewer: [--server URL] [--user NAME] [--benchmark] ..."})
public final class ViewerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Unmatched
    List<String> args = new ArrayList<>();

    static Path target(Context ctx) {
        return ctx.root().resolve("viewer/target");
    }

    private static Optional<Path> jar(Context ctx) {
        try (var files = Files.list(target(ctx))) {
            return files.filter(p -> p.getFileName().toString().matches("medjava-viewer-.*\\.jar")).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static boolean built(Context ctx) {
        Path viewer = target(ctx).resolve("viewer");
        try (var plugins = Files.list(viewer.resolve("plugins"))) {
            return jar(ctx).isPresent() && Files.isDirectory(viewer.resolve("lib"))
                    && plugins.filter(p -> p.toString().endsWith(".jar")).count() >= 8;
        } catch (IOException e) {
            return false;
        }
    }

    static List<String> command(Context ctx, List<String> args) {
        Path viewer = target(ctx).resolve("viewer");
        List<String> command = new ArrayList<>(List.of(Processes.java()));
        String opts = ctx.env("MEDJAVA_VIEWER_JAVA_OPTS", "").trim();
        if (!opts.isEmpty()) {
            command.addAll(List.of(opts.split("\\s+")));
        }
        command.addAll(List.of("-Dmedjava.plugins=" + viewer.resolve("plugins"), "-cp",
                jar(ctx).orElseThrow() + File.pathSeparator + viewer.resolve("lib") + File.separator + "*",
                "org.medjava.viewer.ViewerMain"));
        command.addAll(args);
        return command;
    }

    /** The viewer beside a store started in the foreground: its login dialog comes up with the URL and admin. */
    static void startBeside(Context ctx, String url) throws IOException {
        Path log = ctx.root().resolve("data/viewer.log");
        Files.createDirectories(log.getParent());
        Process viewer = new ProcessBuilder(command(ctx, List.of("--server", url, "--user", "admin")))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        viewer.onExit().thenAccept(p -> {
            if (p.exitValue() != 0) {
                ctx.err().println("the viewer stopped with an error; see data/viewer.log");
            }
        });
    }

    @Override
    public Integer call() throws IOException {
        Context ctx = Context.of(spec);
        if (!built(ctx)) {
            Processes.build(ctx);
        }
        List<String> viewerArgs = new ArrayList<>(args);
        Process store = null;
        if (viewerArgs.stream().noneMatch(a -> a.startsWith("--server"))) {
            int port = ctx.port();
            if (!StoreProbe.listening("127.0.0.1", port)) {
                // no store running: one for this session, stopped when the viewer closes
                Path log = ctx.root().resolve("data/store.log");
                Files.createDirectories(log.getParent());
                ctx.out().println("no image store on port " + port + ": starting one (log in data/store.log; the "
                        + "login is printed there)");
                ProcessBuilder builder = new ProcessBuilder(ctx.root().resolve("medjava").toString(), "start")
                        .directory(ctx.cwd().toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
                builder.environment().put("STORE_ONLY", "1");
                store = builder.start();
                Process started = store;
                Runtime.getRuntime().addShutdownHook(new Thread(started::destroy));
                if (!awaitReady(port, started)) {
                    throw new CliException("the store did not start; see data/store.log");
                }
                Files.readAllLines(log).stream().filter(l -> l.contains("login:")).findFirst()
                        .ifPresent(ctx.out()::println);
            }
            viewerArgs.addAll(0, List.of("--server", "http://localhost:" + port));
        }
        int status = Processes.run(command(ctx, viewerArgs), ctx.cwd(), Map.of());
        if (store != null) {
            store.destroy();
        }
        return status;
    }

    private static boolean awaitReady(int port, Process store) {
        for (int i = 0; i < 600 && store.isAlive(); i++) {
            if (StoreProbe.ready("127.0.0.1", port)) {
                return true;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
