package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.json.Json;
import javax.json.JsonArray;
import javax.json.JsonObject;
import javax.json.JsonReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.core.backup.BackupClient;
import org.medjava.store.core.backup.BackupTool;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Backup and restore with real stores: a store is backed up while HTTP PUTs, a path replaced again and again and
 * DCMTK's storescu keep writing; the backup is restored into an empty data directory and a second store started on
 * it serves every write acknowledged before the snapshot byte for byte, with the same index rows, and no index row
 * without its object. A damaged backup and an occupied data directory are refused; bad backup requests get 4xx.
 */
class BackupRestoreIT {

    private static final Pattern SNAPSHOT = Pattern.compile("\"snapshot\":\"([^\"]+)\"");
    private static PayaraStore store;
    private static StoreClient admin;
    private static int dicomPort;
    private static Path work;
    private static final AtomicInteger UIDS = new AtomicInteger();
    private static final String RUN = Long.toString(System.currentTimeMillis());

    @BeforeAll
    static void start() throws Exception {
        dicomPort = Ports.free();
        store = PayaraStore.named("backup-a").seedPlugins()
                .property("medjava.dicom.port", Integer.toString(dicomPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.allowed-aets", "STORESCU")
                .start();
        admin = StoreClient.admin(store);
        work = Files.createTempDirectory(Path.of(System.getProperty("store.war")).getParent(), "it-backup-");
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    private static String newUid() {
        return "1.2.826.0.1.3680043.9.77." + RUN + "." + UIDS.incrementAndGet();
    }

    /** A CT of one of four studies (patients BK0..BK3), with a new SOP Instance UID. */
    private static byte[] dicom(String sopInstanceUid, String patientId, int study) throws Exception {
        Path file = TestDicom.ct().patient(patientId, "Backup^Test")
                .study("1.2.826.0.1.3680043.9.78." + RUN + "." + study, "20240101")
                .series("1.2.826.0.1.3680043.9.79." + RUN + "." + study, "CT", 1)
                .instance(sopInstanceUid, 1).writeTo(work.resolve("gen/" + sopInstanceUid + ".dcm"));
        byte[] bytes = Files.readAllBytes(file);
        Files.delete(file);
        return bytes;
    }

    /** What the writers had acknowledged, and when. */
    private static final class Acks {
        final Map<String, byte[]> bytes = new ConcurrentHashMap<>();
        final Map<String, Instant> at = new ConcurrentHashMap<>();
        final List<byte[]> replacements = new ArrayList<>();
        final List<Instant> replacementAt = new ArrayList<>();

        /** @param body what was sent, or null when the store keeps it otherwise (DICOM network) */
        void ack(String path, byte[] body) {
            if (body != null) {
                bytes.put(path, body);
            }
            at.put(path, Instant.now());
        }
    }

    @Test
    @Timeout(900)
    void aBackupUnderWritesRestoresEveryAcknowledgedObjectAndIndexRow() throws Exception {
        Acks acks = new Acks();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService writers = Executors.newFixedThreadPool(4);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            int writer = w;
            running.add(writers.submit(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String path = "bk/w" + writer + "/" + i + ".dcm";
                    byte[] body = dicom(newUid(), "BK" + (i % 4), i % 4);
                    HttpResponse<String> r = admin.put("/images/" + path, body);
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
                    acks.ack(path, body);
                }
                return null;
            }));
        }
        running.add(writers.submit(() -> {
            while (!stop.get()) {
                byte[] body = dicom(newUid(), "BK0", 0);
                HttpResponse<String> r = admin.put("/images/bk/replaced.dcm", body);
                assertThat(r.statusCode()).as(r.body()).isIn(201, 204);
                synchronized (acks) {
                    acks.replacements.add(body);
                    acks.replacementAt.add(Instant.now());
                }
            }
            return null;
        }));
        running.add(writers.submit(() -> { // the DICOM network: one association per object
            String study = "1.2.826.0.1.3680043.9.80." + RUN;
            String series = "1.2.826.0.1.3680043.9.81." + RUN;
            while (!stop.get()) {
                String sop = newUid();
                Path file = TestDicom.ct().patient("BKNET", "Backup^Net").study(study, "20240102")
                        .series(series, "CT", 2).instance(sop, 1).writeTo(work.resolve("net/" + sop + ".dcm"));
                Command.Result r = Command.run(Command.of("storescu", "-v", "-aet", "STORESCU", "-aec", "MEDJAVA",
                        "127.0.0.1", dicomPort, file)).assertOk();
                assertThat(r.output()).contains("Received Store Response (Success)");
                acks.ack("dicom/BKNET/" + study + "/" + series + "/" + sop + ".dcm", null);
            }
            return null;
        }));
        while (acks.at.size() < 20) {
            Thread.sleep(50);
            assertThat(running).noneMatch(Future::isDone);
        }

        // rules are part of the store: a retention rule and a routing rule (with its secret) come back with it
        assertThat(admin.postJson("/retention/rules", "{\"name\": \"BK after ten years\", \"basis\":"
                + " \"STUDY_DATE\", \"olderThanDays\": 3652, \"modality\": \"XA\", \"sourceAe\": \"BK_AE\","
                + " \"enabled\": false}").statusCode()).isEqualTo(201);
        assertThat(admin.sendText(admin.request("/routes/rules/bk-archive").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"match\": {\"PatientID\": \"BK-NOBODY\"},"
                        + " \"destination\": {\"kind\": \"stow\", \"url\": \"http://127.0.0.1:9/dicomweb/studies\","
                        + " \"auth\": \"Basic Yms6Yms=\"}, \"deidentify\": [], \"enabled\": false}"))).statusCode())
                .isEqualTo(200);

        Path backup = work.resolve("backup");
        String result = new BackupClient(store.uri("/"), "admin", PayaraStore.ADMIN_PASSWORD)
                .backup(backup.toString(), Duration.ofMinutes(5), (state, status) -> { });
        Matcher m = SNAPSHOT.matcher(result);
        assertThat(m.find()).as(result).isTrue();
        Instant snapshot = Instant.parse(m.group(1));
        int after = acks.at.size();
        while (acks.at.size() < after + 8) {
            Thread.sleep(50);
        }
        stop.set(true);
        for (Future<?> f : running) {
            f.get(120, TimeUnit.SECONDS);
        }
        writers.shutdown();

        // a damaged copy of the backup is refused before anything is written
        Path damaged = copy(backup, work.resolve("damaged"));
        Path object;
        try (Stream<Path> files = Files.walk(damaged.resolve("objects/bk/w0"))) {
            object = files.filter(Files::isRegularFile).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(object);
        bytes[bytes.length - 1] ^= 0x55;
        Files.write(object, bytes);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        BackupTool tool = new BackupTool(System.out, new PrintStream(err, true));
        Path refusedTarget = work.resolve("refused-data");
        assertThat(tool.run("restore", damaged.toString(), "--data", refusedTarget.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("damaged", "checksum differs", "nothing was restored");
        assertThat(refusedTarget).doesNotExist();
        // so is the data directory of the running store, without --force (and with it: the store is running)
        assertThat(tool.run("restore", backup.toString(), "--data", store.dataDir().toString())).isEqualTo(1);
        assertThat(err.toString()).contains("is not empty");
        assertThat(tool.run("restore", backup.toString(), "--data", store.dataDir().toString(), "--force"))
                .isEqualTo(1);
        assertThat(err.toString()).contains("a store is running");

        Path restored = work.resolve("restored-data");
        assertThat(tool.run("restore", backup.toString(), "--data", restored.toString())).isEqualTo(0);
        try (PayaraStore second = PayaraStore.named("backup-b").dataDir(restored).start()) {
            StoreClient b = StoreClient.admin(second);
            int before = 0;
            for (Map.Entry<String, Instant> ack : acks.at.entrySet()) {
                if (ack.getValue().isBefore(snapshot)) {
                    before++;
                    HttpResponse<byte[]> r = b.get("/images/" + ack.getKey());
                    assertThat(r.statusCode()).as(ack.getKey()).isEqualTo(200);
                    // a C-STORE is kept with the store's own file meta information: compare with what A serves
                    byte[] expected = ack.getKey().startsWith("dicom/") ? admin.get("/images/" + ack.getKey()).body()
                            : acks.bytes.get(ack.getKey());
                    assertThat(r.body()).as(ack.getKey()).isEqualTo(expected);
                }
            }
            assertThat(before).isGreaterThanOrEqualTo(20);
            assertThat(acks.at.keySet()).anyMatch(p -> p.startsWith("dicom/BKNET/") && acks.at.get(p)
                    .isBefore(snapshot));
            assertReplacedPathHoldsASnapshotVersion(b, acks, snapshot);
            assertSameRows(b, acks, snapshot);
            assertEveryRowHasItsObject(b, restored);
            assertThat(pluginIds(b)).isEqualTo(pluginIds(admin)).isNotEmpty();
            assertThat(b.getJson("/retention/rules").body()).isEqualTo(admin.getJson("/retention/rules").body())
                    .contains("BK after ten years", "BK_AE");
            assertThat(b.getJson("/routes/rules").body()).isEqualTo(admin.getJson("/routes/rules").body())
                    .contains("bk-archive");
        }
    }

    /** The replaced path: the last version acknowledged before the snapshot, or one acknowledged after it. */
    private static void assertReplacedPathHoldsASnapshotVersion(StoreClient b, Acks acks, Instant snapshot)
            throws Exception {
        byte[] kept = b.get("/images/bk/replaced.dcm").body();
        int version = -1;
        int lastBefore = -1;
        synchronized (acks) {
            for (int i = 0; i < acks.replacements.size(); i++) {
                if (Arrays.equals(acks.replacements.get(i), kept)) {
                    version = i;
                }
                if (acks.replacementAt.get(i).isBefore(snapshot)) {
                    lastBefore = i;
                }
            }
        }
        assertThat(version).isGreaterThanOrEqualTo(0).isGreaterThanOrEqualTo(lastBefore);
    }

    /** Every acknowledged-before object's study and instance row is in the restored index as in the original. */
    private static void assertSameRows(StoreClient b, Acks acks, Instant snapshot) throws Exception {
        Set<String> studies = new TreeSet<>();
        for (JsonObject study : array(admin, "/index/studies?limit=0").getValuesAs(JsonObject.class)) {
            for (JsonObject series : array(admin, "/index/studies/" + study.getString("StudyInstanceUID")
                    + "/series").getValuesAs(JsonObject.class)) {
                String uid = series.getString("SeriesInstanceUID");
                Map<String, JsonObject> restoredRows = new java.util.HashMap<>();
                for (JsonObject row : array(b, "/index/series/" + uid + "/instances").getValuesAs(JsonObject.class)) {
                    restoredRows.put(row.getString("path"), row);
                }
                for (JsonObject row : array(admin, "/index/series/" + uid + "/instances")
                        .getValuesAs(JsonObject.class)) {
                    String path = row.getString("path");
                    Instant ack = acks.at.get(path);
                    if (ack != null && ack.isBefore(snapshot)) {
                        assertThat(restoredRows.get(path)).as(path).isEqualTo(row);
                        studies.add(study.getString("StudyInstanceUID"));
                    }
                }
            }
        }
        Set<String> restoredStudies = new TreeSet<>();
        array(b, "/index/studies?limit=0").getValuesAs(JsonObject.class)
                .forEach(s -> restoredStudies.add(s.getString("StudyInstanceUID")));
        assertThat(restoredStudies).containsAll(studies);
        assertThat(studies).hasSizeGreaterThanOrEqualTo(2);
    }

    /** No index row without its object, and no DICOM object without its row. */
    private static void assertEveryRowHasItsObject(StoreClient b, Path restored) throws Exception {
        int rows = 0;
        for (JsonObject study : array(b, "/index/studies?limit=0").getValuesAs(JsonObject.class)) {
            for (JsonObject series : array(b, "/index/studies/" + study.getString("StudyInstanceUID") + "/series")
                    .getValuesAs(JsonObject.class)) {
                for (JsonObject row : array(b, "/index/series/" + series.getString("SeriesInstanceUID")
                        + "/instances").getValuesAs(JsonObject.class)) {
                    rows++;
                    assertThat(b.get("/images/" + row.getString("path")).statusCode()).as(row.getString("path"))
                            .isEqualTo(200);
                }
            }
        }
        long objects;
        try (Stream<Path> files = Files.walk(restored.resolve("images"))) {
            objects = files.filter(p -> p.toString().endsWith(".dcm")).count();
        }
        assertThat(rows).isEqualTo(objects);
    }

    private static Set<String> pluginIds(StoreClient client) throws Exception {
        Set<String> ids = new TreeSet<>();
        Matcher m = Pattern.compile("\"id\"\\s*:\\s*\"([a-z-]+)\"").matcher(client.getJson("/filters").body());
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    private static JsonArray array(StoreClient client, String path) throws Exception {
        HttpResponse<String> r = client.getJson(path);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        try (JsonReader reader = Json.createReader(new StringReader(r.body()))) {
            return reader.readArray();
        }
    }

    @Test
    void badBackupRequestsAreRefusedWithNothingWritten() throws Exception {
        Path full = Files.createDirectories(work.resolve("full"));
        Files.writeString(full.resolve("keep.txt"), "mine");
        assertThat(postBackup(admin, full.toString()).statusCode()).isEqualTo(409);
        assertThat(full.resolve("keep.txt")).hasContent("mine");
        assertThat(Files.list(full).count()).isEqualTo(1);
        assertThat(postBackup(admin, "relative/backup").statusCode()).isEqualTo(400);
        assertThat(postBackup(admin, work + "/x/../escape").statusCode()).isEqualTo(400);
        HttpResponse<String> inside = postBackup(admin, store.dataDir().resolve("backup").toString());
        assertThat(inside.statusCode()).isEqualTo(400);
        assertThat(inside.body()).contains("outside the store's data directory");
        assertThat(store.dataDir().resolve("backup")).doesNotExist();
        assertThat(postBackup(new StoreClient(store, null), work.resolve("anonymous").toString()).statusCode())
                .isEqualTo(401);

        HttpResponse<String> created = admin.sendText(admin.request("/admin/users/bk-uploader")
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"password\":\"uploader-password-1\",\"role\":\"uploader\"}")));
        assertThat(created.statusCode()).isIn(201, 204);
        StoreClient uploader = new StoreClient(store, PayaraStore.basic("bk-uploader", "uploader-password-1"));
        assertThat(postBackup(uploader, work.resolve("by-uploader").toString()).statusCode()).isEqualTo(403);
        HttpResponse<String> asJob = uploader.sendText(uploader.request("/jobs").header("Content-Type",
                "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"kind\":\"backup\",\"params\":"
                + "{\"directory\":\"" + work.resolve("by-uploader-job") + "\"}}")));
        assertThat(asJob.statusCode()).isEqualTo(403);
        assertThat(work.resolve("by-uploader")).doesNotExist();
        assertThat(work.resolve("by-uploader-job")).doesNotExist();
    }

    private static HttpResponse<String> postBackup(StoreClient client, String directory) throws Exception {
        return client.sendText(client.request("/admin/backup").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"directory\":\"" + directory + "\"}")));
    }

    private static Path copy(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t);
                }
            }
        }
        return to;
    }
}
