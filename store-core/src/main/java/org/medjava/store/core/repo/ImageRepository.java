package org.medjava.store.core.repo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.medjava.codec.ImageFormat;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.storage.DiskSpaceGuard;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.storage.ObjectRead;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.storage.StagedBody;
import org.medjava.store.core.storage.StorageEntry;

/**
 * The hierarchical image repository: store paths ({@code /images/...} on the web) over an {@link ObjectStorage}.
 * It adds what the storage leaves to its caller: the upload limit, per-path write serialization, the conditional
 * headers, the files-versus-directories rules and the media types.
 *
 * <p>A write never damages what was stored before: the body is received into the storage's staging area, checked by
 * its writer (see {@code org.medjava.store.core.ingest.Ingest}), and installed by the storage atomically. Writers to one
 * path are serialized by a lock, so two PUTs at once give one complete winner and conditional headers are checked
 * against the state they replace. The index is kept in step by the writer's {@code onInstalled}/{@code onDeleted},
 * which run under the same lock.
 */
public final class ImageRepository {

    private final ObjectStorage storage;
    private final long maxUploadBytes;
    private final PathLocks locks;
    private final DiskSpaceGuard space;
    private volatile Hidden hidden = Hidden.NONE;

    /** A repository whose writers are serialized within this process (one store node). */
    public ImageRepository(ObjectStorage storage, long maxUploadBytes) {
        this(storage, maxUploadBytes, new LocalPathLocks());
    }

    /** @param locks the path locks: this process's, or a cluster's */
    public ImageRepository(ObjectStorage storage, long maxUploadBytes, PathLocks locks) {
        this(storage, maxUploadBytes, locks, DiskSpaceGuard.none());
    }

    /** @param space the free-space floor every write is checked against before it starts */
    public ImageRepository(ObjectStorage storage, long maxUploadBytes, PathLocks locks, DiskSpaceGuard space) {
        this.storage = storage;
        this.maxUploadBytes = maxUploadBytes;
        this.locks = locks;
        this.space = space;
    }

    /** The free-space floor writes are held to. */
    public DiskSpaceGuard space() {
        return space;
    }

    public ObjectStorage storage() {
        return storage;
    }

    public long maxUploadBytes() {
        return maxUploadBytes;
    }

    /** Hides the files {@code hidden} names from every read from now on (stat, list and what uses them). */
    public void hide(Hidden hidden) {
        this.hidden = java.util.Objects.requireNonNull(hidden);
    }

    public Optional<StoredFile> stat(StorePath path) {
        try {
            return storage.stat(key(path)).filter(this::visible).map(e -> toStored(path, e));
        } catch (IOException e) {
            throw unavailable("cannot read " + path, e);
        }
    }

    private boolean visible(StorageEntry e) {
        return e.directory() || !hidden.hides(e.key(), e.size(), e.modified());
    }

    private StoredFile toStored(StorePath path, StorageEntry e) {
        if (e.directory()) {
            return new StoredFile(path.asDirectory(), true, 0, e.modified(), null, null);
        }
        StorePath file = path.directory() ? StorePath.parse(path.relative()) : path;
        return new StoredFile(file, false, e.size(), e.modified(), e.etag(), MediaTypes.of(file.name(),
                () -> head(file.relative(), e.size())));
    }

    /** The first bytes of an object, for telling its type when its name does not. */
    private byte[] head(String key, long size) {
        try (InputStream in = storage.open(key, 0, Math.min(size, ImageFormat.SNIFF_LENGTH))) {
            return in.readAllBytes();
        } catch (IOException e) {
            return new byte[0];
        }
    }

    /** The entries of a directory (no dot-names), directories first, then by name. */
    public List<StoredFile> list(StorePath dir) {
        StoredFile d = stat(dir).orElseThrow(() -> notFound(dir));
        if (!d.directory()) {
            throw new StoreException(StoreException.Kind.NOT_FOUND, dir.relative() + " is a file, not a directory");
        }
        List<StoredFile> entries = new ArrayList<>();
        try {
            for (StorageEntry e : storage.list(key(dir))) {
                if (visible(e)) {
                    entries.add(toStored(dir.child(e.name(), e.directory()), e));
                }
            }
        } catch (IOException e) {
            throw unavailable("cannot list " + dir, e);
        }
        entries.sort(Comparator.comparing((StoredFile f) -> !f.directory()).thenComparing(f -> f.path().name()));
        return entries;
    }

    /** Reads a byte range of a stored file; the caller closes the stream. */
    public InputStream open(StoredFile file, long offset, long length) throws IOException {
        return storage.open(key(file.path()), offset, length);
    }

    /** A stored file and its whole body, read together ({@link #read}); close it when done. */
    public record Opened(StoredFile file, InputStream body) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    /**
     * A file and its bytes in one storage request where the storage can ({@link ObjectStorage#read}): a plain read
     * of a whole file. Empty when there is no file at {@code path} (nothing, a directory, a hidden file). The type
     * is told from the name, else from the first bytes of the same body.
     */
    public Optional<Opened> read(StorePath path) {
        if (path.isRoot() || path.directory()) {
            return Optional.empty();
        }
        Optional<ObjectRead> read;
        try {
            read = storage.read(key(path));
        } catch (IOException e) {
            throw unavailable("cannot read " + path, e);
        }
        if (read.isEmpty()) {
            return Optional.empty();
        }
        ObjectRead r = read.get();
        if (!visible(r.entry())) {
            closeQuietly(r);
            return Optional.empty();
        }
        InputStream body = new java.io.BufferedInputStream(r.body(), ImageFormat.SNIFF_LENGTH);
        StorageEntry e = r.entry();
        String type = MediaTypes.of(path.name(), () -> sniff(body));
        return Optional.of(new Opened(new StoredFile(path, false, e.size(), e.modified(), e.etag(), type), body));
    }

    /** The first bytes of a body, left unread. */
    private static byte[] sniff(InputStream body) {
        try {
            body.mark(ImageFormat.SNIFF_LENGTH);
            byte[] head = body.readNBytes(ImageFormat.SNIFF_LENGTH);
            body.reset();
            return head;
        } catch (IOException e) {
            return new byte[0];
        }
    }

    private static void closeQuietly(ObjectRead read) {
        try {
            read.close();
        } catch (IOException ignored) {
            // a body not wanted: nothing was read from it
        }
    }

    /** A stored file and its bytes in a node-local copy ({@link #cached}); close it when done. */
    public record Cached(StoredFile file, FileChannel channel) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /**
     * A file whose bytes this node has a copy of that it may serve now ({@link ObjectStorage#cached}), with that
     * copy opened: the two are the same version. Empty when there is none (or the path names no visible file); asks
     * no network.
     */
    public Optional<Cached> cached(StorePath path) {
        if (path.isRoot() || path.directory()) {
            return Optional.empty();
        }
        Optional<org.medjava.store.core.storage.ObjectCache.Open> open = storage.cached(key(path));
        if (open.isEmpty()) {
            return Optional.empty();
        }
        StorageEntry e = open.get().object();
        FileChannel channel = open.get().channel();
        if (!visible(e)) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // only opened
            }
            return Optional.empty();
        }
        String type = MediaTypes.of(path.name(), () -> headOf(channel, e.size()));
        return Optional.of(new Cached(new StoredFile(path, false, e.size(), e.modified(), e.etag(), type), channel));
    }

    /** The first bytes of a local copy, read without moving its position. */
    private static byte[] headOf(FileChannel channel, long size) {
        java.nio.ByteBuffer head = java.nio.ByteBuffer.allocate((int) Math.min(size, ImageFormat.SNIFF_LENGTH));
        try {
            while (head.hasRemaining() && channel.read(head, head.position()) > 0) {
                // until the head is full
            }
        } catch (IOException e) {
            return new byte[0];
        }
        return java.util.Arrays.copyOf(head.array(), head.position());
    }

    /** A stored file's bytes as a channel on a local file (sendfile), when the storage has one; the caller closes it. */
    public Optional<FileChannel> openChannel(StoredFile file) throws IOException {
        return storage.openChannel(key(file.path()));
    }

    /** A stored file's bytes as a local file, for decoders that need one (close it when done). */
    public LocalCopy localCopy(StorePath path) throws IOException {
        return storage.localCopy(key(path));
    }

    /** The outcome of a write: the file as stored now, and whether it is new. */
    public record PutResult(StoredFile file, boolean created) {
    }

    /**
     * Receives a request body into the staging area. {@code declaredLength} is the Content-Length, or -1 when the
     * body is chunked.
     *
     * @throws StoreException TOO_LARGE before anything is read when the declared length is over the limit, or as
     *                        soon as the body grows past it; BAD_REQUEST when it ends before its Content-Length or
     *                        the connection breaks; REQUEST_TIMEOUT when the client stops sending;
     *                        INSUFFICIENT_STORAGE before anything is read when the disk is nearly full, or when it
     *                        fills up while the body is written
     */
    public StagedBody receive(InputStream body, long declaredLength) throws IOException {
        if (declaredLength > maxUploadBytes) {
            throw tooLarge(declaredLength + " bytes");
        }
        space.checkWritable(declaredLength);
        Path temp = storage.newStagingFile("put-");
        boolean received = false;
        try {
            long total = 0;
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                OutputStream out = Channels.newOutputStream(channel);
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = readBody(body, buffer, total)) >= 0; ) {
                    total += n;
                    if (total > maxUploadBytes) {
                        throw tooLarge("more than " + maxUploadBytes + " bytes");
                    }
                    out.write(buffer, 0, n);
                }
            } catch (IOException e) {
                if (DiskSpaceGuard.isOutOfSpace(e)) {
                    throw outOfSpace("cannot write the body", e);
                }
                throw e;
            }
            if (declaredLength >= 0 && total != declaredLength) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "the body ended after " + total
                        + " of the " + declaredLength + " bytes announced by Content-Length");
            }
            StagedBody staged = storage.stage(temp);
            received = true;
            return staged;
        } finally {
            if (!received) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * One read of a client's body: a failure here is the client's (it stalled or hung up), not the store's, so it is
     * a 4xx naming how far the body came, never a 500; the staging file is removed by the caller.
     */
    private static int readBody(InputStream body, byte[] buffer, long received) {
        try {
            return body.read(buffer);
        } catch (IOException e) {
            boolean timedOut = e instanceof java.net.SocketTimeoutException
                    || e.getCause() instanceof java.util.concurrent.TimeoutException;
            throw new StoreException(timedOut ? StoreException.Kind.REQUEST_TIMEOUT : StoreException.Kind.BAD_REQUEST,
                    (timedOut ? "the request body stopped arriving" : "the connection broke") + " after " + received
                    + " bytes; nothing was stored", e);
        }
    }

    /**
     * A new empty staging file, for writers that receive a body themselves (DICOM network, DICOMweb).
     *
     * @throws StoreException INSUFFICIENT_STORAGE when the disk is nearly full
     */
    public Path newStagingFile(String prefix) throws IOException {
        space.checkWritable();
        return storage.newStagingFile(prefix);
    }

    /** A complete staging file from {@link #newStagingFile}, handed over for {@link #install}. */
    public StagedBody stage(Path stagingFile) throws IOException {
        return storage.stage(stagingFile);
    }

    /**
     * Installs a staged body that its writer has checked: under the path's lock the preconditions are checked
     * against the current state and the storage installs the body; {@code onInstalled} runs once the new file is
     * visible, still under the lock (the writer keeps the index in step there), and says whether the index agrees
     * with it now. The staged body is consumed either way.
     *
     * @throws StoreException TOO_LARGE, BAD_REQUEST, CONFLICT or PRECONDITION_FAILED, UNAVAILABLE when the storage
     *                        fails; the stored file is unchanged
     */
    public PutResult install(StorePath path, StagedBody staged, Preconditions preconditions,
                             Predicate<StoredFile> onInstalled) throws IOException {
        try {
            if (path.isRoot() || path.directory()) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "a stored file needs a file path; \""
                        + path.relative() + "\" ends with / (directories are created with the files in them)");
            }
            long size = Files.size(staged.file());
            if (size > maxUploadBytes) {
                throw tooLarge(size + " bytes");
            }
            staged.awaitDurable(); // before taking the lock: other writers of this stripe need not wait for it
            try (PathLocks.Held lock = locks.lock(path)) {
                StoredFile current = stat(path).orElse(null);
                if (current != null && current.directory()) {
                    throw new StoreException(StoreException.Kind.CONFLICT, path.relative() + " is a directory");
                }
                preconditions.check(path, current);
                lock.verify(); // still the only writer of this path (the cluster's lock was not lost meanwhile)
                boolean[] agreed = {false};
                StorageEntry entry = storage.install(key(path), staged,
                        e -> agreed[0] = onInstalled.test(toStored(path, e)));
                if (agreed[0]) {
                    lock.settled();
                }
                return new PutResult(toStored(path, entry), current == null);
            } catch (IOException e) { // unreachable object storage, a full or failing disk: nothing was changed
                throw unavailable("cannot store " + path, e);
            }
        } finally {
            Files.deleteIfExists(staged.file());
        }
    }

    /**
     * Deletes a file, or an empty directory; {@code onDeleted} runs under the path's lock once it is gone, and says
     * whether the index agrees now.
     *
     * @throws StoreException NOT_FOUND, CONFLICT (a directory that is not empty), PRECONDITION_FAILED
     */
    public void delete(StorePath path, Preconditions preconditions, Predicate<StoredFile> onDeleted) {
        if (path.isRoot()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "the repository root cannot be deleted");
        }
        try (PathLocks.Held lock = locks.lock(path)) {
            StoredFile current = stat(path).orElseThrow(() -> notFound(path));
            preconditions.check(path, current);
            lock.verify();
            if (!storage.delete(key(current.path()))) {
                throw notFound(path);
            }
            if (onDeleted.test(current)) {
                lock.settled();
            }
        } catch (IOException e) {
            throw unavailable("cannot delete " + path, e);
        }
    }

    /** Work done under a path's lock. */
    public interface Locked<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code work} holding the lock of {@code path} (this process's, or the cluster's), as its writers do.
     */
    public <T> T withPathLock(StorePath path, Locked<T> work) throws IOException {
        try (PathLocks.Held lock = locks.lock(path)) {
            return work.run();
        }
    }

    /**
     * Brings the index in step with the object at {@code path} ({@code reindex}) under the path's lock, without
     * racing a live writer, and records the path settled: what a crash or an absent index left unsettled, on this
     * node or (on a cluster) on another.
     *
     * @param wait whether to wait for a writer holding the path now; if not, empty when one does
     */
    public <T> Optional<T> settle(StorePath path, boolean wait, Locked<T> reindex) throws IOException {
        Optional<PathLocks.Held> held = wait ? Optional.of(locks.lock(path)) : locks.tryLock(path);
        if (held.isEmpty()) {
            return Optional.empty();
        }
        try (PathLocks.Held lock = held.get()) {
            T result = reindex.run();
            lock.settled();
            return Optional.of(result);
        }
    }

    /** Paths a write on another node left without the index agreeing (see {@link PathLocks#unsettled}). */
    public List<StorePath> unsettledPaths() {
        return locks.unsettled();
    }

    /** The storage key of a path: its relative form without the trailing '/' of a directory. */
    private static String key(StorePath path) {
        return PathLocks.keyOf(path);
    }

    private static StoreException notFound(StorePath path) {
        return new StoreException(StoreException.Kind.NOT_FOUND, "no " + (path.isRoot() ? "/" : path.relative())
                + " in the store");
    }

    private static StoreException unavailable(String what, IOException e) {
        if (DiskSpaceGuard.isOutOfSpace(e)) {
            return outOfSpace(what, e);
        }
        return new StoreException(StoreException.Kind.UNAVAILABLE, what + ": " + e.getMessage()
                + " (the previous version, if any, is unchanged; try again later)", e);
    }

    /** The disk filled up part-way through a write: nothing of it is visible, the previous version is unchanged. */
    private static StoreException outOfSpace(String what, IOException e) {
        return new StoreException(StoreException.Kind.INSUFFICIENT_STORAGE, "the disk ran out of space (" + what
                + ": " + e.getMessage() + "); nothing was stored and the previous version, if any, is unchanged."
                + " Free space and try again", e);
    }

    private StoreException tooLarge(String what) {
        return new StoreException(StoreException.Kind.TOO_LARGE, "the body (" + what + ") is over the store's "
                + "upload limit of " + maxUploadBytes + " bytes (medjava.upload.max-bytes)");
    }
}
