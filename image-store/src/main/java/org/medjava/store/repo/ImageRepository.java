package org.medjava.store.repo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.medjava.codec.ImageFormat;

/**
 * The hierarchical image repository on disk: {@code root} mirrors the URL paths under {@code /images/}.
 *
 * <p>A write never damages what was stored before: the body goes to a temp file in {@code root/.staging}, is
 * forced to disk, checked by the {@link UploadValidator}, and only then renamed over the old file (an atomic
 * rename on one file system). Writers to one path are serialized by a lock, so two PUTs at once give one complete
 * winner and conditional headers are checked against the state they replace.
 */
public final class ImageRepository {

    private static final int STRIPES = 64;

    private final Path root;
    private final Path staging;
    private final long maxUploadBytes;
    private final UploadValidator validator;
    private final RepositoryListener listener;
    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];
    private final WriteClock writeClock = new WriteClock();

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
            return install(path, temp, format, preconditions);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * A new empty file in the repository's staging directory (same file system as the store, so it can be renamed
     * into place), for writers that receive a body themselves (DICOM network, DICOMweb) and then hand it to
     * {@link #putStaged}. Left-overs are removed at the next start.
     */
    public Path newStagingFile(String prefix) throws IOException {
        return Files.createTempFile(staging, prefix, ".part");
    }

    /**
     * Creates or replaces a file from a complete body already written to {@link #newStagingFile a staging file}:
     * the same validation, preconditions, atomic rename and listener call as {@link #put}. The staged file is
     * consumed (moved into place or deleted) either way.
     *
     * @throws StoreException as {@link #put}; the stored file is unchanged
     */
    public PutResult putStaged(StorePath path, Path staged, String declaredType, Preconditions preconditions)
            throws IOException {
        try {
            if (!staged.toAbsolutePath().normalize().getParent().equals(staging)) {
                throw new IllegalArgumentException(staged + " is not in the staging directory " + staging);
            }
            if (path.isRoot() || path.directory()) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "a stored object needs a file path, not \""
                        + path.relative() + "\"");
            }
            long size = Files.size(staged);
            if (size > maxUploadBytes) {
                throw tooLarge(size + " bytes");
            }
            try (FileChannel channel = FileChannel.open(staged, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            ImageFormat format = validator.validate(path, staged, declaredType);
            return install(path, staged, format, preconditions);
        } finally {
            Files.deleteIfExists(staged);
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

    private PutResult install(StorePath path, Path temp, ImageFormat format, Preconditions preconditions)
            throws IOException {
        ReentrantLock lock = lockFor(path);
        lock.lock();
        try {
            StoredFile current = stat(path).orElse(null);
            if (current != null && current.directory()) {
                throw new StoreException(StoreException.Kind.CONFLICT, path + " is a directory");
            }
            preconditions.check(path, current);
            Path target = path.resolveIn(root);
            createParents(path);
            Files.setLastModifiedTime(temp, writeClock.next());
            move(temp, target);
            fsync(target.getParent());
            StoredFile stored = stat(path).orElseThrow();
            listener.stored(path, target, format);
            return new PutResult(stored, current == null, format);
        } finally {
            lock.unlock();
        }
    }

    private void createParents(StorePath path) throws IOException {
        StorePath dir = StorePath.ROOT;
        for (String name : path.parent().segments()) {
            dir = dir.child(name, true);
            Path p = dir.resolveIn(root);
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new StoreException(StoreException.Kind.CONFLICT, String.join("/", dir.segments()) + " is a file, so "
                        + path.relative() + " cannot be created under it");
            }
        }
        Files.createDirectories(path.parent().resolveIn(root));
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Makes a rename durable: the directory entry itself must reach the disk. */
    private static void fsync(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open directories; the rename is still atomic, only less durable.
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
            fsync(current.file().getParent());
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
