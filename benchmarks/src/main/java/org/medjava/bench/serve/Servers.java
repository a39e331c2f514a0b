package org.medjava.bench.serve;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the peer launchers and the steps that load them (serve, ingest) share: free ports, waiting for a listener, the
 * binaries, CPU time, stopping, cleaning.
 */
public final class Servers {
    /** Clock ticks per second of /proc/PID/stat's times ({@code getconf CLK_TCK}: 100 on Linux). */
    private static final double TICKS_PER_SECOND = 100;

    private Servers() {
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Waits until something accepts connections on 127.0.0.1:port; fails early when the process exits. */
    public static void awaitListening(int port, Duration timeout, Process process, String name, Path log)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " before it listened; see "
                        + log);
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IOException(name + " did not listen on port " + port + " within " + timeout + "; see " + log);
    }

    /** The first of these that is an executable file, else the command on the PATH. */
    public static Optional<Path> binary(String name, String... candidates) {
        for (String c : candidates) {
            if (Files.isExecutable(Path.of(c))) {
                return Optional.of(Path.of(c));
            }
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** User + system CPU seconds of a process and its live descendants (nginx's workers), from /proc. */
    public static double cpuSeconds(long pid) {
        double seconds = ticks(pid) / TICKS_PER_SECOND;
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isPresent()) {
            for (ProcessHandle child : (Iterable<ProcessHandle>) handle.get().descendants()::iterator) {
                seconds += ticks(child.pid()) / TICKS_PER_SECOND;
            }
        }
        return seconds;
    }

    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15 of stat)
        } catch (IOException | RuntimeException gone) {
            return 0;
        }
    }

    /** The resident set of a process in KiB (VmRSS of /proc/PID/status); -1 when it is gone. */
    public static long rssKib(long pid) {
        try {
            return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("VmRSS:"))
                    .map(l -> Long.parseLong(l.replaceAll("[^0-9]", ""))).findFirst().orElse(-1L);
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /** The 1-minute load average. */
    public static double load1() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /** Processes started here, stopped by a shutdown hook if the run is interrupted (Ctrl-C) before they are. */
    private static final java.util.Map<Process, Thread> HOOKS = new java.util.concurrent.ConcurrentHashMap<>();

    /** Registers a started server for the shutdown hook; {@link #stop} removes it. */
    public static Process track(Process process) {
        Thread hook = new Thread(() -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }, "stop " + process.pid());
        HOOKS.put(process, hook);
        Runtime.getRuntime().addShutdownHook(hook);
        return process;
    }

    /** SIGTERM, SIGKILL after {@code seconds}, and any descendant left behind (an orphaned worker keeps the port). */
    public static void stop(Process process, int seconds) throws InterruptedException {
        Thread hook = HOOKS.remove(process);
        if (hook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        descendants.forEach(ProcessHandle::destroyForcibly);
    }

    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The first line a program prints about its version (wrk and nginx print it on stderr). */
    public static String version(Path program, String flag) {
        try {
            Process p = new ProcessBuilder(program.toString(), flag).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            String first = out.lines().findFirst().orElse("").strip();
            int copyright = first.indexOf(" Copyright");
            return copyright > 0 ? first.substring(0, copyright) : first;
        } catch (IOException e) {
            return program.getFileName() + " (version unknown)";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return program.getFileName() + " (version unknown)";
        }
    }
}
