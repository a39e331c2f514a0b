package org.medjava.store.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * DCMTK's storescp as a C-STORE destination on a loopback port, accepting every transfer syntax it knows (or only
 * those asked for) and writing what it receives into a directory. Stopped by its PID.
 */
public final class Storescp implements AutoCloseable {

    private final Process process;
    private final Path dir;
    private final Path log;
    private final int port;
    private final String aeTitle;

    private Storescp(Process process, Path dir, Path log, int port, String aeTitle) {
        this.process = process;
        this.dir = dir;
        this.log = log;
        this.port = port;
        this.aeTitle = aeTitle;
    }

    public static Storescp start(String aeTitle, int port, Path dir) throws IOException, InterruptedException {
        return start(aeTitle, port, dir, "+xa");
    }

    /**
     * @param syntaxes storescp's option for the transfer syntaxes it accepts: {@code +xa} every one it knows,
     *                 {@code +xi} Implicit VR Little Endian only
     */
    public static Storescp start(String aeTitle, int port, Path dir, String syntaxes) throws IOException,
            InterruptedException {
        Files.createDirectories(dir);
        Path log = dir.resolveSibling(dir.getFileName() + ".storescp.log");
        Process p = new ProcessBuilder(List.of("storescp", "-aet", aeTitle, syntaxes, "+B", "-od", dir.toString(),
                Integer.toString(port))).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Storescp scp = new Storescp(p, dir, log, port, aeTitle);
        try {
            Ports.awaitListening(port, Duration.ofSeconds(20), p, "storescp");
        } catch (RuntimeException | InterruptedException e) {
            scp.close();
            throw e;
        }
        return scp;
    }

    public Path dir() {
        return dir;
    }

    public int port() {
        return port;
    }

    public String aeTitle() {
        return aeTitle;
    }

    public String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** The files received so far. */
    public List<Path> received() throws IOException {
        try (var files = Files.list(dir)) {
            return files.sorted().toList();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
