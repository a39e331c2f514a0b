package org.medjava.cli.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The store's process, found by its data directory: from the pid file the command line writes, else (Linux) from
 * the holder of the store's lock, store.lock, which the store holds while it runs: found also for a store started
 * otherwise. /proc gives a process's state and arguments where there is one; elsewhere ProcessHandle does.
 */
public final class StoreProcesses {
    private StoreProcesses() {
    }

    public static Path pidFile(Path data) {
        return data.resolve("medjava.pid");
    }

    /** Whether {@code pid} is a live (not zombie) process. */
    public static boolean alive(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        return handle.isPresent() && handle.get().isAlive() && !"Z".equals(state(pid));
    }

    /** The state letter of a process from /proc (R, S, D, T when stopped by a signal, Z...), "" when unknown. */
    public static String state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** A process's command line, arguments included. */
    public static List<String> arguments(long pid) {
        try {
            String cmdline = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline"), StandardCharsets.UTF_8);
            return Arrays.asList(cmdline.split("\0"));
        } catch (IOException e) {
            return ProcessHandle.of(pid).flatMap(h -> h.info().arguments()).map(Arrays::asList).orElse(List.of());
        }
    }

    /** The value of -D{@code key}=... in a command line, or of the option {@code key} followed by its value. */
    public static String argument(List<String> arguments, String key) {
        for (int i = 0; i < arguments.size(); i++) {
            String a = arguments.get(i);
            if (a.startsWith("-D" + key + "=")) {
                return a.substring(key.length() + 3);
            }
            if (a.equals(key) && i + 1 < arguments.size()) {
                return arguments.get(i + 1);
            }
        }
        return "";
    }

    static boolean isStore(long pid, Path data) {
        return alive(pid) && argument(arguments(pid), "medjava.data-dir").equals(data.toString());
    }

    /** The pid of the store running on {@code data}; a stale pid file is removed (and said so on {@code err}). */
    public static OptionalLong runningPid(Path data, PrintStream err) {
        Path pidFile = pidFile(data);
        if (Files.isRegularFile(pidFile)) {
            String text = "";
            try {
                text = Files.readAllLines(pidFile).stream().findFirst().orElse("").trim();
                long pid = Long.parseLong(text);
                if (isStore(pid, data)) {
                    return OptionalLong.of(pid);
                }
            } catch (IOException | NumberFormatException e) {
                // stale or damaged: removed below
            }
            try {
                Files.deleteIfExists(pidFile);
            } catch (IOException e) {
                // reported as stale all the same
            }
            err.println("(removed a stale pid file: process " + text + " is not running on " + data + ")");
        }
        return lockHolder(data.resolve("store.lock"));
    }

    /** The payara process holding an OS lock on {@code lock} (/proc/locks names files by device and inode). */
    private static OptionalLong lockHolder(Path lock) {
        Path locks = Path.of("/proc/locks");
        if (!Files.isRegularFile(lock) || !Files.isReadable(locks)) {
            return OptionalLong.empty();
        }
        try {
            String inode = Files.getAttribute(lock, "unix:ino").toString();
            for (String line : Files.readAllLines(locks)) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 6 || !f[5].endsWith(":" + inode)) {
                    continue;
                }
                long pid = Long.parseLong(f[4]);
                if (alive(pid) && Files.exists(Path.of("/proc", f[4], "cwd"))
                        && String.join(" ", arguments(pid)).contains("payara")) {
                    return OptionalLong.of(pid);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no lock information here
        }
        return OptionalLong.empty();
    }

    /**
     * Ends a process gracefully: TERM (and CONT, so a SIGSTOPped JVM can act on it), KILL after {@code timeout}.
     * False when it had to be killed.
     */
    public static boolean terminate(long pid, Duration timeout, PrintStream err) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty()) {
            return true;
        }
        handle.get().destroy();
        try {
            new ProcessBuilder("kill", "-CONT", Long.toString(pid)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        } catch (IOException e) {
            // no kill command (not Unix): no SIGSTOP either
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Instant deadline = Instant.now().plus(timeout);
        while (alive(pid)) {
            if (Instant.now().isAfter(deadline)) {
                err.println("the image store (pid " + pid + ") did not stop within " + timeout.toSeconds()
                        + " s: killing it");
                handle.get().destroyForcibly();
                sleep(1000);
                return false;
            }
            sleep(200);
        }
        return true;
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** h m s of a duration, as the status shows uptime. */
    public static String human(Duration d) {
        long s = d.toSeconds();
        if (s >= 86400) {
            return String.format("%dd %dh %02dm", s / 86400, s % 86400 / 3600, s % 3600 / 60);
        } else if (s >= 3600) {
            return String.format("%dh %02dm %02ds", s / 3600, s % 3600 / 60, s % 60);
        }
        return String.format("%dm %02ds", s / 60, s % 60);
    }
}
