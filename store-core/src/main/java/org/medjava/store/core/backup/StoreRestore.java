package org.medjava.store.core.backup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.IndexBackup;

/**
 * Restores a backup of {@link StoreBackup} into the data directory of a stopped store. Nothing is touched until the
 * backup has been checked whole (every file against {@value BackupManifest#FILE}, the manifest against
 * {@value BackupInfo#FILE}). The data directory must be new or empty; with {@code force} a non-empty one is moved
 * aside to {@code <name>.before-restore-<time>} beside it (never deleted). The restored content is assembled in a
 * hidden directory beside the data directory and renamed into place at the end, so a failed restore leaves no half
 * data directory.
 */
public final class StoreRestore {

    /** The marker of a data directory the store has initialized (it does not seed samples into it again). */
    static final String SEEDED_MARKER = ".seeded";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    /**
     * What a restore did.
     *
     * @param movedAside where the previous content of the data directory went, or null
     * @param indexNote  what the operator still has to do for the index (PostgreSQL), or null
     */
    public record Result(BackupInfo info, Path dataDir, Path movedAside, String indexNote) {
    }

    private StoreRestore() {
    }

    /**
     * Checks the backup in {@code backupDir} whole.
     *
     * @throws BackupException naming what is damaged or missing
     */
    public static BackupInfo verify(Path backupDir) throws IOException {
        if (!Files.isDirectory(backupDir)) {
            throw new BackupException("no backup directory " + backupDir);
        }
        BackupInfo info = BackupInfo.read(backupDir);
        BackupManifest manifest = BackupManifest.read(backupDir);
        if (!BackupManifest.sha256Of(backupDir.resolve(BackupManifest.FILE)).equals(info.manifestSha256())) {
            throw new BackupException("the backup in " + backupDir + " is damaged: " + BackupManifest.FILE
                    + " does not have the checksum " + BackupInfo.FILE + " gives it; nothing was restored");
        }
        List<String> problems = manifest.verify(backupDir);
        if (!problems.isEmpty()) {
            throw new BackupException("the backup in " + backupDir + " is damaged (" + problems.size() + " files); "
                    + "nothing was restored: " + String.join("; ", problems.subList(0, Math.min(10, problems.size())))
                    + (problems.size() > 10 ? "; ..." : ""));
        }
        return info;
    }

    /**
     * Restores the backup in {@code backupDir} into {@code dataDir}.
     *
     * @throws BackupException when the backup is damaged, the data directory is not empty and {@code force} is not
     *                         given, or a store is running on it
     */
    public static Result restore(Path backupDir, Path dataDir, boolean force) throws IOException {
        Path backup = backupDir.toAbsolutePath().normalize();
        Path data = dataDir.toAbsolutePath().normalize();
        if (data.startsWith(backup) || backup.startsWith(data) || data.getParent() == null) {
            throw new BackupException("restore the backup " + backup + " into a data directory beside it, not "
                    + data);
        }
        BackupInfo info = verify(backup);
        boolean occupied = Files.exists(data, LinkOption.NOFOLLOW_LINKS);
        if (occupied && !Files.isDirectory(data, LinkOption.NOFOLLOW_LINKS)) {
            throw new BackupException(data + " is a file, not a data directory");
        }
        boolean nonEmpty = occupied && !BackupTarget.isEmpty(data);
        if (nonEmpty && !force) {
            throw new BackupException(StoreException.Kind.CONFLICT, "the data directory " + data + " is not empty;"
                    + " restore into a new or empty directory, or add --force to move its content aside to "
                    + data.getFileName() + ".before-restore-<time> (nothing is deleted)");
        }
        if (nonEmpty) {
            checkNotRunning(data);
        }
        String stamp = STAMP.format(Instant.now());
        Path assembling = data.resolveSibling("." + data.getFileName() + ".restoring-" + stamp);
        Path aside = null;
        try {
            String indexNote = assemble(backup, info, assembling);
            if (nonEmpty) {
                aside = data.resolveSibling(data.getFileName() + ".before-restore-" + stamp);
                Files.move(data, aside, StandardCopyOption.ATOMIC_MOVE);
            } else if (occupied) {
                Files.delete(data);
            }
            Files.move(assembling, data, StandardCopyOption.ATOMIC_MOVE);
            return new Result(info, data, aside, indexNote);
        } finally {
            StoreBackup.deleteTree(assembling);
        }
    }

    /** Writes the data directory's content into {@code into}; returns the note on the index, or null. */
    private static String assemble(Path backup, BackupInfo info, Path into) throws IOException {
        Files.createDirectories(into.resolve("images"));
        Map<String, String> files = BackupManifest.read(backup).checksums();
        for (String relative : files.keySet()) {
            Path from = backup.resolve(relative);
            if (relative.startsWith(StoreBackup.OBJECTS + "/")) {
                copy(from, into.resolve("images").resolve(relative.substring(StoreBackup.OBJECTS.length() + 1)));
            } else if (relative.startsWith(StoreBackup.PLUGINS + "/")) {
                copy(from, into.resolve("plugins").resolve(relative.substring(StoreBackup.PLUGINS.length() + 1)));
            } else if (relative.equals(StoreBackup.ACCOUNTS + "/" + StoreBackup.ACCOUNTS_FILE)) {
                Path accounts = into.resolve(StoreBackup.ACCOUNTS_FILE);
                copy(from, accounts);
                ownerOnly(accounts);
            } else if (relative.startsWith(StoreBackup.KEYS + "/")) {
                String name = relative.substring(StoreBackup.KEYS.length() + 1);
                if (!StoreBackup.KEY_FILES.contains(name)) {
                    throw new BackupException("the backup names a key file it cannot hold: " + relative);
                }
                Path key = into.resolve(name);
                copy(from, key);
                ownerOnly(key);
            } else if (relative.startsWith(StoreBackup.RULES + "/")) {
                // rules/<directory>/<file>: a routing rule holds its de-identification secret and a receiver's
                // credentials, so the files are the owner's alone, as the accounts
                String[] parts = relative.split("/");
                if (parts.length != 3 || !StoreBackup.RULE_DIRECTORIES.contains(parts[1]) || parts[2].startsWith(".")
                        || parts[2].equals("..")) {
                    throw new BackupException("the backup names a rule file it cannot hold: " + relative);
                }
                Path rule = into.resolve(parts[1]).resolve(parts[2]);
                copy(from, rule);
                ownerOnly(rule);
            }
        }
        Files.writeString(into.resolve(SEEDED_MARKER), "restored " + Instant.now() + " from the backup " + backup
                + " (snapshot " + info.snapshot() + ")\n", StandardCharsets.UTF_8);
        Path h2 = backup.resolve(StoreBackup.INDEX).resolve(IndexBackup.H2_ZIP);
        if (files.containsKey(StoreBackup.INDEX + "/" + IndexBackup.H2_ZIP)) {
            unzipIndex(h2, Files.createDirectories(into.resolve("index")));
            return null;
        }
        if (files.containsKey(StoreBackup.INDEX + "/" + IndexBackup.PG_DUMP)) {
            return "the index was in PostgreSQL: before starting the store, restore it with pg_restore --clean"
                    + " --if-exists --no-owner --dbname <the database of medjava.db.url> "
                    + backup.resolve(StoreBackup.INDEX).resolve(IndexBackup.PG_DUMP) + " (or start the store on"
                    + " an empty database: it rebuilds the index from the objects)";
        }
        return "the backup holds no index: the store rebuilds it from the objects when it starts";
    }

    /** Unzips H2's backup: the database file, and nothing outside {@code into}. */
    private static void unzipIndex(Path zip, Path into) throws IOException {
        boolean found = false;
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                Path file = into.resolve(e.getName()).normalize();
                if (e.isDirectory() || !file.getParent().equals(into)) {
                    throw new BackupException("the index backup " + zip + " holds an unexpected entry "
                            + e.getName());
                }
                Files.copy(in, file);
                found |= e.getName().equals(IndexBackup.H2_DATABASE_FILE);
            }
        }
        if (!found) {
            throw new BackupException("the index backup " + zip + " holds no " + IndexBackup.H2_DATABASE_FILE);
        }
    }

    /**
     * Refuses a data directory that a running store uses: its pid file names a live process, or its H2 index is
     * locked by another process.
     */
    static void checkNotRunning(Path data) throws IOException {
        Path pidFile = data.resolve("medjava.pid");
        if (Files.isRegularFile(pidFile)) {
            String pid = Files.readString(pidFile, StandardCharsets.UTF_8).strip();
            try {
                if (ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false)) {
                    throw running(data, "process " + pid);
                }
            } catch (NumberFormatException e) {
                // not a pid: left over by something else
            }
        }
        Path h2 = data.resolve("index").resolve(IndexBackup.H2_DATABASE_FILE);
        if (Files.isRegularFile(h2)) {
            try (FileChannel channel = FileChannel.open(h2, StandardOpenOption.WRITE)) {
                FileLock lock = channel.tryLock();
                if (lock == null) {
                    throw running(data, "its index is open");
                }
                lock.release();
            } catch (OverlappingFileLockException e) {
                throw running(data, "its index is open in this process");
            }
        }
    }

    private static BackupException running(Path data, String why) {
        return new BackupException(StoreException.Kind.CONFLICT, "a store is running on " + data + " (" + why
                + "): stop it first (./medjava stop)");
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (InputStream in = Files.newInputStream(from)) {
            Files.copy(in, to);
        }
    }

    private static void ownerOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its own access rules apply
        }
    }
}
