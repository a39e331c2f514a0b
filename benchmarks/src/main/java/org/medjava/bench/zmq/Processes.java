package org.medjava.bench.zmq;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Runs a helper program to completion and returns its standard output; a failure names the command and its errors.
 * Beside its one user, the step that asks libzmq's program for its version.
 */
final class Processes {
    private Processes() {
    }

    static String output(List<String> command) throws IOException {
        Path err = Files.createTempFile("medjava-bench", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            if (code != 0) {
                throw new IOException(String.join(" ", command) + " exited with " + code + ": "
                        + Files.readString(err).trim());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + command.get(0), e);
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
