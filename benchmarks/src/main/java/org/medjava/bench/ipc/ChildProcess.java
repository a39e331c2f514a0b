package org.medjava.bench.ipc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one harness process (C or Java) to completion within a time limit and returns its standard output lines. */
final class ChildProcess {
    private ChildProcess() {
    }

    static List<String> lines(List<String> command, int timeoutSeconds) throws IOException {
        Path out = Files.createTempFile("medjava-ipc", ".out");
        Path err = Files.createTempFile("medjava-ipc", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(timeoutSeconds + 30L, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
                throw new IOException(String.join(" ", command) + " did not end within " + timeoutSeconds + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ": "
                        + Files.readString(err, StandardCharsets.UTF_8).trim());
            }
            return Files.readAllLines(out, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    static Path java() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    static String classpath() {
        return System.getProperty("java.class.path");
    }

    /** The load average (1, 5, 15 min), for the report's machine note. */
    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** A run's settings for the report, as {@code key=value} lines. */
    static void writeProperties(Path file, java.util.Map<String, String> values) throws IOException {
        List<String> lines = new java.util.ArrayList<>();
        values.forEach((k, v) -> lines.add(k + "=" + v));
        Files.write(file, lines);
    }
}
