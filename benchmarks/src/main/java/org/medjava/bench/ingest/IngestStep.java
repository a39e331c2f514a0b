package org.medjava.bench.ingest;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.medjava.bench.serve.OrthancPeer;
import org.medjava.bench.serve.ServeStep.Target;
import org.medjava.bench.serve.Servers;
import org.medjava.bench.setup.BenchPaths;
import org.medjava.bench.transport.StoreServer;
import org.medjava.store.net.dimse.RemoteAe;

/**
 * The store's ingest side by side with Orthanc, issue 21: C-STORE and STOW-RS from 1 and 4 parallel senders, the same
 * files on both (copies of CT_small.dcm with new UIDs), both servers started here on loopback ports. After an untimed
 * warm-up per protocol, {@link IngestPlan#rounds()} rounds interleave the servers (store first in odd rounds, Orthanc
 * first in even ones); each cell sends {@link IngestPlan#instances()} new instances and records the rate (instances
 * over the wall time from the first send to the last answer), the 50th and 99th percentile of the per-instance times,
 * the server's CPU seconds (process and descendants, from /proc) and the 1-minute load average. Writes {@value #CSV}
 * and {@value #NOTES}; a failed send fails the step after the CSV is written.
 */
public final class IngestStep {
    public static final String CSV = "ingest.csv";
    public static final String NOTES = "ingest-notes.txt";
    public static final String HEADER =
            "target,protocol,senders,round,instances,seconds,inst_per_s,p50_ms,p99_ms,cpu_s,load1";
    public static final String QUICK_NOTE = "ingest: skipped in quick mode (./medjava bench --standard measures the "
            + "store's C-STORE and STOW-RS against Orthanc)";
    /** The numbers of parallel senders issue 21 names. */
    public static final List<Integer> SENDERS = List.of(1, 4);
    private static final String STORE_AE = "MEDJAVA";
    private static final int WARM_UP_BATCH = 500;
    private static final int WARM_UP_LIMIT = 20_000;

    /** The ingest protocols. */
    public enum Protocol {
        C_STORE("c-store", "C-STORE"),
        STOW_RS("stow-rs", "STOW-RS");

        public final String id;
        public final String label;

        Protocol(String id, String label) {
            this.id = id;
            this.label = label;
        }

        public static Optional<Protocol> parse(String id) {
            return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst();
        }
    }

    /** A server as the senders see it; {@code stow} is null when it has no STOW-RS (Orthanc without its plugin). */
    private record Receiver(Target target, RemoteAe dicom, URI stow, String authorization, long pid) {
        boolean takes(Protocol p) {
            return p == Protocol.C_STORE || stow != null;
        }

        InstanceSender sender(Protocol p) {
            return p == Protocol.C_STORE ? new CStoreSender(dicom) : new StowSender(stow, authorization);
        }
    }

    private final Path rawDir;
    private final PrintStream console;
    private final List<String> lines = new ArrayList<>(List.of(HEADER));
    private final List<String> notes = new ArrayList<>();
    private int batch;

    public IngestStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    /** The quick run: the step is left out, said in the report. */
    public static void skipQuick(Path rawDir, PrintStream console) throws IOException {
        console.println(QUICK_NOTE);
        Files.write(rawDir.resolve(NOTES), List.of(QUICK_NOTE));
    }

    public void run(IngestPlan plan) throws IOException, InterruptedException {
        try {
            measure(plan);
        } finally {
            Files.write(rawDir.resolve(CSV), lines);
            Files.write(rawDir.resolve(NOTES), notes);
        }
    }

    private void measure(IngestPlan plan) throws IOException, InterruptedException {
        Optional<Path> orthanc = Servers.binary("Orthanc", "/usr/sbin/Orthanc");
        Path target = BenchPaths.root().resolve("image-store/target");
        String hint = "build the image store first (./medjava build, or mvn -pl image-store -am package -DskipTests)";
        Path war = BenchPaths.requireFile(target.resolve("image-store.war"), hint);
        Path payara = BenchPaths.requireFile(target.resolve("payara/payara-micro.jar"), hint);
        InstanceCopies copies = new InstanceCopies(Files.readAllBytes(BenchPaths.requireFile(
                BenchPaths.root().resolve("testdata/samples/dicom/CT_small.dcm"),
                "the repository's test samples are missing")));
        if (orthanc.isEmpty()) {
            note("ingest: no Orthanc column: Orthanc is not installed (bootstrap/install-deps.sh --test)");
        } else {
            note("versions: " + Servers.version(orthanc.get(), "--version") + (OrthancPeer.dicomWebPlugin().isPresent()
                    ? " with its DICOMweb plugin" : "; no Orthanc STOW-RS: its DICOMweb plugin (package "
                    + "orthanc-dicomweb) is not installed"));
        }
        note(String.format(Locale.ROOT, "load: %d instances per cell (copies of CT_small.dcm, %,d bytes, explicit VR "
                        + "little endian, new Study/Series/SOP Instance UIDs per cell), senders %s, %d interleaved "
                        + "rounds; untimed warm-up per protocol until the rate is steady, at least %d instances "
                        + "into the store, %d into Orthanc",
                plan.instances(), copies.size(), SENDERS, plan.rounds(), plan.storeWarmUp(), plan.peerWarmUp()));
        note("C-STORE: the store's own storage SCU (dicom-net's StorageSender on PixelMed's association layer) in the "
                + "benchmark's JVM, one association per sender, each instance timed from the previous C-STORE "
                + "response to its own; STOW-RS: the JDK's HTTP client, one instance per POST over one keep-alive "
                + "connection per sender, HTTP Basic authentication on both servers. The first instance of each "
                + "sender (it opens the association or connection) counts in the rate, not in the percentiles. "
                + "Orthanc runs with TCP_NODELAY=1 (its DICOM layer, DCMTK, keeps Nagle's algorithm otherwise); the "
                + "sender's associations set TCP_NODELAY too (dicom-net's Initiators; PixelMed's initiator leaves "
                + "it off, and each C-STORE then waited some 40-50 ms for a delayed ACK).");

        Path work = Files.createTempDirectory("medjava-bench-ingest-");
        List<AutoCloseable> running = new ArrayList<>();
        try {
            List<Receiver> receivers = new ArrayList<>();
            if (orthanc.isPresent()) {
                OrthancPeer o = OrthancPeer.startForIngest(orthanc.get(), Files.createDirectories(
                        work.resolve("orthanc")));
                running.add(o);
                receivers.add(new Receiver(Target.ORTHANC, new RemoteAe(OrthancPeer.AE_TITLE, "127.0.0.1",
                        o.dicomPort()), OrthancPeer.dicomWebPlugin().isPresent() ? o.uri("/dicom-web/studies")
                        : null, o.authorization(), o.pid()));
            }
            console.println("ingest: starting Payara Micro with the image store...");
            int dicomPort = Servers.freePort();
            long t0 = System.nanoTime();
            StoreServer store = StoreServer.start(payara, war, rawDir.resolve("ingest-store.log"), Map.of(
                    "medjava.dicom.port", Integer.toString(dicomPort), "medjava.dicom.bind", "127.0.0.1",
                    "medjava.dicom.aet", STORE_AE, "medjava.dicom.allowed-aets", CStoreSender.CALLING_AE));
            running.add(store);
            note(String.format(Locale.ROOT, "store: ready %.0f s after its JVM was launched",
                    (System.nanoTime() - t0) / 1e9));
            receivers.add(0, new Receiver(Target.STORE, new RemoteAe(STORE_AE, "127.0.0.1", dicomPort),
                    store.uri("/dicomweb/studies"), store.authorization(), store.pid()));
            for (Protocol p : Protocol.values()) {
                for (Receiver r : receivers) {
                    if (r.takes(p)) {
                        warmUp(r, p, r.target() == Target.STORE ? plan.storeWarmUp() : plan.peerWarmUp(), copies,
                                work);
                    }
                }
            }
            for (int round = 1; round <= plan.rounds(); round++) {
                console.printf(Locale.ROOT, "ingest: round %d of %d%n", round, plan.rounds());
                List<Receiver> order = new ArrayList<>(receivers);
                if (round % 2 == 0) {
                    java.util.Collections.reverse(order); // neither server always follows the other's writes
                }
                for (Protocol p : Protocol.values()) {
                    for (int senders : SENDERS) {
                        for (Receiver r : order) {
                            if (r.takes(p)) {
                                cell(r, p, senders, round, plan.instances(), copies, work);
                            }
                        }
                    }
                }
            }
        } finally {
            for (int i = running.size() - 1; i >= 0; i--) {
                try {
                    running.get(i).close();
                } catch (Exception e) {
                    console.println("ingest: stopping a server failed: " + e.getMessage());
                }
            }
            Servers.deleteTree(work);
        }
    }

    /**
     * Untimed batches of {@value #WARM_UP_BATCH} instances from 4 senders until the server is at speed: at least
     * {@code minimum} instances, then until two batches in a row were not 5% faster than the best before them (or
     * {@value #WARM_UP_LIMIT} instances). A fixed warm-up of 1,500 measured the store while its JIT still compiled
     * the ingest path: by hand, 4 senders of STOW-RS ran at 130, 190, 240, then 340-350 instances/s over the first
     * 10,000 instances (8 ms of CPU per instance falling to 3.5). The batches' rates go into the notes.
     */
    private void warmUp(Receiver r, Protocol p, int minimum, InstanceCopies copies, Path work)
            throws IOException, InterruptedException {
        List<String> rates = new ArrayList<>();
        double best = 0;
        int flat = 0;
        int sent = 0;
        while (sent < WARM_UP_LIMIT) {
            double rate = cell(r, p, 4, 0, WARM_UP_BATCH, copies, work);
            sent += WARM_UP_BATCH;
            rates.add(String.format(Locale.ROOT, "%.0f", rate));
            flat = rate < best * 1.05 ? flat + 1 : 0;
            best = Math.max(best, rate);
            if (sent >= minimum && flat >= 2) {
                break;
            }
        }
        note(String.format(Locale.ROOT, "warm-up %s %s: %,d instances in batches of %d from 4 senders, instances/s "
                + "per batch: %s", r.target().id, p.id, sent, WARM_UP_BATCH, String.join(", ", rates)));
    }

    /**
     * Sends {@code count} new instances to one server from {@code senders} senders at once (the files dealt out in
     * turn) and returns the rate; round 0 is the warm-up, not recorded.
     */
    private double cell(Receiver r, Protocol p, int senders, int round, int count, InstanceCopies copies, Path work)
            throws IOException, InterruptedException {
        Path dir = work.resolve("batch-" + batch++);
        List<Path> files = copies.write(dir, count);
        List<List<Path>> shares = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < files.size(); i++) {
            shares.get(i % senders).add(files.get(i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<long[]>> sent = new ArrayList<>();
            for (List<Path> share : shares) {
                InstanceSender sender = r.sender(p);
                sent.add(pool.submit(() -> {
                    go.await();
                    return sender.send(share);
                }));
            }
            double cpu0 = Servers.cpuSeconds(r.pid());
            long t0 = System.nanoTime();
            go.countDown();
            List<long[]> times = new ArrayList<>();
            for (Future<long[]> f : sent) {
                times.add(f.get());
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpu = Servers.cpuSeconds(r.pid()) - cpu0;
            double load = Servers.load1();
            double[] ms = afterTheFirst(times);
            double p50 = percentile(ms, 0.50);
            double p99 = percentile(ms, 0.99);
            console.printf(Locale.ROOT, "ingest: %-7s %-7s %d sender%s %s: %.0f instances/s, p50 %.2f ms, p99 %.2f ms, "
                            + "CPU %.1f s, load %.2f%n", r.target().id, p.id, senders, senders == 1 ? " " : "s",
                    round == 0 ? "warm-up" : "round " + round, count / seconds, p50, p99, cpu, load);
            if (round > 0) {
                lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%.4f,%.2f,%.4f,%.4f,%.2f,%.2f", r.target().id,
                        p.id, senders, round, count, seconds, count / seconds, p50, p99, cpu, load));
            }
            return count / seconds;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new IOException(r.target().id + " " + p.id + " " + senders + " sender(s) "
                    + (round == 0 ? "warm-up" : "round " + round) + ": " + cause.getMessage(), cause);
        } finally {
            pool.shutdownNow();
            Servers.deleteTree(dir);
        }
    }

    /** Every sender's instance times but its first (which opened the association or connection), in ms. */
    static double[] afterTheFirst(List<long[]> perSender) {
        return perSender.stream().flatMapToLong(t -> Arrays.stream(t).skip(1)).mapToDouble(n -> n / 1e6).toArray();
    }

    /** The nearest-rank percentile ({@code q} in (0, 1]); NaN for no values. */
    static double percentile(double[] values, double q) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private void note(String line) {
        console.println(line.startsWith("ingest:") ? line : "ingest: " + line);
        notes.add(line);
    }
}
