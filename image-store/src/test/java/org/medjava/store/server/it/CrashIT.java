package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * kill -9 rounds (issue 15, item 2): concurrent writers — HTTP PUT (DICOM and GIF over the same paths) and DELETE,
 * STOW-RS, C-STORE by DCMTK's storescu — run against a real store; the store's JVM is killed at a random moment,
 * restarted, and then every acknowledged write must be readable byte for byte, every path must hold either its last
 * acknowledged version or the one in flight at the kill (never a mix), and the index must agree with the objects for
 * every path and UID (GET /index/series/.../instances against the objects, WADO-RS by UID against the file).
 *
 * <p>{@code -Dcrash.rounds=N} (default 5) and {@code -Dcrash.seconds=S} (default 180, the time box: no new round
 * starts after it, though at least 3 rounds run) set the length; {@code -Dcrash.seed} repeats a run's choices. The
 * counts are printed as one line, "crash rounds: ...". Each round waits until writes are being acknowledged, then
 * kills the store at a random moment within the next 3 s.
 */
class CrashIT {

    private static final String RUN = Long.toString(System.currentTimeMillis());
    private static final String STUDY = "1.2.826.0.1.3680043.9.90." + RUN;
    private static final String PUT_SERIES = STUDY + ".1";
    private static final String STOW_SERIES = STUDY + ".2";
    private static final String NET_SERIES = STUDY + ".3";
    private static final String PATIENT = "CRASHIT";
    private static final String BOUNDARY = "crash-it-boundary";
    private static final AtomicInteger UIDS = new AtomicInteger();
    /** The state of a path that holds nothing. */
    private static final Version ABSENT = new Version(null, null);

    /** One version of a path's object: the SHA-256 of its bytes and its SOP Instance UID (null: not DICOM). */
    record Version(String sha, String sop) {
    }

    /** A path written by one writer thread only, so its acknowledged versions come in order. */
    static final class PathState {
        Version acked = ABSENT;
        Version inFlight; // sent, not answered when the store died
    }

    /** A DICOM object sent by STOW-RS or C-STORE: new UID each, stored under its archive path. */
    record NetObject(String sop, String series, String path) {
    }

    private final Map<String, PathState> paths = new ConcurrentHashMap<>();
    private final Map<String, NetObject> netAcked = new ConcurrentHashMap<>();
    private final Map<String, NetObject> netInFlight = new ConcurrentHashMap<>();
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private Path work;
    private byte[] gif;

    @Test
    @Timeout(value = 20, unit = TimeUnit.MINUTES)
    void everyAcknowledgedWriteSurvivesKill9AndTheIndexAgreesWithTheObjects() throws Exception {
        int rounds = Integer.getInteger("crash.rounds", 5);
        int minRounds = Math.min(rounds, 3);
        Duration box = Duration.ofSeconds(Long.getLong("crash.seconds", 180L));
        work = Files.createTempDirectory(Path.of(System.getProperty("store.war")).getParent(), "it-crash-");
        gif = Files.readAllBytes(Path.of(System.getProperty("medjava.root", "..")).resolve(
                "testdata/samples/gif/ct-small.gif"));
        int dicomPort = Ports.free();
        Random random = new Random(Long.getLong("crash.seed", System.nanoTime()));
        PayaraStore store = PayaraStore.named("crash")
                .property("medjava.dicom.port", Integer.toString(dicomPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.allowed-aets", "STORESCU")
                .start();
        long start = System.nanoTime();
        int done = 0;
        int disagreements = 0;
        int reconciled = 0;
        try {
            while (done < rounds && (done < minRounds || System.nanoTime() - start < box.toNanos())) {
                StoreClient client = StoreClient.admin(store);
                AtomicBoolean stop = new AtomicBoolean();
                ExecutorService writers = Executors.newFixedThreadPool(4);
                List<Future<?>> running = new ArrayList<>();
                for (int w = 0; w < 2; w++) {
                    int writer = w;
                    long seed = random.nextLong();
                    running.add(writers.submit(() -> putsAndDeletes(client, writer, new Random(seed), stop)));
                }
                running.add(writers.submit(() -> stow(client, stop)));
                running.add(writers.submit(() -> cstore(dicomPort, stop)));
                // writes flowing (a fresh JVM answers its first writes slowly), then a random moment among them
                int before = acknowledged.get();
                long flowing = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (acknowledged.get() < before + 8 && System.nanoTime() < flowing
                        && running.stream().noneMatch(Future::isDone)) {
                    Thread.sleep(100);
                }
                Thread.sleep(random.nextInt(3000));
                store.kill();
                stop.set(true);
                writers.shutdown();
                assertThat(writers.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
                for (Future<?> f : running) {
                    f.get(); // a writer's own failure (not the store's death) fails the test
                }
                store = store.restart();
                reconciled += reconciledAtStart(store);
                disagreements += verify(StoreClient.admin(store));
                done++;
            }
        } finally {
            store.close();
        }
        System.out.printf("crash rounds: %d rounds in %d s, %d writes acknowledged, %d refused, %d interrupted writes"
                        + " reconciled at start, %d disagreements%n", done,
                Duration.ofNanos(System.nanoTime() - start).toSeconds(), acknowledged.get(), refused.get(), reconciled,
                disagreements);
        assertThat(acknowledged.get()).as("writes acknowledged").isPositive();
        assertThat(disagreements).as("disagreements between the objects, the index and the acknowledgements")
                .isZero();
    }

    // ------------------------------------------------------------------------------------------------ the writers

    /** PUTs of DICOM and GIF and DELETEs over this writer's own six paths, until the store dies. */
    private Void putsAndDeletes(StoreClient client, int writer, Random random, AtomicBoolean stop) throws Exception {
        while (!stop.get()) {
            String path = "crash/put/w" + writer + "-" + random.nextInt(6); // no extension: DICOM and GIF alike
            PathState state = paths.computeIfAbsent(path, p -> new PathState());
            int what = random.nextInt(10);
            Version next;
            HttpRequest.Builder request = client.request("/images/" + path);
            if (what < 2) {
                next = ABSENT;
                request.DELETE();
            } else {
                byte[] body;
                if (what < 4) {
                    body = gif;
                    next = new Version(sha(body), null);
                } else {
                    String sop = newUid();
                    body = dicom(sop, PUT_SERIES);
                    next = new Version(sha(body), sop);
                }
                request.PUT(HttpRequest.BodyPublishers.ofByteArray(body));
            }
            state.inFlight = next;
            HttpResponse<String> r;
            try {
                r = client.sendText(request);
            } catch (IOException e) {
                return null; // the store died with this write in flight
            }
            if (r.statusCode() / 100 == 2) {
                state.acked = next;
                acknowledged.incrementAndGet();
            } else if (!(next == ABSENT && r.statusCode() == 404)) {
                assertThat(r.statusCode()).as("%s %s: %s", request.build().method(), path, r.body()).isIn(503);
                refused.incrementAndGet();
            }
            state.inFlight = null;
        }
        return null;
    }

    /** STOW-RS of one new instance at a time. */
    private Void stow(StoreClient client, AtomicBoolean stop) throws Exception {
        while (!stop.get()) {
            String sop = newUid();
            NetObject object = new NetObject(sop, STOW_SERIES, archivePath(STOW_SERIES, sop));
            netInFlight.put(sop, object);
            HttpResponse<String> r;
            try {
                r = client.sendText(client.request("/dicomweb/studies")
                        .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + BOUNDARY)
                        .header("Accept", "application/dicom+json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(Multipart.dicom(BOUNDARY,
                                List.of(dicom(sop, STOW_SERIES))))));
            } catch (IOException e) {
                return null;
            }
            netInFlight.remove(sop);
            if (r.statusCode() == 200) {
                netAcked.put(sop, object);
                acknowledged.incrementAndGet();
            } else {
                assertThat(r.statusCode()).as("STOW-RS: %s", r.body()).isIn(503);
                refused.incrementAndGet();
            }
        }
        return null;
    }

    /** C-STORE by storescu, one association per instance. */
    private Void cstore(int dicomPort, AtomicBoolean stop) throws Exception {
        Path dir = Files.createDirectories(work.resolve("net"));
        while (!stop.get()) {
            String sop = newUid();
            Path file = dir.resolve(sop + ".dcm");
            Files.write(file, dicom(sop, NET_SERIES));
            NetObject object = new NetObject(sop, NET_SERIES, archivePath(NET_SERIES, sop));
            netInFlight.put(sop, object);
            Command.Result r = Command.run(Command.of("storescu", "-v", "-aet", "STORESCU", "-aec", "MEDJAVA",
                    "127.0.0.1", dicomPort, file), work, 60);
            Files.delete(file);
            if (r.exitCode() != 0 || !r.output().contains("Received Store Response (Success)")) {
                return null; // the association broke: the store died with this object in flight (or before)
            }
            netInFlight.remove(sop);
            netAcked.put(sop, object);
            acknowledged.incrementAndGet();
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ the checks

    /** Every check after one restart; returns the disagreements found (each is printed). */
    private int verify(StoreClient client) throws Exception {
        List<String> problems = new ArrayList<>();
        Map<String, String> rows = new java.util.HashMap<>(); // path -> SOP Instance UID, from the index
        for (String series : List.of(PUT_SERIES, STOW_SERIES, NET_SERIES)) {
            HttpResponse<String> r = client.getJson("/index/series/" + series + "/instances");
            if (r.statusCode() == 200) {
                JsonArray list = Json.createReader(new StringReader(r.body())).readArray();
                for (JsonObject row : list.getValuesAs(JsonObject.class)) {
                    String previous = rows.put(row.getString("path"), row.getString("SOPInstanceUID"));
                    if (previous != null) {
                        problems.add("two index rows for " + row.getString("path"));
                    }
                }
            } else if (r.statusCode() != 404) {
                problems.add("index query of series " + series + ": " + r.statusCode());
            }
        }
        // the PUT/DELETE paths: the acknowledged version or the one in flight, whole, with its row (or none)
        for (Map.Entry<String, PathState> e : paths.entrySet()) {
            String path = e.getKey();
            PathState state = e.getValue();
            HttpResponse<byte[]> r = client.get("/images/" + path);
            Version now = r.statusCode() == 404 ? ABSENT : null;
            if (r.statusCode() == 200) {
                String sha = sha(r.body());
                now = sha.equals(state.acked.sha()) ? state.acked
                        : state.inFlight != null && sha.equals(state.inFlight.sha()) ? state.inFlight
                        : new Version(sha, "unknown");
            }
            if (now == null || !(now.equals(state.acked) || now.equals(state.inFlight))) {
                problems.add(path + ": serves " + (now == null ? "status " + r.statusCode() : now) + ", acknowledged "
                        + state.acked + ", in flight " + state.inFlight);
                continue;
            }
            String row = rows.remove(path);
            if (!java.util.Objects.equals(row, now.sop())) {
                problems.add(path + ": the index says " + row + ", the object is " + now.sop());
            } else if (now.sop() != null) {
                checkWado(client, PUT_SERIES, now.sop(), r.body(), problems);
            }
            state.acked = now;
            state.inFlight = null;
        }
        // the network's objects: every acknowledged one there, an interrupted one there whole or not at all
        for (NetObject o : netAcked.values()) {
            checkNet(client, o, rows, true, problems);
        }
        for (NetObject o : List.copyOf(netInFlight.values())) {
            if (checkNet(client, o, rows, false, problems)) {
                netAcked.put(o.sop(), o); // there whole: from now on it must stay
            }
            netInFlight.remove(o.sop());
        }
        for (String left : rows.keySet()) {
            problems.add(left + ": an index row for an object no writer wrote there");
        }
        problems.forEach(p -> System.out.println("crash disagreement: " + p));
        return problems.size();
    }

    /** @return whether the object is there */
    private boolean checkNet(StoreClient client, NetObject o, Map<String, String> rows, boolean acked,
                             List<String> problems) throws Exception {
        HttpResponse<byte[]> r = client.get("/images/" + o.path());
        String row = rows.remove(o.path());
        if (r.statusCode() == 404) {
            if (acked) {
                problems.add(o.path() + ": acknowledged, but gone");
            }
            if (row != null) {
                problems.add(o.path() + ": no object, but an index row for " + row);
            }
            return false;
        }
        if (r.statusCode() != 200 || !contains(r.body(), o.sop())) {
            problems.add(o.path() + ": " + r.statusCode() + ", not the object sent");
            return false;
        }
        if (!o.sop().equals(row)) {
            problems.add(o.path() + ": the index says " + row + ", the object is " + o.sop());
        } else {
            checkWado(client, o.series(), o.sop(), r.body(), problems);
        }
        return true;
    }

    /** WADO-RS by UID (through the index) answers the very bytes of the object at the indexed path. */
    private static void checkWado(StoreClient client, String series, String sop, byte[] file, List<String> problems)
            throws Exception {
        HttpResponse<byte[]> r = client.send(client.request("/dicomweb/studies/" + STUDY + "/series/" + series
                + "/instances/" + sop).header("Accept", "multipart/related; type=\"application/dicom\";"
                + " transfer-syntax=*"));
        if (r.statusCode() != 200) {
            problems.add("WADO-RS " + sop + ": " + r.statusCode());
            return;
        }
        List<Multipart.Part> parts = Multipart.parse(r.body(), r.headers().firstValue("Content-Type").orElse(""));
        if (parts.size() != 1 || !sha(parts.get(0).body()).equals(sha(file))) {
            problems.add("WADO-RS " + sop + ": " + parts.size() + " parts, not the stored object");
        }
    }

    /** The "intent journal: N interrupted writes reconciled" count of the start that just happened. */
    private static int reconciledAtStart(PayaraStore store) throws IOException {
        Path log = store.dataDir().resolve("logs/medjava.log");
        String text = (Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "") + store.log();
        Matcher m = Pattern.compile("intent journal: (\\d+) interrupted write").matcher(text);
        int last = -1;
        while (m.find()) {
            last = Integer.parseInt(m.group(1));
        }
        assertThat(last).as("the start logs its reconciliation").isGreaterThanOrEqualTo(0);
        return last;
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static String newUid() {
        return "1.2.826.0.1.3680043.9.91." + RUN + "." + UIDS.incrementAndGet();
    }

    private static String archivePath(String series, String sop) {
        return "dicom/" + PATIENT + "/" + STUDY + "/" + series + "/" + sop + ".dcm";
    }

    private byte[] dicom(String sop, String series) throws IOException {
        Path file = Files.createDirectories(work.resolve("gen")).resolve(sop + ".dcm");
        TestDicom.ct().patient(PATIENT, "Crash^Test").study(STUDY, "20240101").series(series, "CT", 1)
                .instance(sop, 1).writeTo(file);
        byte[] bytes = Files.readAllBytes(file);
        Files.delete(file);
        return bytes;
    }

    private static boolean contains(byte[] body, String ascii) {
        return new String(body, StandardCharsets.ISO_8859_1).contains(ascii);
    }

    private static String sha(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
