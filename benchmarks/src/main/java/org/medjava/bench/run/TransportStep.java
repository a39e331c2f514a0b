package org.medjava.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.transport.CTransfer;
import org.medjava.bench.transport.NioTransfer;
import org.medjava.bench.transport.StreamTransfer;
import org.medjava.bench.transport.Transfer;

/**
 * The paper's Figure 17 on loopback: C sockets, Java blocking streams and Java NIO by sender buffer size. The three
 * alternate transfer by transfer (the machine may be shared: a load change then hits all of them alike).
 * Repetition 0 of every point is a warm-up. Writes {@code raw/transport.csv}.
 */
final class TransportStep {
    static final String HEADER = "impl,buffer,rep,bytes,seconds";

    private final Path rawDir;
    private final PrintStream console;

    TransportStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    void run(RunPlan.TransportPlan plan) throws IOException {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        Path exe = BenchPaths.requireFile(BenchPaths.nativeDir().resolve("transport"),
                "build the benchmarks module (mvn -pl benchmarks -am package)");
        console.printf(Locale.ROOT, "transport: %d buffer sizes × %d MiB × %d repetitions, C, streams and NIO "
                + "interleaved...%n", plan.buffers().size(), plan.totalBytes() >> 20, plan.repeat());
        try (CTransfer c = new CTransfer(exe)) {
            List<Transfer> transfers = List.of(c, new StreamTransfer(), new NioTransfer());
            for (int rep = 0; rep <= plan.repeat(); rep++) {
                for (int buffer : plan.buffers()) {
                    // rotate the order, so no implementation always runs right after another one
                    for (int t = 0; t < transfers.size(); t++) {
                        Transfer transfer = transfers.get((t + rep) % transfers.size());
                        Transfer.Result r = transfer.transfer(buffer, plan.totalBytes());
                        if (r.bytes() != plan.totalBytes()) {
                            throw new IOException(transfer.id() + " received " + r.bytes() + " of "
                                    + plan.totalBytes() + " bytes");
                        }
                        lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%.9f", transfer.id(), buffer, rep,
                                r.bytes(), r.seconds()));
                    }
                }
            }
        }
        Files.write(rawDir.resolve("transport.csv"), lines);
    }
}
