package org.medjava.bench.transport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The C sockets transfer ({@code benchmarks/src/main/c/transport.c}), as one long-running process that performs a
 * transfer per request line, so C and Java transfers can alternate and meet the same machine conditions.
 */
public final class CTransfer implements Transfer, AutoCloseable {
    private final Process process;
    private final PrintWriter requests;
    private final BufferedReader answers;

    public CTransfer(Path program) throws IOException {
        process = new ProcessBuilder(List.of(program.toString(), "--stdin", "--receive-buffer",
                Integer.toString(RECEIVE_BUFFER))).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        requests = new PrintWriter(process.getOutputStream(), true, StandardCharsets.US_ASCII);
        answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
    }

    @Override
    public String id() {
        return "c-sockets";
    }

    @Override
    public Result transfer(int bufferSize, long totalBytes) throws IOException {
        requests.println(bufferSize + " " + totalBytes + " 0");
        String line = answers.readLine();
        if (line == null) {
            throw new IOException("the C transport program ended unexpectedly (exit "
                    + (process.isAlive() ? "?" : process.exitValue()) + ")");
        }
        String[] f = line.split(",");
        if (f.length != 5 || !f[0].equals(id())) {
            throw new IOException("unexpected answer from the C transport program: " + line);
        }
        return new Result(Long.parseLong(f[3]), Double.parseDouble(f[4]));
    }

    @Override
    public void close() throws IOException {
        requests.close();
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
