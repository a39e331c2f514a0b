package org.medjava.store.core.storage;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where the stored objects' bytes live: the local file system (the default) or an S3-compatible object store.
 *
 * <p>Keys are store paths without a leading slash, segments separated by '/', already checked by the store's path
 * rules ({@code "samples/dicom/CT_small.dcm"}); {@code ""} is the root. Directories are implicit: a directory
 * exists while an object lies under it (the file system may also keep empty ones). Names starting with '.' are the
 * storage's own and never listed or walked.
 *
 * <p>Guarantees every implementation keeps (the contract tests hold both to them):
 * <ul>
 * <li>an object is replaced atomically for readers: a reader sees the old bytes or the new, never a mix;
 * <li>a failed {@link #install} leaves nothing visible and the previous version readable;
 * <li>every install gives the object a new strong ETag, even for the same bytes;
 * <li>when {@code install} returns, the object is durable.
 * </ul>
 * Concurrency control (per-key locks, preconditions) is the caller's: the storage does not serialize writers.
 *
 * @see StorageEntry
 */
public interface ObjectStorage extends AutoCloseable {

    /** What lies at {@code key}: an object, a directory, or nothing. The root always exists. */
    Optional<StorageEntry> stat(String key) throws IOException;

    /**
     * The entries directly under the directory {@code key} (objects and directories), without dot-names, in no
     * particular order.
     *
     * @throws org.medjava.store.core.StoreException NOT_FOUND when no such directory exists
     */
    List<StorageEntry> list(String key) throws IOException;

    /**
     * Reads {@code length} bytes of an object from {@code offset} (a range read; the whole object is {@code 0,
     * size}). The stream is the caller's to close.
     *
     * @throws java.nio.file.NoSuchFileException when there is no such object
     */
    InputStream open(String key, long offset, long length) throws IOException;

    /**
     * An object's metadata and whole body together, in one request where the storage can (S3: one GetObject, the
     * metadata from its answer, no HEAD before it); empty when there is no object at {@code key} (nothing, or a
     * directory). The storage of a plain read of a whole object, where a {@link #stat} and an {@link #open} would
     * cost two requests.
     */
    default Optional<ObjectRead> read(String key) throws IOException {
        Optional<StorageEntry> entry = stat(key).filter(e -> !e.directory());
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ObjectRead(entry.get(), open(key, 0, entry.get().size())));
        } catch (java.nio.file.NoSuchFileException gone) { // removed since the stat
            return Optional.empty();
        }
    }

    /**
     * The object's bytes as a local file, for decoders that need one; {@link LocalCopy#close} removes a temporary
     * copy (the file system hands out the stored file itself).
     */
    LocalCopy localCopy(String key) throws IOException;

    /**
     * The object's bytes as an open channel on a local file, for sending without copying them through the JVM
     * (sendfile); empty when the storage is not a local file system. For an object the caller has just found to be
     * a file ({@link #stat}); the caller closes it.
     */
    default Optional<FileChannel> openChannel(String key) throws IOException {
        return Optional.empty();
    }

    /**
     * A node-local copy of the object that may be served now, opened, with what the storage said of that version
     * (the two belong together); empty when there is none ({@link CachedStorage}). Never asks the network.
     */
    default Optional<ObjectCache.Open> cached(String key) {
        return Optional.empty();
    }

    /** A new empty local file into which a writer receives a body; hand it to {@link #stage} when complete. */
    Path newStagingFile(String prefix) throws IOException;

    /**
     * A complete body in a staging file: from here on it may be made durable in the background (overlapping the
     * caller's checks), and {@link #install} waits for that.
     */
    StagedBody stage(Path stagingFile) throws IOException;

    /**
     * Installs a staged body at {@code key}, replacing any object there atomically; parents are created as needed.
     * {@code onVisible} runs once the new object is visible to readers and before the call returns (the file
     * system runs it while forcing the directory to disk). The staged file is consumed whether or not this succeeds.
     *
     * @return the object as stored, with its new ETag
     * @throws org.medjava.store.core.StoreException CONFLICT when a parent of {@code key} is an object, or {@code key}
     *                                          is a directory
     * @throws StorageUnavailableException      when the storage cannot be reached or refuses the write; nothing was
     *                                          changed
     */
    StorageEntry install(String key, StagedBody body, Consumer<StorageEntry> onVisible) throws IOException;

    /**
     * Deletes an object, or an empty directory.
     *
     * @return false when there was nothing at {@code key}
     * @throws org.medjava.store.core.StoreException CONFLICT when {@code key} is a directory that is not empty
     */
    boolean delete(String key) throws IOException;

    /** Visits every object under the directory {@code key} ({@code ""}: all), depth first, skipping dot-names. */
    void walk(String key, Consumer<StorageEntry> visitor) throws IOException;

    /** @throws StorageUnavailableException with the reason when the storage cannot be read and written now */
    void checkAvailable() throws IOException;

    /** One line for the start banner and logs, e.g. {@code "files in /data/images"} or {@code "s3://bucket/prefix at http://..."}. */
    String describe();

    @Override
    void close();
}
