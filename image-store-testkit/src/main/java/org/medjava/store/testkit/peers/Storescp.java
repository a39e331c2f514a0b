package org.medjava.store.testkit.peers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.medjava.filter.testkit.DcmtkTools;
import org.medjava.store.testkit.Ports;

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
        return start(aeTitle, port, dir, List.of(syntaxes));
    }

    /**
     * A destination that accepts only {@code transferSyntax} for the given SOP classes (and Verification
     * uncompressed), through a storescp association configuration file written beside {@code dir}.
     */
    public static Storescp acceptingOnly(String aeTitle, int port, Path dir, String transferSyntax,
            java.util.Collection<String> sopClasses) throws IOException, InterruptedException {
        StringBuilder cfg = new StringBuilder("[[TransferSyntaxes]]\n[Uncompressed]\nTransferSyntax1 = ")
                .append("1.2.840.10008.1.2.1\n[Only]\nTransferSyntax1 = ").append(transferSyntax)
                .append("\n[[PresentationContexts]]\n[Contexts]\n")
                .append("PresentationContext1 = 1.2.840.10008.1.1\\Uncompressed\n");
        int n = 2;
        for (String sopClass : new java.util.TreeSet<>(sopClasses)) {
            cfg.append("PresentationContext").append(n++).append(" = ").append(sopClass).append("\\Only\n");
        }
        cfg.append("[[Profiles]]\n[Only]\nPresentationContexts = Contexts\n");
        Files.createDirectories(dir);
        Path file = Files.writeString(dir.resolveSibling(dir.getFileName() + ".storescp.cfg"), cfg);
        return start(aeTitle, port, dir, List.of("-xf", file.toString(), "Only"));
    }

    private static Storescp start(String aeTitle, int port, Path dir, List<String> options) throws IOException,
            InterruptedException {
        Files.createDirectories(dir);
        Path log = dir.resolveSibling(dir.getFileName() + ".storescp.log");
        List<String> command = new java.util.ArrayList<>(List.of(DcmtkTools.path("storescp"), "-aet", aeTitle));
        command.addAll(options);
        command.addAll(List.of("+B", "-od", dir.toString(), Integer.toString(port)));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
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
