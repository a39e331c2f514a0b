package org.medjava.bench.run;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.transport.MultiFrameDicom;
import org.medjava.bench.transport.StoreHttp;
import org.medjava.bench.transport.StoreServer;
import org.medjava.bench.transport.Transfer;

/**
 * The image store's HTTP PUT and GET throughput for files of 1 MiB to 256 MiB (multi-frame DICOM), on a store
 * started here from the built WAR. Repetition 0 of each point is a warm-up. Writes {@code raw/store-http.csv} and
 * the store's console to {@code raw/store.log}.
 */
final class StoreStep {
    static final String HEADER = "op,size,rep,bytes,seconds";
    /** Round trips of a 1 MiB file before anything is measured: Payara's and the store's code gets compiled. */
    private static final int WARM_UP_ROUNDS = 30;

    private final Path rawDir;
    private final PrintStream console;

    StoreStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    void run(RunPlan.StorePlan plan) throws IOException, InterruptedException {
        Path target = BenchPaths.root().resolve("image-store/target");
        String hint = "build the image store first (./medjava build, or mvn -pl image-store -am package -DskipTests)";
        Path war = BenchPaths.requireFile(target.resolve("image-store.war"), hint);
        Path payara = BenchPaths.requireFile(target.resolve("payara/payara-micro.jar"), hint);
        console.println("store: starting Payara Micro with the image store...");
        List<String> lines = new ArrayList<>(List.of(HEADER));
        Path payloads = Files.createTempDirectory("medjava-bench-payload-");
        try (StoreServer server = StoreServer.start(payara, war, rawDir.resolve("store.log"))) {
            StoreHttp http = new StoreHttp(server);
            Path warmUp = payloads.resolve("warm-up.dcm");
            MultiFrameDicom.write(warmUp, 1, 0);
            for (int i = 0; i < WARM_UP_ROUNDS; i++) {
                http.put("bench/warm-up.dcm", warmUp);
                http.get("bench/warm-up.dcm");
            }
            for (int mib : plan.mebibytes()) {
                Path file = payloads.resolve(mib + ".dcm");
                MultiFrameDicom.write(file, mib, mib);
                String path = "bench/payload-" + mib + "MiB.dcm";
                int repeat = Math.max(plan.repeat(), 32 / mib); // small files: more, cheap repetitions
                console.printf(Locale.ROOT, "store: %d MiB, PUT and GET × %d...%n", mib, repeat);
                for (int rep = 0; rep <= repeat; rep++) {
                    lines.add(line("PUT", mib, rep, http.put(path, file)));
                }
                for (int rep = 0; rep <= repeat; rep++) {
                    Transfer.Result r = http.get(path);
                    if (r.bytes() != Files.size(file)) {
                        throw new IOException("GET " + path + " returned " + r.bytes() + " of " + Files.size(file)
                                + " bytes");
                    }
                    lines.add(line("GET", mib, rep, r));
                }
                Files.delete(file);
            }
        } finally {
            try (var left = Files.list(payloads)) {
                for (Path p : (Iterable<Path>) left::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(payloads);
        }
        Files.write(rawDir.resolve("store-http.csv"), lines);
    }

    /** {@code size} is the nominal file size (MiB), {@code bytes} what was sent, header included. */
    private static String line(String op, int mib, int rep, Transfer.Result r) {
        return String.format(Locale.ROOT, "%s,%d,%d,%d,%.9f", op, (long) mib << 20, rep, r.bytes(), r.seconds());
    }
}
