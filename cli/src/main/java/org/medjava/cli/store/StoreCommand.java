package org.medjava.cli.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.medjava.cli.command.CliException;
import org.medjava.cli.command.Context;
import org.medjava.cli.command.Processes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code medjava store start|stop|status} (also {@code medjava start|stop|status}): one store node, Payara Micro with
 * the WAR and a data directory (H2 index, images, plugins, accounts, logs/), seeded on first start with the sample
 * images and the eight plugins. Supervision as a service is systemd's (deploy/systemd) or Docker's.
 */
@Command(name = "store", description = "The image store: start, stop, status.",
        subcommands = {StoreCommand.Start.class, StoreCommand.Stop.class, StoreCommand.Status.class})
public final class StoreCommand {

    static Duration seconds(Context ctx, String key, int otherwise) {
        String value = ctx.env(key, Integer.toString(otherwise));
        try {
            return Duration.ofSeconds(Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw new CliException(key + "=" + value + " is not a number of seconds; set a whole number", 2);
        }
    }

    /** Builds the store when it is missing (the build's tools are installed then), and its native decoders. */
    public static void prepare(Context ctx) {
        Path store = ctx.store();
        if (!built(store)) {
            if (ctx.isSet("MEDJAVA_NO_BUILD")) {
                throw new CliException("the store is not built in " + store
                        + " and MEDJAVA_NO_BUILD is set: run ./medjava build first");
            }
            Processes.build(ctx);
        }
        // the store decodes JPEG-LS, JPEG 2000 and HTJ2K with CharLS, OpenJPEG and OpenJPH: a store built elsewhere
        // still needs them here (Debian: the bootstrap installs them)
        if (Files.isExecutable(Path.of("/usr/bin/dpkg-query"))) {
            for (String lib : List.of("libcharls2", "libopenjp2-7", "libopenjph0.9")) {
                if (!debianPackageInstalled(lib)) {
                    Processes.installDeps(ctx);
                    break;
                }
            }
        }
    }

    private static boolean debianPackageInstalled(String name) {
        try {
            Process p = new ProcessBuilder("dpkg-query", "-W", "-f=${Status}", name).redirectErrorStream(true).start();
            String status = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            return status.contains("install ok installed");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static boolean built(Path store) {
        try (var jars = Files.list(store.resolve("plugins"))) {
            return jars.filter(p -> p.toString().endsWith(".jar")).count() >= 8
                    && Files.isRegularFile(store.resolve("image-store.war"))
                    && Files.isRegularFile(store.resolve("payara/payara-micro.jar"))
                    && Files.isDirectory(store.resolve("image-store/WEB-INF/classes"));
        } catch (IOException e) {
            return false;
        }
    }

    @Command(name = "start", description = {"Start the image store in the foreground (Ctrl-C stops it), and the "
            + "viewer connected to it when a display exists (MEDJAVA_NO_VIEWER=1: not).",
            "Settings: MEDJAVA_PORT (8080), MEDJAVA_HTTP_BIND (127.0.0.1 while HTTPS is on), MEDJAVA_HTTPS_PORT "
                    + "(8443; off: no HTTPS), MEDJAVA_TLS_KEYSTORE (else one made in <data>/tls), "
                    + "MEDJAVA_DICOM_TLS_PORT (2762 with HTTPS and MEDJAVA_DICOM_PORT on; off: none), MEDJAVA_DATA "
                    + "(data/store), "
                    + "MEDJAVA_JAVA_OPTS, MEDJAVA_NO_BUILD, MEDJAVA_START_TIMEOUT (300 s), MEDJAVA_STOP_TIMEOUT (60 s); "
                    + "every key of docs/configuration.md as its environment variable."})
    public static final class Start implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--background", description = "detached (output in <data>/logs/console.log); returns when ready")
        boolean background;

        @Option(names = "--dry-run", description = "print the store's command line instead of running it")
        boolean dryRun;

        @Unmatched
        List<String> payaraArgs = new ArrayList<>();

        @Override
        public Integer call() throws IOException {
            Context ctx = Context.of(spec);
            PrintStream out = ctx.out();
            PrintStream err = ctx.err();
            Path data = ctx.storeData();
            StoreLaunch launch = StoreLaunch.of(ctx, data, dryRun ? ctx.port() + 1000 : 0, payaraArgs);
            if (dryRun) {
                out.println(String.join(" ", launch.command()));
                return 0;
            }
            prepare(ctx);
            OptionalLong running = StoreProcesses.runningPid(data, err);
            if (running.isPresent()) {
                throw new CliException("an image store is already running on " + data + " (pid "
                        + running.getAsLong() + "): ./medjava status, or ./medjava stop");
            }
            if (StoreProbe.listening(launch.host(), launch.port())) {
                throw new CliException("port " + launch.port() + " is in use; start with MEDJAVA_PORT=<another port> "
                        + "./medjava start");
            }
            if (launch.httpsPort() > 0 && StoreProbe.listening("127.0.0.1", launch.httpsPort())) {
                throw new CliException("port " + launch.httpsPort() + " is in use; start with MEDJAVA_HTTPS_PORT="
                        + "<another port> ./medjava start (or MEDJAVA_HTTPS_PORT=off: no HTTPS)");
            }
            if (launch.dicomTlsPort() > 0 && StoreProbe.listening("127.0.0.1", launch.dicomTlsPort())) {
                throw new CliException("port " + launch.dicomTlsPort() + " is in use; start with "
                        + "MEDJAVA_DICOM_TLS_PORT=<another port> ./medjava start (or MEDJAVA_DICOM_TLS_PORT=off: "
                        + "no DICOM TLS)");
            }
            boolean viewer = false;
            if (ctx.isSet("DISPLAY") && !ctx.isSet("MEDJAVA_NO_VIEWER") && !ctx.isSet("STORE_ONLY") && !background) {
                if (ViewerCommand.built(ctx)) {
                    viewer = true;
                } else if (!ctx.isSet("MEDJAVA_NO_BUILD")) {
                    Processes.build(ctx);
                    viewer = true;
                }
            }
            Files.createDirectories(data.resolve("logs"));
            Files.createDirectories(data.resolve("work"));
            Files.deleteIfExists(data.resolve("banner.txt"));
            launch = StoreLaunch.of(ctx, data, StoreProbe.backendPortFor(launch.port()), payaraArgs);
            launch.writePreboot(ctx);
            Path console = data.resolve("logs/console.log");
            Files.writeString(console, OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS) + " ./medjava start"
                    + (background ? " --background" : "") + "\n", java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            long mark = Files.size(console);

            StoreCertificate certificate = launch.keystore() == null ? null
                    : StoreCertificate.ensure(launch.keystore());
            if (certificate != null && certificate.created()) {
                out.println("made the store's TLS certificate (self-signed, for " + String.join(", ",
                        StoreCertificate.names()) + " and this machine's addresses) in " + certificate.keystore());
                out.println("  its SHA-256 fingerprint, for a browser's certificate warning: "
                        + certificate.fingerprint());
            }
            List<String> command = new ArrayList<>(launch.command());
            // detached: its own session where setsid exists (no terminal's signals reach it)
            if (background && Files.isExecutable(Path.of("/usr/bin/setsid"))) {
                command.add(0, "/usr/bin/setsid");
            }
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()));
            launch.environment().forEach((key, value) -> {
                if (value == null) {
                    builder.environment().remove(key);
                } else {
                    builder.environment().put(key, value);
                }
            });
            if (certificate != null) {
                builder.environment().put(StoreLaunch.KEYSTORE_PASSWORD, certificate.password());
            }
            Process process = builder.start();
            process.getOutputStream().close();
            long pid = process.pid();
            Path pidFile = StoreProcesses.pidFile(data);
            Files.writeString(pidFile, pid + "\n");
            if (background) {
                out.println("starting the MedJava image store in the background (pid " + pid + ", data in " + data
                        + ")...");
                await(ctx, process, launch, console, mark);
                banner(out, data, launch.url());
                out.println("running in the background (pid " + pid + "); ./medjava status, ./medjava stop");
                return 0;
            }
            // Ctrl-C or a service manager's TERM: a graceful stop, then exit status 0 (a requested stop)
            // set by whichever of the hook and the wait sees the end first: one "stopped" line, not two (Ctrl-C reaches
            // the store too, so its wait often returns while the hook is still stopping it)
            AtomicBoolean ended = new AtomicBoolean();
            Duration stopTimeout = seconds(ctx, "MEDJAVA_STOP_TIMEOUT", 60);
            Thread stopper = new Thread(() -> {
                if (!ended.compareAndSet(false, true)) {
                    return;
                }
                out.println();
                out.println("stopping the image store...");
                StoreProcesses.terminate(pid, stopTimeout, err);
                deleteQuietly(pidFile);
                out.println("the image store stopped");
                out.flush();
                Runtime.getRuntime().halt(0);
            });
            Runtime.getRuntime().addShutdownHook(stopper);
            out.println("starting the MedJava image store (pid " + pid + ", data in " + data + "; server output in "
                    + console + "; Ctrl-C stops it)...");
            await(ctx, process, launch, console, mark);
            banner(out, data, launch.url());
            out.println("Ctrl-C stops it.");
            if (viewer) {
                ViewerCommand.startBeside(ctx, launch.url());
            }
            int status;
            try {
                status = process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                status = 1;
            }
            if (ended.compareAndSet(false, true)) {
                deleteQuietly(pidFile);
                out.println("the image store stopped");
            }
            return status >= 128 ? 0 : status; // ended by a signal: a requested stop
        }

        /**
         * Waits until the store answers, or fails: it exited, its application did not deploy (Payara keeps running
         * then), or MEDJAVA_START_TIMEOUT passed. A failure shows the end of the console log and the reason the
         * store gave, and ends the process.
         */
        private static void await(Context ctx, Process process, StoreLaunch launch, Path console, long mark)
                throws IOException {
            Duration timeout = seconds(ctx, "MEDJAVA_START_TIMEOUT", 300);
            Instant deadline = Instant.now().plus(timeout);
            String failure = "the image store did not answer within " + timeout.toSeconds() + " s";
            while (Instant.now().isBefore(deadline)) {
                if (StoreProbe.ready(launch.host(), launch.port())) {
                    return;
                }
                if (!process.isAlive()) {
                    failure = "the image store exited while starting";
                    break;
                }
                String log = since(console, mark);
                if (log.contains("Exception while loading the app")
                        || log.contains("Exception during lifecycle processing")) {
                    failure = "the image store's application failed to start";
                    break;
                }
                StoreProcesses.sleep(500);
            }
            PrintStream err = ctx.err();
            err.println(failure);
            List<String> lines = since(console, mark).lines().toList();
            err.println("the end of " + console + ":");
            lines.subList(Math.max(0, lines.size() - 30), lines.size()).forEach(err::println);
            String why = lines.stream().filter(l -> l.startsWith("Caused by: "))
                    .reduce((a, b) -> b).map(l -> l.replaceFirst("^Caused by: [A-Za-z0-9_.$]+: ", "")).orElse("");
            if (process.isAlive()) {
                StoreProcesses.terminate(process.pid(), seconds(ctx, "MEDJAVA_STOP_TIMEOUT", 60), err);
            }
            deleteQuietly(StoreProcesses.pidFile(launch.data()));
            throw new CliException("the store did not start" + (why.isEmpty() ? "" : ": " + why)
                    + "; its log is " + console);
        }

        private static String since(Path file, long offset) throws IOException {
            byte[] all = Files.readAllBytes(file);
            return new String(all, (int) Math.min(offset, all.length), (int) Math.max(0, all.length - offset),
                    java.nio.charset.StandardCharsets.UTF_8);
        }

        /** The banner the store wrote once ready, then deleted: it may hold the first admin password. */
        private static void banner(PrintStream out, Path data, String url) throws IOException {
            out.println();
            Path banner = data.resolve("banner.txt");
            if (Files.isRegularFile(banner)) {
                out.print(Files.readString(banner));
                Files.delete(banner);
            } else {
                out.println("MedJava image store ready at " + url + "/ (data in " + data + ")");
            }
        }
    }

    static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a pid file left behind is recognized as stale later
        }
    }

    @Command(name = "stop", description = "Stop the image store on MEDJAVA_DATA (TERM, KILL after "
            + "MEDJAVA_STOP_TIMEOUT, 60 s).")
    public static final class Stop implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Context ctx = Context.of(spec);
            Path data = ctx.storeData();
            OptionalLong pid = StoreProcesses.runningPid(data, ctx.err());
            if (pid.isEmpty()) {
                throw new CliException("no image store is running on " + data);
            }
            ctx.out().println("stopping the image store (pid " + pid.getAsLong() + ")...");
            boolean graceful = StoreProcesses.terminate(pid.getAsLong(), seconds(ctx, "MEDJAVA_STOP_TIMEOUT", 60),
                    ctx.err());
            deleteQuietly(StoreProcesses.pidFile(data));
            ctx.out().println(graceful ? "stopped" : "stopped (killed)");
            return 0;
        }
    }

    @Command(name = "status", description = {"The store's pid, URL, uptime, version and health.",
            "Exit status: 0 running and ready, 1 running but not healthy (starting, not ready, hung, stopped by a "
                    + "signal), 3 not running."})
    public static final class Status implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Context ctx = Context.of(spec);
            PrintStream out = ctx.out();
            Path data = ctx.storeData();
            OptionalLong found = StoreProcesses.runningPid(data, ctx.err());
            if (found.isEmpty()) {
                out.println("not running (data directory " + data + ")");
                return 3;
            }
            long pid = found.getAsLong();
            List<String> args = StoreProcesses.arguments(pid);
            String portText = StoreProcesses.argument(args, "medjava.http.port");
            int port = portText.isEmpty() ? ctx.port() : Integer.parseInt(portText);
            String host = StoreProbe.localHost(StoreProcesses.argument(args, "medjava.http.bind"));
            String url = StoreProcesses.argument(args, "medjava.public-url");
            if (url.isEmpty()) {
                url = ctx.env("MEDJAVA_PUBLIC_URL", "http://localhost:" + port);
            }
            String version = StoreProcesses.argument(args, "medjava.version");
            Duration uptime = ProcessHandle.of(pid).flatMap(h -> h.info().startInstant())
                    .map(s -> Duration.between(s, Instant.now())).orElse(Duration.ZERO);
            String state = StoreProcesses.state(pid);
            String health;
            boolean healthy = false;
            if (state.equalsIgnoreCase("T")) {
                health = "no answer: the process is stopped by a signal (SIGSTOP; kill -CONT " + pid + " resumes it)";
            } else {
                String reply = StoreProbe.get(host, port, "/health/ready").replace("\r", "");
                if (reply.isEmpty()) {
                    health = "no answer from /health/ready within 5 s (hung or overloaded)";
                } else {
                    String statusLine = reply.lines().findFirst().orElse("");
                    int body = reply.indexOf("\n\n");
                    health = statusLine.substring(statusLine.indexOf(' ') + 1) + " "
                            + (body < 0 ? "" : reply.substring(body + 2).replace("\n", ""));
                    healthy = StoreProbe.ready(reply);
                }
            }
            out.println("MedJava image store" + (version.isEmpty() ? "" : " " + version) + ": running, "
                    + (healthy ? "healthy" : "UNHEALTHY"));
            out.println("  pid:      " + pid);
            out.println("  url:      " + url.replaceAll("/+$", "") + "/");
            String httpsPort = StoreProcesses.argument(args, "medjava.https.port");
            if (!httpsPort.isEmpty()) {
                out.println("  https:    port " + httpsPort);
            }
            String dicomTlsPort = StoreProcesses.argument(args, "medjava.dicom.tls-port");
            if (!dicomTlsPort.isEmpty()) {
                out.println("  dicom tls: port " + dicomTlsPort);
            }
            out.println("  uptime:   " + StoreProcesses.human(uptime));
            out.println("  data:     " + data);
            out.println("  health:   " + health);
            return healthy ? 0 : 1;
        }
    }
}
