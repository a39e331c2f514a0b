package org.medjava.store.core.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.WriteBarrier;
import org.medjava.store.core.jobs.JobKind;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.TestCallers;
import org.medjava.store.testkit.Samples;

/**
 * A backup of a store in this JVM (files, embedded H2, the real ingest door) and its restore: the snapshot's versions
 * survive replacements and deletes during the copy, writes acknowledged before the snapshot are all in and the index
 * matches the objects, damaged backups and occupied data directories are refused with nothing touched.
 */
class StoreBackupTest {

    @TempDir
    Path dir;
    private Path data;
    private LocalFileStorage storage;
    private DicomIndex index;
    private Ingest ingest;
    private StoreBackup backup;
    private final AtomicInteger uids = new AtomicInteger();

    @BeforeEach
    void open() throws IOException {
        data = dir.resolve("data");
        storage = new LocalFileStorage(data.resolve("images"));
        index = new DicomIndex(IndexDatabase.h2(data.resolve("index")));
        ingest = Ingest.builder(new ImageRepository(storage, 1 << 24), index, new UploadValidator(1 << 24),
                DuplicatePolicy.REJECT).barrier(new WriteBarrier(Duration.ofSeconds(20))).build();
        Files.createDirectories(data.resolve("plugins/.staging"));
        Files.writeString(data.resolve("plugins/blur.jar"), "a plugin");
        Files.writeString(data.resolve("plugins/blur.suspended"), "");
        Files.writeString(data.resolve("plugins/.staging/half.jar"), "not yet");
        Files.writeString(data.resolve(StoreBackup.ACCOUNTS_FILE), "admin=hash\n");
        Files.createDirectories(data.resolve("retention"));
        Files.writeString(data.resolve("retention/r1.rule"), "name=CR after ten years\n");
        Files.writeString(data.resolve("retention/r2.tmp"), "half written");
        Files.createDirectories(data.resolve("routes"));
        Files.writeString(data.resolve("routes/archive.route"), "name=archive\nsecret=s\n");
        Files.write(data.resolve("deid.key"), new byte[32]);
        Files.write(data.resolve("session.key"), new byte[32]);
        backup = new StoreBackup(StoreBackup.Sources.local(storage, index.database(), ingest.barrier(), data,
                data.resolve("plugins")));
    }

    @AfterEach
    void close() {
        index.close();
    }

    private byte[] dicom(String sopInstanceUid) throws IOException {
        Path file = TestDicom.ct().patient("BACKUP-" + (sopInstanceUid.hashCode() & 3), "Backup^Test")
                .study("1.2.826.0.1.3680043.9.7." + (sopInstanceUid.hashCode() & 3), "20240101")
                .series("1.2.826.0.1.3680043.9.8." + (sopInstanceUid.hashCode() & 3), "CT", 1)
                .instance(sopInstanceUid, 1).writeTo(dir.resolve("work/" + sopInstanceUid + ".dcm"));
        byte[] bytes = Files.readAllBytes(file);
        Files.delete(file);
        return bytes;
    }

    private String newUid() {
        return "1.2.826.0.1.3680043.9.9." + uids.incrementAndGet();
    }

    private void put(String path, byte[] bytes) throws IOException {
        ingest.put(StorePath.parse(path), new ByteArrayInputStream(bytes), bytes.length, null, Preconditions.NONE,
                TestCallers.USER);
    }

    private BackupInfo backUp(Path target, JobKind.Progress progress) throws IOException {
        return backup.run(backup.prepareTarget(target.toString()), progress);
    }

    @Test
    void holdsTheSnapshotVersionsOfObjectsReplacedOrDeletedDuringTheCopy() throws Exception {
        byte[] a1 = dicom(newUid());
        byte[] b = dicom(newUid());
        byte[] gif = Samples.bytes(Samples.gif("color.gif"));
        put("cases/a.dcm", a1);
        put("cases/b.dcm", b);
        put("cases/c.gif", gif);
        byte[] a2 = dicom(newUid());
        AtomicBoolean changed = new AtomicBoolean();

        BackupInfo info = backUp(dir.resolve("backup"), (done, total) -> {
            if (changed.compareAndSet(false, true)) { // after the snapshot, before the objects are copied
                try {
                    put("cases/a.dcm", a2);
                    ingest.delete(StorePath.parse("cases/b.dcm"), Preconditions.NONE, TestCallers.USER);
                    put("cases/d.dcm", dicom(newUid()));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        assertThat(changed).isTrue();
        assertThat(info.objects()).isEqualTo(3);
        assertThat(info.index()).isEqualTo("h2");
        try (Stream<Path> left = Files.list(storage.root())) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".backup-"));
        }

        Path restored = dir.resolve("restored");
        StoreRestore.Result r = StoreRestore.restore(dir.resolve("backup"), restored, false);
        assertThat(r.movedAside()).isNull();
        assertThat(r.indexNote()).isNull();
        assertThat(restored.resolve("images/cases/a.dcm")).hasBinaryContent(a1);
        assertThat(restored.resolve("images/cases/b.dcm")).hasBinaryContent(b);
        assertThat(restored.resolve("images/cases/c.gif")).hasBinaryContent(gif);
        assertThat(restored.resolve("images/cases/d.dcm")).doesNotExist();
        assertThat(restored.resolve("plugins/blur.jar")).hasContent("a plugin");
        assertThat(restored.resolve("plugins/blur.suspended")).exists();
        assertThat(restored.resolve("plugins/.staging")).doesNotExist();
        assertThat(restored.resolve(StoreBackup.ACCOUNTS_FILE)).hasContent("admin=hash");
        // the rules come back where the store reads them, the owner's alone (a route holds its secret)
        assertThat(restored.resolve("retention/r1.rule")).hasContent("name=CR after ten years");
        assertThat(restored.resolve("retention/r2.tmp")).doesNotExist();
        assertThat(restored.resolve("routes/archive.route")).hasContent("name=archive\nsecret=s");
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(
                restored.resolve("routes/archive.route")))).isEqualTo("rw-------");
        assertThat(restored.resolve("deid.key")).hasBinaryContent(new byte[32]);
        assertThat(restored.resolve("session.key")).as("everyone signs in again").doesNotExist();
        assertThat(restored.resolve(StoreRestore.SEEDED_MARKER)).exists();
        assertIndexMatchesObjects(restored);
    }

    @Test
    @Timeout(300)
    void everyWriteAcknowledgedBeforeTheSnapshotIsInAndTheIndexMatchesTheObjects() throws Exception {
        Map<String, byte[]> written = new ConcurrentHashMap<>();
        Map<String, Instant> acknowledged = new ConcurrentHashMap<>();
        List<Instant> replacementAcks = java.util.Collections.synchronizedList(new ArrayList<>());
        List<byte[]> replacements = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService writers = Executors.newFixedThreadPool(4);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int writer = w;
            running.add(writers.submit(() -> {
                for (int i = 0; !stop.get(); i++) {
                    String path = "load/w" + writer + "/" + i + ".dcm";
                    byte[] bytes = dicom(newUid());
                    put(path, bytes);
                    written.put(path, bytes);
                    acknowledged.put(path, Instant.now());
                }
                return null;
            }));
        }
        running.add(writers.submit(() -> { // one path replaced again and again
            while (!stop.get()) {
                byte[] bytes = dicom(newUid());
                put("load/replaced.dcm", bytes);
                synchronized (replacements) {
                    replacements.add(bytes);
                    replacementAcks.add(Instant.now());
                }
            }
            return null;
        }));
        while (acknowledged.size() < 30) {
            Thread.sleep(20);
        }
        BackupInfo info = backUp(dir.resolve("backup"), (done, total) -> {
        });
        int after = acknowledged.size();
        while (acknowledged.size() < after + 10) {
            Thread.sleep(20);
        }
        stop.set(true);
        for (Future<?> f : running) {
            f.get(60, TimeUnit.SECONDS);
        }
        writers.shutdown();

        Path restored = dir.resolve("restored");
        StoreRestore.restore(dir.resolve("backup"), restored, false);
        int before = 0;
        for (Map.Entry<String, Instant> ack : acknowledged.entrySet()) {
            if (ack.getValue().isBefore(info.snapshot())) {
                before++;
                assertThat(restored.resolve("images/" + ack.getKey())).as(ack.getKey())
                        .hasBinaryContent(written.get(ack.getKey()));
            }
        }
        assertThat(before).isGreaterThanOrEqualTo(30);
        assertThat(info.objects()).isLessThan(acknowledged.size() + 1);
        // the replaced path holds the last version acknowledged before the snapshot, or one acknowledged after it
        byte[] kept = Files.readAllBytes(restored.resolve("images/load/replaced.dcm"));
        int version = -1;
        int lastBefore = -1;
        synchronized (replacements) {
            for (int i = 0; i < replacements.size(); i++) {
                if (java.util.Arrays.equals(replacements.get(i), kept)) {
                    version = i;
                }
                if (replacementAcks.get(i).isBefore(info.snapshot())) {
                    lastBefore = i;
                }
            }
        }
        assertThat(version).isGreaterThanOrEqualTo(lastBefore).isGreaterThanOrEqualTo(0);
        assertIndexMatchesObjects(restored);
    }

    /** Every DICOM object of the restored store is indexed with its own SOP Instance UID, and nothing else is. */
    private static void assertIndexMatchesObjects(Path restoredData) throws IOException {
        Path images = restoredData.resolve("images");
        List<Path> dicomFiles;
        try (Stream<Path> files = Files.walk(images)) {
            dicomFiles = files.filter(p -> p.toString().endsWith(".dcm")).toList();
        }
        try (DicomIndex restored = new DicomIndex(IndexDatabase.h2(restoredData.resolve("index")))) {
            for (Path f : dicomFiles) {
                String path = BackupManifest.relative(images, f);
                InstanceSummary row = restored.instance(path).orElseThrow(() -> new AssertionError(
                        "no index row for " + path));
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                        .as(path).contains(row.sopInstanceUid());
            }
            assertThat(restored.count()).isEqualTo(dicomFiles.size());
        }
    }

    @Test
    void aDamagedBackupIsRefusedBeforeAnythingIsTouched() throws Exception {
        put("cases/a.dcm", dicom(newUid()));
        put("cases/b.dcm", dicom(newUid()));
        Path good = dir.resolve("backup");
        backUp(good, (done, total) -> {
        });
        assertThat(StoreRestore.verify(good).objects()).isEqualTo(2);

        Path flipped = copyOf(good, "flipped");
        Path object = flipped.resolve("objects/cases/a.dcm");
        byte[] bytes = Files.readAllBytes(object);
        bytes[bytes.length / 2] ^= 1;
        Files.write(object, bytes);
        Path missing = copyOf(good, "missing");
        Files.delete(missing.resolve("objects/cases/b.dcm"));
        Path manifestEdited = copyOf(good, "manifest-edited");
        Path manifest = manifestEdited.resolve(BackupManifest.FILE);
        Files.writeString(manifest, Files.readString(manifest).replace("cases/b.dcm", "cases/c.dcm"));
        Path unfinished = copyOf(good, "unfinished");
        Files.delete(unfinished.resolve(BackupInfo.FILE));

        for (Path damaged : List.of(flipped, missing, manifestEdited, unfinished)) {
            Path target = dir.resolve("target-" + damaged.getFileName());
            assertThatThrownBy(() -> StoreRestore.restore(damaged, target, false)).as(damaged.toString())
                    .isInstanceOf(BackupException.class);
            assertThat(target).doesNotExist();
        }
        assertThatThrownBy(() -> StoreRestore.restore(flipped, dir.resolve("t"), true))
                .hasMessageContaining("objects/cases/a.dcm: checksum differs");
    }

    @Test
    void anOccupiedDataDirectoryIsRefusedUnlessForcedAndThenMovedAsideNotDeleted() throws Exception {
        byte[] a = dicom(newUid());
        put("cases/a.dcm", a);
        Path good = dir.resolve("backup");
        backUp(good, (done, total) -> {
        });
        Path occupied = Files.createDirectories(dir.resolve("occupied/images/old"));
        occupied = occupied.getParent().getParent();
        Files.writeString(occupied.resolve("images/old/mine.txt"), "keep me");

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        BackupTool tool = new BackupTool(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        assertThat(tool.run("restore", good.toString(), "--data", occupied.toString())).isEqualTo(1);
        assertThat(err.toString()).contains("is not empty", "--force");
        assertThat(occupied.resolve("images/old/mine.txt")).hasContent("keep me");
        assertThat(occupied.resolve("images/cases")).doesNotExist();

        assertThat(tool.run("restore", good.toString(), "--data", occupied.toString(), "--force")).isEqualTo(0);
        assertThat(occupied.resolve("images/cases/a.dcm")).hasBinaryContent(a);
        assertThat(occupied.resolve("images/old")).doesNotExist();
        try (Stream<Path> siblings = Files.list(dir)) {
            Path aside = siblings.filter(p -> p.getFileName().toString().startsWith("occupied.before-restore-"))
                    .findFirst().orElseThrow();
            assertThat(aside.resolve("images/old/mine.txt")).hasContent("keep me");
        }

        // the data directory of a running store (its index open) is refused even when forced
        assertThatThrownBy(() -> StoreRestore.restore(good, data, true)).isInstanceOf(BackupException.class)
                .hasMessageContaining("a store is running").extracting(e -> ((StoreException) e).kind())
                .isEqualTo(StoreException.Kind.CONFLICT);
        assertThat(storage.root().resolve("cases/a.dcm")).exists();
        assertThat(tool.run("restore", good.toString())).isEqualTo(2);
    }

    @Test
    void aStoppedStoreIsBackedUpOfflineByTheTool() throws Exception {
        byte[] a = dicom(newUid());
        put("cases/a.dcm", a);
        index.close();
        Path target = dir.resolve("offline");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BackupTool tool = new BackupTool(new PrintStream(out), System.err);
        assertThat(tool.run("backup", target.toString(), "--data", data.toString())).isEqualTo(0);
        assertThat(out.toString()).contains("backup done", "\"objects\":1");
        Path restored = dir.resolve("restored");
        assertThat(tool.run("restore", target.toString(), "--data", restored.toString())).isEqualTo(0);
        assertThat(restored.resolve("images/cases/a.dcm")).hasBinaryContent(a);
        assertIndexMatchesObjects(restored);
        index = new DicomIndex(IndexDatabase.h2(data.resolve("index"))); // for close()
    }

    private Path copyOf(Path backupDir, String name) throws IOException {
        Path copy = dir.resolve(name);
        try (Stream<Path> files = Files.walk(backupDir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path to = copy.resolve(backupDir.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        return copy;
    }
}
