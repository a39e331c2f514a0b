package org.medjava.store.core.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.medjava.store.core.StoreException;

/**
 * Objects as files under a root directory that mirrors the keys ({@code root/samples/dicom/CT_small.dcm}), the
 * store's default storage.
 *
 * <p>A body is received into {@code root/.staging} (the same file system, so it can be renamed into place), forced to
 * disk in the background while the caller checks it, and renamed over the old file: an atomic rename, so readers see
 * the old file or the new one. The directories that gained an entry are forced to disk before {@link #install}
 * returns (shared among concurrent writers by {@link DirectorySync}), so an acknowledged write survives a crash.
 * Left-overs in the staging directory are never visible and are removed at start.
 */
public final class LocalFileStorage implements ObjectStorage {

    private static final Logger LOG = Logger.getLogger(LocalFileStorage.class.getName());
    static final String STAGING = ".staging";


    private final Path root;
    private final Path staging;
    private final WriteClock writeClock = new WriteClock();
    /** Where files and directories are forced to disk while their writers go on with other work (closed with it). */
    private final ExecutorService syncThreads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "store-fsync");
        t.setDaemon(true);
        return t;
    });
    private final DirectorySync directorySync = new DirectorySync(syncThreads);
    private final StatCache stats = new StatCache();

    public LocalFileStorage(Path root) throws IOException {
        this.root = Files.createDirectories(root).toRealPath();
        this.staging = Files.createDirectories(this.root.resolve(STAGING));
        try (Stream<Path> leftOvers = Files.list(staging)) {
            for (Path p : (Iterable<Path>) leftOvers::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The directory the objects are kept in. */
    public Path root() {
        return root;
    }

    private Path fileOf(String key) {
        Path file = key.isEmpty() ? root : root.resolve(key).normalize();
        if (!file.startsWith(root) || file.startsWith(staging)) {
            throw new IllegalArgumentException("key outside the storage: " + key); // StorePath rules forbid this
        }
        return file;
    }

    @Override
    public Optional<StorageEntry> stat(String key) throws IOException {
        StorageEntry cached = stats.get(key);
        if (cached != null) {
            return Optional.of(cached);
        }
        long generation = stats.generation();
        Path file = fileOf(key);
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isDirectory()) {
                return Optional.of(new StorageEntry(key, true, 0, a.lastModifiedTime().toInstant(), null));
            }
            if (!a.isRegularFile()) {
                return Optional.empty(); // links and devices are not served
            }
            StorageEntry entry = new StorageEntry(key, false, a.size(), a.lastModifiedTime().toInstant(), etag(a));
            stats.keep(key, entry, generation);
            return Optional.of(entry);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (!Files.isDirectory(file.getParent())) {
                return Optional.empty(); // a path through a file ("a.gif/b.gif") names nothing
            }
            throw new StorageUnavailableException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every install renames a new file into place with a strictly later modification time, so (size, time, file
     * key) changes whenever the bytes do.
     */
    private static String etag(BasicFileAttributes a) {
        long nanos = a.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        return "\"" + Long.toHexString(a.size()) + "-" + Long.toHexString(nanos) + "-"
                + Integer.toHexString(a.fileKey() == null ? 0 : a.fileKey().hashCode()) + "\"";
    }

    @Override
    public List<StorageEntry> list(String key) throws IOException {
        Path dir = fileOf(key);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no directory " + (key.isEmpty() ? "/" : key)
                    + " in the store");
        }
        List<StorageEntry> entries = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : (Iterable<Path>) children::iterator) {
                String name = child.getFileName().toString();
                if (!name.startsWith(".")) {
                    stat(key.isEmpty() ? name : key + "/" + name).ifPresent(entries::add);
                }
            }
        } catch (NoSuchFileException e) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, "no directory " + key + " in the store");
        } catch (IOException e) {
            throw new StorageUnavailableException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        return entries;
    }

    @Override
    public InputStream open(String key, long offset, long length) throws IOException {
        Path file = fileOf(key);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(key); // nothing, a directory, a link or a path through a file
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        if (offset > 0) { // a new channel is at 0: no seek for a whole file
            channel.position(offset);
        }
        return new LimitedInputStream(Channels.newInputStream(channel), length);
    }

    @Override
    public Optional<FileChannel> openChannel(String key) throws IOException {
        // for a file just stat()ed by the caller: no link followed, and a directory fails on its first read
        return Optional.of(FileChannel.open(fileOf(key), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
    }

    @Override
    public LocalCopy localCopy(String key) throws IOException {
        Path file = fileOf(key);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(key);
        }
        return new LocalCopy() { // the stored file itself: replaced files are new inodes, so readers keep theirs
            @Override
            public Path path() {
                return file;
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public Path newStagingFile(String prefix) throws IOException {
        return Files.createTempFile(staging, prefix, ".part");
    }

    /** A staging file being forced to disk in the background. */
    private record Staged(Path file, CompletableFuture<Void> synced) implements StagedBody {

        @Override
        public void awaitDurable() throws IOException {
            try {
                synced.join();
            } catch (CompletionException e) {
                Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
                throw cause instanceof IOException io ? io : new IOException("cannot force " + file
                        + " to disk: " + cause, cause);
            }
        }
    }

    @Override
    public StagedBody stage(Path stagingFile) {
        if (!stagingFile.toAbsolutePath().normalize().getParent().equals(staging)) {
            throw new IllegalArgumentException(stagingFile + " is not in the staging directory " + staging);
        }
        return new Staged(stagingFile, CompletableFuture.runAsync(() -> {
            try (FileChannel channel = FileChannel.open(stagingFile, StandardOpenOption.WRITE)) {
                channel.force(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, syncThreads));
    }

    @Override
    public StorageEntry install(String key, StagedBody body, Consumer<StorageEntry> onVisible) throws IOException {
        Path temp = body.file();
        try {
            if (!(body instanceof Staged)) {
                throw new IllegalArgumentException("not staged by this storage: " + temp);
            }
            Path target = fileOf(key);
            if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                throw new StoreException(StoreException.Kind.CONFLICT, key + " is a directory");
            }
            Set<Path> changedDirectories = createParents(key, target);
            body.awaitDurable();
            Files.setLastModifiedTime(temp, FileTime.from(writeClock.next()));
            move(temp, target);
            stats.changed(key);
            // The body was forced to disk before the rename, so the new name never points to missing data; the
            // directories are forced after it (in the background, while onVisible runs) and before the caller
            // hears "stored", so a success is never lost.
            changedDirectories.add(target.getParent());
            List<CompletableFuture<Void>> synced = new ArrayList<>();
            for (Path dir : changedDirectories) {
                synced.add(directorySync.request(dir));
            }
            StorageEntry stored = stat(key).orElseThrow(() -> new IOException(key + " vanished after its rename"));
            onVisible.accept(stored);
            CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).join();
            return stored;
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Creates the missing parent directories of {@code key}; returns the directories that gained an entry (the
     * parents of those created), which must be forced to disk for the new directories to last.
     */
    private Set<Path> createParents(String key, Path target) throws IOException {
        Path parent = target.getParent();
        for (Path p = parent; !p.equals(root); p = p.getParent()) {
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new StoreException(StoreException.Kind.CONFLICT, root.relativize(p).toString().replace('\\', '/')
                        + " is a file, so " + key + " cannot be created under it");
            }
        }
        Set<Path> changed = new LinkedHashSet<>();
        for (Path p = parent; !Files.isDirectory(p); p = p.getParent()) {
            changed.add(p.getParent());
        }
        Files.createDirectories(parent);
        return changed;
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    @Override
    public boolean delete(String key) throws IOException {
        Path file = fileOf(key);
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return false; // also a path through a file ("a.gif/b.gif")
        }
        try {
            Files.delete(file);
            stats.changed(key);
        } catch (NoSuchFileException e) {
            return false;
        } catch (DirectoryNotEmptyException e) {
            throw new StoreException(StoreException.Kind.CONFLICT, key + "/ is not empty; delete what is in it first");
        }
        directorySync.request(file.getParent()).join();
        return true;
    }

    @Override
    public void walk(String key, Consumer<StorageEntry> visitor) throws IOException {
        Path start = fileOf(key);
        if (!Files.isDirectory(start)) {
            return;
        }
        Files.walkFileTree(start, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(start) && hidden(dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes a) {
                if (a.isRegularFile() && !hidden(file)) {
                    visitor.accept(new StorageEntry(keyOf(file), false, a.size(), a.lastModifiedTime().toInstant(),
                            etag(a)));
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                LOG.log(Level.WARNING, "cannot read " + file + " while walking the store: " + e);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static boolean hidden(Path file) {
        return file.getFileName().toString().startsWith(".");
    }

    private String keyOf(Path file) {
        StringBuilder key = new StringBuilder();
        for (Path segment : root.relativize(file)) {
            key.append(key.length() > 0 ? "/" : "").append(segment);
        }
        return key.toString();
    }

    @Override
    public void checkAvailable() throws IOException {
        if (!Files.isDirectory(staging) || !Files.isWritable(root)) {
            throw new StorageUnavailableException("the image directory " + root + " is missing or not writable",
                    null);
        }
    }

    @Override
    public String describe() {
        return "files in " + root;
    }

    /** Lets the syncs under way finish (a few seconds at most), then ends the threads. */
    @Override
    public void close() {
        syncThreads.shutdown();
        try {
            if (!syncThreads.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)) {
                syncThreads.shutdownNow();
            }
        } catch (InterruptedException e) {
            syncThreads.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
