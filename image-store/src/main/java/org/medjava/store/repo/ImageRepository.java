package org.medjava.store.repo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.medjava.codec.ImageFormat;

/**
 * The hierarchical image repository on disk: {@code root} mirrors the URL paths under {@code /images/}.
 *
 * <p>A write never damages what was stored before: the body goes to a temp file in {@code root/.staging}, is
 * forced to disk, checked by the {@link UploadValidator} (or by its writer), and only then renamed over the old file
 * (an atomic rename on one file system); the directory is forced to disk before the write is reported done.
 * Writers to one path are serialized by a lock, so two PUTs at once give one complete winner and conditional
 * headers are checked against the state they replace.
 */
public final class ImageRepository {

    private static final int STRIPES = 64;
    /** Where files and directories are forced to disk while their writers go on with other work. */
    private static final ExecutorService SYNC_THREADS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "store-fsync");
        t.setDaemon(true);
        return t;
    });

    private final Path root;
    private final Path staging;
    private final long maxUploadBytes;
    private final UploadValidator validator;
    private final RepositoryListener listener;
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private final WriteClock writeClock = new WriteClock();
    private final DirectorySync directorySync = new DirectorySync(SYNC_THREADS);

    public ImageRepository(Path root, long maxUploadBytes, UploadValidator validator, RepositoryListener listener)
            throws IOException {
        this.root = Files.createDirectories(root).toRealPath();
        this.staging = Files.createDirectories(this.root.resolve(".staging"));
        this.maxUploadBytes = maxUploadBytes;
        this.validator = validator;
        this.listener = listener;
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
        cleanStaging();
    }

    /** Left-overs of writes interrupted by a crash are never visible; remove them at start. */
    private void cleanStaging() throws IOException {
        try (Stream<Path> files = Files.list(staging)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    public Path root() {
        return root;
    }

    public long maxUploadBytes() {
        return maxUploadBytes;
    }

    /** The checks a body passes before it is stored, for writers that check their bodies themselves. */
    public UploadValidator validator() {
        return validator;
    }

    public Optional<StoredFile> stat(StorePath path) {
        Path file = path.resolveIn(root);
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory() && !a.isRegularFile()) {
                return Optional.empty(); // links and devices are not served
            }
            return Optional.of(toStored(path, file, a));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (!Files.isDirectory(file.getParent())) {
                return Optional.empty(); // a path through a file ("a.gif/b.gif") names nothing
            }
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot read " + path + ": " + e.getMessage(), e);
        }
    }

    private StoredFile toStored(StorePath path, Path file, BasicFileAttributes a) {
        if (a.isDirectory()) {
            return new StoredFile(path.asDirectory(), file, true, 0, a.lastModifiedTime().toInstant(), null, null);
        }
        // Every write renames a new file into place, so (size, mtime, file key) changes whenever the bytes do.
        long nanos = a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS);
        String etag = "\"" + Long.toHexString(a.size()) + "-" + Long.toHexString(nanos) + "-"
                + Integer.toHexString(a.fileKey() == null ? 0 : a.fileKey().hashCode()) + "\"";
        return new StoredFile(path, file, false, a.size(), a.lastModifiedTime().toInstant(), etag,
                MediaTypes.of(file));
    }

    /** The entries of a directory (no dot-names), directories first, then by name. */
    public List<StoredFile> list(StorePath dir) {
        StoredFile d = stat(dir).orElseThrow(() -> notFound(dir));
        if (!d.directory()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, dir.relative() + " is a file, not a directory");
        }
        List<StoredFile> entries = new ArrayList<>();
        try (Stream<Path> children = Files.list(d.file())) {
            for (Path child : (Iterable<Path>) children::iterator) {
                String name = child.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                stat(dir.child(name, false)).ifPresent(entries::add);
            }
        } catch (IOException e) {
            throw new StoreException(StoreException.Kind.UNAVAILABLE, "cannot list " + dir + ": " + e.getMessage(), e);
        }
        entries.sort(Comparator.comparing((StoredFile f) -> !f.directory()).thenComparing(f -> f.path().name()));
        return entries;
    }

    /** The outcome of a PUT: the file as stored now, and whether it is new. */
    public record PutResult(StoredFile file, boolean created, ImageFormat format) {
    }

    /**
     * Creates or replaces a file. {@code declaredLength} is the Content-Length, or -1 when the body is chunked.
     *
     * @throws StoreException TOO_LARGE before anything is read when the declared length is over the limit, or as
     *                        soon as the body grows past it; BAD_REQUEST, CONFLICT, PRECONDITION_FAILED,
     *                        UNSUPPORTED_MEDIA_TYPE, UNPROCESSABLE as the case may be. The stored file is unchanged.
     */
    public PutResult put(StorePath path, InputStream body, long declaredLength, String declaredType,
                         Preconditions preconditions) throws IOException {
        if (path.isRoot() || path.directory()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "PUT needs a file path; \"" + path.relative()
                    + "\" ends with / (directories are created with the files in them)");
        }
        if (declaredLength > maxUploadBytes) {
            throw tooLarge(declaredLength + " bytes");
        }
        preconditions.check(path, stat(path).orElse(null)); // fail early, before reading a large body
        Path temp = Files.createTempFile(staging, "put-", ".part");
        try {
            receive(body, temp, declaredLength);
            ImageFormat format = validator.validate(path, temp, declaredType);
            return install(path, temp, format, preconditions, null);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * A new empty file in the repository's staging directory (same file system as the store, so it can be renamed
     * into place), for writers that receive a body themselves (DICOM network, DICOMweb) and then hand it to
     * {@link #startSync} and {@link #install(StorePath, StagedFile, ImageFormat, Preconditions, Consumer) install}.
     * Left-overs are removed at the next start.
     */
    public Path newStagingFile(String prefix) throws IOException {
        return Files.createTempFile(staging, prefix, ".part");
    }

    /**
     * A complete body in the staging directory (from {@link #newStagingFile}) whose writer checks it itself: from
     * {@link #startSync} on it is forced to disk in the background, overlapping the checks, and
     * {@link #install(StorePath, StagedFile, ImageFormat, Preconditions, Consumer) install} waits for that.
     */
    public static final class StagedFile {
        private final Path file;
        private final CompletableFuture<Void> synced;

        private StagedFile(Path file, CompletableFuture<Void> synced) {
            this.file = file;
            this.synced = synced;
        }

        public Path file() {
            return file;
        }
    }

    /**
     * Starts forcing a complete staged body to disk in the background.
     *
     * @throws IllegalArgumentException when {@code staged} is not in the staging directory
     */
    public StagedFile startSync(Path staged) {
        if (!staged.toAbsolutePath().normalize().getParent().equals(staging)) {
            throw new IllegalArgumentException(staged + " is not in the staging directory " + staging);
        }
        return new StagedFile(staged, CompletableFuture.runAsync(() -> {
            try (FileChannel channel = FileChannel.open(staged, StandardOpenOption.WRITE)) {
                channel.force(true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, SYNC_THREADS));
    }

    /**
     * Installs a staged body that the caller has validated itself, as {@link #put} does after its own validation:
     * once the body is on disk, the preconditions are checked and it is renamed into place under the path's lock.
     * Instead of the repository's listener, {@code onInstalled} then runs, still under the lock and while the
     * directory is being forced to disk (the caller keeps its own index in step there); the call returns when both
     * are done. The staged file is consumed (moved into place or deleted) either way.
     *
     * @throws StoreException TOO_LARGE, BAD_REQUEST, CONFLICT or PRECONDITION_FAILED; the stored file is unchanged
     * @throws IOException    when the body could not be forced to disk or renamed
     */
    public PutResult install(StorePath path, StagedFile staged, ImageFormat format, Preconditions preconditions,
                             Consumer<StoredFile> onInstalled) throws IOException {
        try {
            if (path.isRoot() || path.directory()) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "a stored object needs a file path, not \""
                        + path.relative() + "\"");
            }
            long size = Files.size(staged.file);
            if (size > maxUploadBytes) {
                throw tooLarge(size + " bytes");
            }
            awaitSync(staged);
            return install(path, staged.file, format, preconditions, onInstalled);
        } finally {
            Files.deleteIfExists(staged.file);
        }
    }

    private static void awaitSync(StagedFile staged) throws IOException {
        try {
            staged.synced.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            throw cause instanceof IOException io ? io : new IOException("cannot force " + staged.file
                    + " to disk: " + cause, cause);
        }
    }

    private void receive(InputStream body, Path temp, long declaredLength) throws IOException {
        long total = 0;
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            OutputStream out = Channels.newOutputStream(channel);
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = body.read(buffer)) >= 0; ) {
                total += n;
                if (total > maxUploadBytes) {
                    throw tooLarge("more than " + maxUploadBytes + " bytes");
                }
                out.write(buffer, 0, n);
            }
            if (declaredLength >= 0 && total != declaredLength) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "the body ended after " + total
                        + " of the " + declaredLength + " bytes announced by Content-Length");
            }
            channel.force(true);
        }
    }

    private PutResult install(StorePath path, Path temp, ImageFormat format, Preconditions preconditions,
                              Consumer<StoredFile> onInstalled) throws IOException {
        ReentrantLock lock = lockFor(path);
        lock.lock();
        try {
            StoredFile current = stat(path).orElse(null);
            if (current != null && current.directory()) {
                throw new StoreException(StoreException.Kind.CONFLICT, path + " is a directory");
            }
            preconditions.check(path, current);
            Path target = path.resolveIn(root);
            Set<Path> changedDirectories = createParents(path);
            Files.setLastModifiedTime(temp, writeClock.next());
            move(temp, target);
            // The body was forced to disk before the rename, so the new name never points to missing data; the
            // directories are forced after it (in the background, while the index is updated) and before the
            // writer hears "stored", so a success is never lost.
            changedDirectories.add(target.getParent());
            List<CompletableFuture<Void>> synced = new ArrayList<>();
            for (Path dir : changedDirectories) {
                synced.add(directorySync.request(dir));
            }
            StoredFile stored = stat(path).orElseThrow();
            if (onInstalled == null) {
                listener.stored(path, target, format);
            } else {
                onInstalled.accept(stored);
            }
            CompletableFuture.allOf(synced.toArray(CompletableFuture[]::new)).join();
            return new PutResult(stored, current == null, format);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Creates the missing parent directories of {@code path}; returns the directories that gained an entry (the
     * parents of those created), which must be forced to disk for the new directories to last.
     */
    private Set<Path> createParents(StorePath path) throws IOException {
        StorePath dir = StorePath.ROOT;
        for (String name : path.parent().segments()) {
            dir = dir.child(name, true);
            Path p = dir.resolveIn(root);
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new StoreException(StoreException.Kind.CONFLICT, String.join("/", dir.segments()) + " is a file, so "
                        + path.relative() + " cannot be created under it");
            }
        }
        Set<Path> changed = new LinkedHashSet<>();
        Path parent = path.parent().resolveIn(root);
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

    /** Deletes a file, or an empty directory. */
    public void delete(StorePath path, Preconditions preconditions) throws IOException {
        if (path.isRoot()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "the repository root cannot be deleted");
        }
        ReentrantLock lock = lockFor(path);
        lock.lock();
        try {
            StoredFile current = stat(path).orElseThrow(() -> notFound(path));
            preconditions.check(path, current);
            try {
                Files.delete(current.file());
            } catch (DirectoryNotEmptyException e) {
                throw new StoreException(StoreException.Kind.CONFLICT, path.relative()
                        + " is not empty; delete what is in it first");
            }
            directorySync.request(current.file().getParent()).join();
            if (!current.directory()) {
                listener.deleted(path);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Modification times that strictly increase from write to write, so that the ETag (size, time, file key)
     * differs for every write even where the file system's clock is coarse or inode numbers are reused.
     */
    private static final class WriteClock {
        private long lastMicros;

        synchronized FileTime next() {
            long now = java.time.Instant.now().toEpochMilli() * 1000;
            lastMicros = Math.max(now, lastMicros + 1);
            return FileTime.from(lastMicros, java.util.concurrent.TimeUnit.MICROSECONDS);
        }
    }

    private ReentrantLock lockFor(StorePath path) {
        return locks[Math.floorMod(path.asDirectory().relative().hashCode(), STRIPES)];
    }

    private static StoreException notFound(StorePath path) {
        return new StoreException(StoreException.Kind.NOT_FOUND, "no " + (path.isRoot() ? "/" : path.relative())
                + " in the store");
    }

    private StoreException tooLarge(String what) {
        return new StoreException(StoreException.Kind.TOO_LARGE, "the body (" + what + ") is over the store's "
                + "upload limit of " + maxUploadBytes + " bytes (medjava.upload.max-bytes)");
    }
}
