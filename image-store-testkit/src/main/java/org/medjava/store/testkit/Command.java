package org.medjava.store.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.medjava.filter.testkit.DcmtkTools;

/**
 * Runs a peer's command-line tool (DCMTK) to its end, with a time limit, and keeps what it printed. {@link #of} names
 * DCMTK's own binary ({@link DcmtkTools}), not whatever tool of that name comes first on {@code PATH}.
 */
public final class Command {

    /** What a tool did: its exit code and its output (stdout and stderr together). */
    public record Result(List<String> command, int exitCode, String output) {
        public Result assertOk() {
            if (exitCode != 0) {
                throw new AssertionError(String.join(" ", command) + " exited with " + exitCode + ":\n" + output);
            }
            return this;
        }
    }

    private Command() {
    }

    public static Result run(List<String> command) throws IOException, InterruptedException {
        return run(command, null, 120);
    }

    public static Result run(List<String> command, Path workDir, int timeoutSeconds) throws IOException,
            InterruptedException {
        return run(command, workDir, timeoutSeconds, Map.of());
    }

    /** The same with extra environment variables. */
    public static Result run(List<String> command, Path workDir, int timeoutSeconds,
            Map<String, String> environment) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(environment);
        if (workDir != null) {
            pb.directory(workDir.toFile());
        }
        // The output goes to a file, not a pipe: reading a pipe to its end would wait for a hung tool forever and
        // the time limit would never apply (a hung storescu then surfaced only as JUnit's timeout, without output).
        Path log = Files.createTempFile("medjava-command", ".log");
        pb.redirectOutput(log.toFile());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            Files.deleteIfExists(log);
            throw new IOException(command.get(0) + " cannot be started (install the peers with "
                    + "bootstrap/install-deps.sh): " + e.getMessage(), e);
        }
        String out;
        try {
            boolean ended = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            out = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            if (!ended) {
                throw new AssertionError(String.join(" ", command) + " did not finish in " + timeoutSeconds
                        + " s; it printed:\n" + out);
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor();
            }
            Files.deleteIfExists(log);
        }
        return new Result(List.copyOf(command), p.exitValue(), out);
    }

    /** DCMTK's {@code tool} followed by {@code args}. */
    public static List<String> of(String tool, Object... args) {
        List<String> command = new ArrayList<>();
        command.add(DcmtkTools.path(tool));
        for (Object a : args) {
            if (a instanceof List<?> l) {
                l.forEach(x -> command.add(x.toString()));
            } else {
                command.add(a.toString());
            }
        }
        return command;
    }
}
