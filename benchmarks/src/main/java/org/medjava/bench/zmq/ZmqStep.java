package org.medjava.bench.zmq;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.medjava.bench.setup.BenchPaths;

/**
 * The ØMQ experiment: every implementation ({@link Mechanism}) × transport ({@code tcp} loopback, {@code ipc}) ×
 * test (latency, throughput) as two processes, a local end that binds and a remote end that connects, each running
 * all message sizes of the plan. The implementations take turns within a run (the order rotates from run to run),
 * so a change of machine load hits them alike. Writes {@code raw/zmq.csv}
 * ({@value #HEADER}) and {@code raw/zmq-notes.txt} (what was skipped and why).
 */
public final class ZmqStep {
    public static final String HEADER = "impl,transport,test,size,run,count,seconds";
    public static final String CSV = "zmq.csv";
    public static final String NOTES = "zmq-notes.txt";
    /** libzmq's version as {@code zmq_perf version} reports it (absent without libzmq). */
    public static final String LIBZMQ_VERSION = "zmq-libzmq-version.txt";

    /** One implementation of the message pattern, and how to start its processes. */
    public enum Mechanism {
        LIBZMQ("libzmq", "C libzmq", false),
        JEROMQ("jeromq", "Java JeroMQ", true),
        C_RAW("c-raw", "C raw sockets", false),
        JAVA_RAW("java-raw", "Java raw sockets (NIO)", true);

        private final String id;
        private final String title;
        private final boolean java;

        Mechanism(String id, String title, boolean java) {
            this.id = id;
            this.title = title;
            this.java = java;
        }

        public String id() {
            return id;
        }

        public String title() {
            return title;
        }

        public boolean java() {
            return java;
        }

        public static Mechanism parse(String id) {
            for (Mechanism m : values()) {
                if (m.id.equals(id)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown mechanism " + id);
        }

        /** The C program of a C mechanism ({@code benchmarks/target/native/...}). */
        Path program() {
            return BenchPaths.nativeDir().resolve(this == LIBZMQ ? "zmq_perf" : "raw_perf");
        }
    }

    public static final List<String> TRANSPORTS = List.of("tcp", "ipc");

    private final Path rawDir;
    private final PrintStream console;

    public ZmqStep(Path rawDir, PrintStream console) {
        this.rawDir = rawDir;
        this.console = console;
    }

    public void run(MessagingPlan plan) throws IOException {
        List<String> notes = new ArrayList<>();
        List<Mechanism> mechanisms = new ArrayList<>();
        for (Mechanism m : Mechanism.values()) {
            if (m.java() || Files.isExecutable(m.program())) {
                mechanisms.add(m);
            } else if (m == Mechanism.LIBZMQ) {
                notes.add("libzmq column not measured: " + m.program() + " was not built (the Debian package "
                        + "libzmq3-dev was missing when the benchmarks were built; bootstrap/install-deps.sh --test "
                        + "installs it)");
            } else {
                throw new IOException(m.program() + " is missing; build the benchmarks module");
            }
        }
        notes.forEach(n -> console.println("zmq: " + n));
        if (mechanisms.contains(Mechanism.LIBZMQ)) {
            Files.writeString(rawDir.resolve(LIBZMQ_VERSION), Processes.output(
                    List.of(Mechanism.LIBZMQ.program().toString(), "version")).trim());
        }
        console.printf(Locale.ROOT, "zmq: %s × tcp, ipc × latency, throughput; sizes %s; %d run(s)...%n",
                String.join(", ", mechanisms.stream().map(Mechanism::id).toArray(String[]::new)),
                MessagingPlan.SIZES, plan.runs());
        List<String> lines = new ArrayList<>(List.of(HEADER));
        List<String> failures = new ArrayList<>();
        Path sockets = Files.createTempDirectory("medjava-zmq");
        long start = System.nanoTime();
        try {
            int pair = 0;
            for (int run = 0; run < plan.runs(); run++) {
                for (String transport : TRANSPORTS) {
                    for (String test : List.of("lat", "thr")) {
                        for (int i = 0; i < mechanisms.size(); i++) {
                            Mechanism m = mechanisms.get((i + run) % mechanisms.size());
                            String endpoint = transport.equals("tcp") ? "tcp://127.0.0.1:0"
                                    : "ipc://" + sockets.resolve("p" + (pair++) + ".ipc");
                            PerfPlan p = test.equals("lat") ? plan.latency() : plan.throughput();
                            List<String> results;
                            long pairStart = System.nanoTime();
                            try {
                                results = runPair(m, test, endpoint, p, plan.timeoutSeconds());
                                console.printf(Locale.ROOT, "  run %d/%d %s %s %s: %.1f s%n", run + 1, plan.runs(),
                                        transport, test.equals("lat") ? "latency" : "throughput", m.id(),
                                        (System.nanoTime() - pairStart) / 1e9);
                            } catch (IOException e) { // the other pairs still run; the step fails at the end
                                failures.add(e.getMessage());
                                console.println("zmq: " + e.getMessage());
                                continue;
                            }
                            for (String result : results) {
                                String[] f = result.split(" "); // result TEST SIZE COUNT SECONDS
                                lines.add(String.join(",", m.id(), transport, f[1], f[2], Integer.toString(run),
                                        f[3], f[4]));
                            }
                        }
                    }
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(sockets)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        Files.write(rawDir.resolve(CSV), lines);
        Files.write(rawDir.resolve(NOTES), notes);
        console.printf(Locale.ROOT, "zmq done in %.0f s%n", (System.nanoTime() - start) / 1e9);
        if (!failures.isEmpty()) {
            throw new IOException(failures.size() + " ØMQ process pair(s) failed, first: " + failures.get(0));
        }
    }

    /** Starts the local end, then the remote end on the endpoint it bound; returns the measuring end's results. */
    private List<String> runPair(Mechanism m, String test, String endpoint, PerfPlan plan, int timeoutSeconds)
            throws IOException {
        Process local = start(m, "local_" + test, endpoint, plan, timeoutSeconds);
        Process remote = null;
        try {
            BufferedReader localOut = new BufferedReader(new InputStreamReader(local.getInputStream(),
                    StandardCharsets.US_ASCII));
            String ready = localOut.readLine();
            if (ready == null || !ready.startsWith("ready ")) {
                throw new IOException(m.id() + " local_" + test + " did not start: " + ready + " "
                        + new String(local.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim());
            }
            remote = start(m, "remote_" + test, ready.substring("ready ".length()), plan, timeoutSeconds);
            BufferedReader measuring = test.equals("lat")
                    ? new BufferedReader(new InputStreamReader(remote.getInputStream(), StandardCharsets.US_ASCII))
                    : localOut;
            List<String> results = new ArrayList<>();
            for (String line; (line = measuring.readLine()) != null; ) {
                if (line.startsWith("result ")) {
                    results.add(line);
                }
            }
            await(remote, m, "remote_" + test, timeoutSeconds);
            await(local, m, "local_" + test, timeoutSeconds);
            if (results.size() != plan.steps().size()) {
                throw new IOException(m.id() + " " + test + " on " + endpoint + ": " + results.size() + " of "
                        + plan.steps().size() + " sizes measured");
            }
            return results;
        } finally {
            local.destroyForcibly();
            if (remote != null) {
                remote.destroyForcibly();
            }
        }
    }

    private static Process start(Mechanism m, String role, String endpoint, PerfPlan plan, int timeoutSeconds)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        if (m.java()) {
            cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                    "-cp", System.getProperty("java.class.path"), NetPerf.class.getName(),
                    m == Mechanism.JEROMQ ? "jeromq" : "raw"));
        } else {
            cmd.add(m.program().toString());
        }
        cmd.addAll(List.of(role, endpoint, plan.toString(), Integer.toString(timeoutSeconds)));
        return new ProcessBuilder(cmd).start();
    }

    private static void await(Process p, Mechanism m, String role, int timeoutSeconds) throws IOException {
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new IOException(m.id() + " " + role + " did not end within " + timeoutSeconds + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(m.id() + " " + role + " exited with " + p.exitValue() + ": "
                    + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim());
        }
    }
}
