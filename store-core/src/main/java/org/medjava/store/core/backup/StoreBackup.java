package org.medjava.store.core.backup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.IndexBackup;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.WriteBarrier;
import org.medjava.store.core.jobs.JobKind;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.storage.StorageEntry;

/**
 * A backup of a store as one consistent snapshot of its objects and its index, taken while it runs.
 *
 * <p>The snapshot: the ingest door is held ({@link WriteBarrier}: writes in flight finish, new ones wait), the index
 * is copied ({@link IndexBackup}), the objects are listed and — on the file system — hard-linked into a hidden
 * holding directory beside them, the accounts, plugins and rules are copied; then the door opens again. A stored object
 * is never changed in place (a replacement is a new file renamed over the old one, a delete an unlink), so a link
 * keeps exactly the version the index copy describes while the store goes on writing, and the objects are copied
 * from the links afterwards. On S3 the objects are copied from the bucket after the pause and each must still have
 * the ETag it had at the snapshot; one replaced or deleted meanwhile fails the backup (try again, or use the
 * bucket's versioning).
 *
 * <p>The pause is bounded: a snapshot that takes longer than the barrier's {@link WriteBarrier#maxPause} is given
 * up (writes continue and the backup fails saying so). One backup at a time.
 *
 * <p>Layout of a backup: {@code objects/<store path>}, {@code index/index.zip} (H2) or {@code index/index.pgdump}
 * (PostgreSQL), {@code accounts/users.properties}, {@code plugins/*}, {@code rules/retention/*} and
 * {@code rules/routes/*} (one node's retention and routing rules), {@code keys/deid.key},
 * {@value BackupManifest#FILE} and
 * {@value BackupInfo#FILE} (written last).
 */
public final class StoreBackup {

    /** The job kind a backup runs as ({@code POST /admin/backup} submits it; admins only). */
    public static final String JOB_KIND = "backup";
    public static final String OBJECTS = "objects";
    public static final String INDEX = "index";
    public static final String ACCOUNTS = "accounts";
    public static final String PLUGINS = "plugins";
    /** Where a backup keeps the directories of rules ({@code rules/<directory>/<file>}). */
    public static final String RULES = "rules";
    /** The directories of rules a data directory may have: the retention rules' and the routing rules'. */
    public static final List<String> RULE_DIRECTORIES = List.of("retention", "routes");
    /** Where a backup keeps the store's keys that must outlive a restore ({@code keys/<file>}). */
    public static final String KEYS = "keys";
    /**
     * The keys kept: the de-identification key (move destinations' UIDs stay the same after a restore). Not the
     * session key: after a restore everyone signs in again.
     */
    public static final List<String> KEY_FILES = List.of("deid.key");
    /** The accounts file, in the data directory and in a backup's {@value #ACCOUNTS}/. */
    public static final String ACCOUNTS_FILE = "users.properties";
    static final String HOLDING_PREFIX = ".backup-";

    private static final Logger LOG = Logger.getLogger(StoreBackup.class.getName());
    private static final int PROGRESS_EVERY = 64;

    /**
     * What a backup copies.
     *
     * @param accountsFile the accounts file, or null when the accounts are elsewhere (a cluster's database)
     * @param ruleDirs     the directories of the data directory that hold rules (retention, routing), each restored
     *                     under its own name; none when the rules are in a cluster's database (its dump has them)
     * @param keyFiles     the key files of {@link #KEY_FILES} to keep; none on a cluster (its database has them)
     */
    public record Sources(ObjectStorage storage, IndexDatabase index, WriteBarrier barrier, Path dataDir,
                          Path accountsFile, Path pluginsDir, List<Path> ruleDirs, List<Path> keyFiles) {
        public Sources {
            for (Path dir : ruleDirs) {
                if (!RULE_DIRECTORIES.contains(dir.getFileName().toString())) {
                    throw new IllegalArgumentException("not a directory of rules: " + dir);
                }
            }
            for (Path key : keyFiles) {
                if (!KEY_FILES.contains(key.getFileName().toString())) {
                    throw new IllegalArgumentException("not a key the backup keeps: " + key);
                }
            }
        }

        /** What a single store keeps in {@code dataDir}: its accounts, rules and keys there. */
        public static Sources local(ObjectStorage storage, IndexDatabase index, WriteBarrier barrier, Path dataDir,
                Path pluginsDir) {
            return new Sources(storage, index, barrier, dataDir, dataDir.resolve(ACCOUNTS_FILE), pluginsDir,
                    RULE_DIRECTORIES.stream().map(dataDir::resolve).toList(),
                    KEY_FILES.stream().map(dataDir::resolve).toList());
        }
    }

    private final Sources sources;
    private final AtomicBoolean running = new AtomicBoolean();

    public StoreBackup(Sources sources) {
        this.sources = sources;
    }

    /** Whether a backup is running now. */
    public boolean isRunning() {
        return running.get();
    }

    /** Checks {@code requested} as a backup directory and creates it (see {@link BackupTarget}). */
    public Path prepareTarget(String requested) throws IOException {
        return BackupTarget.prepare(requested, sources.dataDir());
    }

    /**
     * Writes a backup into {@code target} (new or empty, from {@link #prepareTarget}). A failed backup removes what
     * it wrote there.
     *
     * @throws BackupException CONFLICT while another backup runs; UNAVAILABLE when the snapshot could not be taken
     *                         in time or an S3 object changed during the copy
     */
    public BackupInfo run(Path target, JobKind.Progress progress) throws IOException {
        if (!running.compareAndSet(false, true)) {
            throw new BackupException(StoreException.Kind.CONFLICT, "a backup is running already; wait for it");
        }
        Path holding = null;
        boolean finished = false;
        try {
            if (!BackupTarget.isEmpty(target)) {
                throw new BackupException(StoreException.Kind.CONFLICT, target + " is not empty");
            }
            BackupManifest manifest = BackupManifest.empty();
            Snapshot snapshot;
            LocalFileStorage local = sources.storage() instanceof LocalFileStorage l ? l : null;
            if (local != null) {
                removeLeftOverHoldings(local.root());
                holding = local.root().resolve(HOLDING_PREFIX + UUID.randomUUID());
            }
            snapshot = snapshot(target, holding, manifest);
            long bytes = copyObjects(snapshot.objects(), holding, target, manifest, progress);
            String manifestSum = manifest.write(target);
            BackupInfo info = new BackupInfo(snapshot.instant(), IndexBackup.isH2(sources.index()) ? "h2"
                    : "postgresql", sources.storage().describe(), snapshot.objects().size(), bytes,
                    snapshot.pause().toMillis(), manifestSum);
            info.write(target);
            finished = true;
            LOG.info("backup written to " + target + ": snapshot at " + info.snapshot() + ", " + info.objects()
                    + " objects, " + info.bytes() + " bytes; writes paused " + info.pauseMillis() + " ms");
            return info;
        } finally {
            if (holding != null) {
                deleteTree(holding);
            }
            if (!finished) {
                emptyDirectory(target);
            }
            running.set(false);
        }
    }

    /** The state at the snapshot: its instant, the objects then, and how long writes were paused. */
    private record Snapshot(Instant instant, List<StorageEntry> objects, Duration pause) {
    }

    private Snapshot snapshot(Path target, Path holding, BackupManifest manifest) throws IOException {
        WriteBarrier barrier = sources.barrier();
        Duration limit = barrier.maxPause();
        try (WriteBarrier.Hold hold = barrier.hold()) {
            long start = System.nanoTime();
            Instant instant = Instant.now();
            IndexBackup.write(sources.index(), target.resolve(INDEX));
            List<StorageEntry> objects = new ArrayList<>();
            sources.storage().walk("", e -> {
                if (!e.directory()) {
                    objects.add(e);
                }
            });
            if (holding != null) {
                Path root = ((LocalFileStorage) sources.storage()).root();
                for (int i = 0; i < objects.size(); i++) {
                    Path link = holding.resolve(objects.get(i).key());
                    Files.createDirectories(link.getParent());
                    Files.createLink(link, root.resolve(objects.get(i).key()));
                    if (i % 256 == 255 && System.nanoTime() - start > limit.toNanos()) {
                        throw new BackupException(StoreException.Kind.UNAVAILABLE, "the snapshot took longer than "
                                + limit.toSeconds() + " s (" + (i + 1) + " of " + objects.size() + " objects held);"
                                + " writes continue and no backup was written: raise medjava.backup.max-pause-seconds"
                                + " or back the stopped store up offline");
                    }
                }
            }
            copySmallFiles(target, manifest);
            return new Snapshot(instant, objects, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /** The accounts, the plugins, the rules and the keys: small, copied during the pause. */
    private void copySmallFiles(Path target, BackupManifest manifest) throws IOException {
        if (sources.accountsFile() != null && Files.isRegularFile(sources.accountsFile())) {
            copyFile(sources.accountsFile(), target, ACCOUNTS + "/" + ACCOUNTS_FILE, manifest);
        }
        copyDirectory(sources.pluginsDir(), target, PLUGINS, manifest);
        for (Path dir : sources.ruleDirs()) {
            copyDirectory(dir, target, RULES + "/" + dir.getFileName(), manifest);
        }
        for (Path key : sources.keyFiles()) {
            if (Files.isRegularFile(key, LinkOption.NOFOLLOW_LINKS)) {
                copyFile(key, target, KEYS + "/" + key.getFileName(), manifest);
            }
        }
    }

    /** The regular files of {@code dir} (not hidden: no rule or plugin being written) into {@code target/into}. */
    private static void copyDirectory(Path dir, Path target, String into, BackupManifest manifest)
            throws IOException {
        if (dir == null || !Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
                String name = f.getFileName().toString();
                if (!name.startsWith(".") && !name.endsWith(".tmp")
                        && Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) {
                    copyFile(f, target, into + "/" + name, manifest);
                }
            }
        }
    }

    private static void copyFile(Path from, Path target, String relative, BackupManifest manifest)
            throws IOException {
        try (InputStream in = Files.newInputStream(from)) {
            manifest.add(relative, write(in, target.resolve(relative)));
        }
    }

    /** Copies the objects of the snapshot into {@code target/objects}; returns their bytes. */
    private long copyObjects(List<StorageEntry> objects, Path holding, Path target, BackupManifest manifest,
                             JobKind.Progress progress) throws IOException {
        Path indexDir = target.resolve(INDEX);
        try (Stream<Path> files = Files.list(indexDir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                manifest.add(INDEX + "/" + f.getFileName(), BackupManifest.sha256Of(f));
            }
        }
        long bytes = 0;
        progress.update(0, objects.size());
        for (int i = 0; i < objects.size(); i++) {
            StorageEntry object = objects.get(i);
            String relative = OBJECTS + "/" + object.key();
            if (holding != null) {
                try (InputStream in = Files.newInputStream(holding.resolve(object.key()))) {
                    manifest.add(relative, write(in, target.resolve(relative)));
                }
            } else {
                manifest.add(relative, copyUnchanged(object, target.resolve(relative)));
            }
            bytes += object.size();
            if (i % PROGRESS_EVERY == PROGRESS_EVERY - 1) {
                progress.update(i + 1, objects.size());
            }
        }
        progress.update(objects.size(), objects.size());
        return bytes;
    }

    /** Copies an object from the storage, failing when it is no longer the version of the snapshot. */
    private String copyUnchanged(StorageEntry object, Path to) throws IOException {
        String sum;
        try (InputStream in = sources.storage().open(object.key(), 0, object.size())) {
            sum = write(in, to);
        } catch (java.nio.file.NoSuchFileException e) {
            throw changed(object);
        }
        Optional<StorageEntry> now = sources.storage().stat(object.key());
        if (now.isEmpty() || !object.etag().equals(now.get().etag())) {
            throw changed(object);
        }
        return sum;
    }

    private static BackupException changed(StorageEntry object) {
        return new BackupException(StoreException.Kind.UNAVAILABLE, object.key() + " was replaced or deleted"
                + " during the backup, so the backup cannot hold the version of its snapshot; try again");
    }

    private static String write(InputStream in, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (OutputStream out = Files.newOutputStream(to)) {
            return BackupManifest.copyHashing(in, out);
        }
    }

    /** Holding directories of backups that died with their store (one backup at a time runs). */
    private static void removeLeftOverHoldings(Path root) throws IOException {
        try (Stream<Path> entries = Files.list(root)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (p.getFileName().toString().startsWith(HOLDING_PREFIX)) {
                    deleteTree(p);
                }
            }
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static void emptyDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                deleteTree(p);
            }
        }
    }
}
