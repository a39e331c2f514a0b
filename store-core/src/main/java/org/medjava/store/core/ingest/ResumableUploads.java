package org.medjava.store.core.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;

/**
 * Resumable uploads (the state behind tus 1.0: creation, expiration, checksum, termination): an object arrives in
 * chunks appended at the offset the store confirms, so a dropped connection costs only the chunk in flight. When the
 * last byte is in, the whole object is checked against the SHA-256 its client gave at creation and then handed to
 * {@link Ingest#put} — the same validation, index, audit and metrics as a PUT. A wrong digest stores nothing.
 *
 * <p>The state lives only on disk, in {@code dir} (the data directory's {@code work/uploads}): {@code <id>.part}
 * holds the bytes received, synced before a chunk is confirmed, and {@code <id>.info} what the upload is for, written
 * once, atomically, after the part file (an upload exists once its info exists). So an upload survives a restart of
 * the store, and any number of instances over the same directory agree (one per store). Appends to one upload are
 * serialised by a try-lock: a second concurrent append or termination is refused with {@code LOCKED} (423) rather
 * than waiting, as a client that lost its connection retries with a fresh offset anyway.
 *
 * <p>An upload expires {@code expiry} after its last chunk (or its creation): refused with {@code GONE}, then
 * removed by {@link #clean} (run periodically and at start).
 */
public final class ResumableUploads {

    private static final Logger LOG = Logger.getLogger(ResumableUploads.class.getName());
    private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final String INFO = ".info";
    private static final String PART = ".part";
    private static final int BUFFER = 256 * 1024;

    /**
     * Where a resumable upload asks for room, as a large upload does: called around each chunk and around the final
     * ingest with the object's full length. The memory and concurrency limits of the store (issue 15, admission
     * control) plug in here; {@link #OPEN} admits everything.
     */
    @FunctionalInterface
    public interface Admission {
        Admission OPEN = bytes -> () -> { };

        /** @throws org.medjava.store.core.StoreException UNAVAILABLE (503, Retry-After) when the store is full */
        Permit admit(long objectBytes);
    }

    /** Held while a chunk is received or the object ingested. */
    public interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    /** What a client may know of an upload: where it will be stored, how much of it the store holds, until when. */
    public record Upload(String id, StorePath target, long length, String sha256, String contentType, String owner,
                         long offset, Instant expires, boolean createOnly) {
        public boolean complete() {
            return offset == length;
        }
    }

    /**
     * A chunk's checksum as the tus checksum extension sends it ({@code Upload-Checksum: sha1 <base64>}).
     *
     * @param algorithm {@code sha1} or {@code sha256}
     */
    public record ChunkChecksum(String algorithm, byte[] expected) {
        /** The algorithms the store checks, in the tus names (sha1 is the one tus requires). */
        public static final String SUPPORTED = "sha1,sha256";

        /** @throws StoreException BAD_REQUEST for an algorithm the store does not know or a value not in base64 */
        public static ChunkChecksum parse(String header) {
            String[] parts = header.trim().split(" +", 2);
            String algorithm = parts[0].toLowerCase(Locale.ROOT);
            if (!algorithm.equals("sha1") && !algorithm.equals("sha256")) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "checksum algorithm \"" + parts[0]
                        + "\" is not supported; use one of " + SUPPORTED);
            }
            try {
                byte[] expected = parts.length < 2 ? new byte[0] : Base64.getDecoder().decode(parts[1].trim());
                if (expected.length != (algorithm.equals("sha1") ? 20 : 32)) {
                    throw new IllegalArgumentException("wrong length");
                }
                return new ChunkChecksum(algorithm, expected);
            } catch (IllegalArgumentException e) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Checksum must be \"" + algorithm
                        + " <the chunk's digest in base64>\"");
            }
        }

        MessageDigest newDigest() {
            return digest(algorithm.equals("sha1") ? "SHA-1" : "SHA-256");
        }
    }

    /** After an append: the new offset and, when it was the last chunk, the stored object. */
    public record Appended(Upload upload, ImageRepository.PutResult stored) {
    }

    private final Path dir;
    private final Ingest ingest;
    private final Duration expiry;
    private final Clock clock;
    private final Admission admission;
    private final Set<String> busy = ConcurrentHashMap.newKeySet();
    private final SecureRandom random = new SecureRandom();

    public ResumableUploads(Path dir, Ingest ingest, Duration expiry) throws IOException {
        this(dir, ingest, expiry, Clock.systemUTC(), Admission.OPEN);
    }

    /**
     * Opens the upload directory and cleans it: expired uploads and part files whose creation did not finish go.
     */
    public ResumableUploads(Path dir, Ingest ingest, Duration expiry, Clock clock, Admission admission)
            throws IOException {
        this.dir = Files.createDirectories(dir);
        this.ingest = ingest;
        this.expiry = expiry;
        this.clock = clock;
        this.admission = admission;
        removeUnfinishedCreations();
        clean();
    }

    public long maxBytes() {
        return ingest.maxBytes();
    }

    public Duration expiry() {
        return expiry;
    }

    /**
     * A new, empty upload for {@code target}.
     *
     * @param sha256      the whole object's SHA-256, lowercase hex: checked when the last byte is in
     * @param contentType the object's declared type (as a PUT's Content-Type), or null
     * @param owner       the account creating it: only it may append, ask or terminate
     * @throws StoreException BAD_REQUEST (a directory, a bad digest or length), TOO_LARGE (above
     *                        medjava.upload.max-bytes: refused before a byte is sent)
     */
    public Upload create(StorePath target, long length, String sha256, String contentType, String owner)
            throws IOException {
        return create(target, length, sha256, contentType, owner, false);
    }

    /**
     * @param createOnly store the object only where no file is (as a PUT with If-None-Match: *): else 412 when it is
     *                   complete, and the upload is discarded
     */
    public Upload create(StorePath target, long length, String sha256, String contentType, String owner,
                         boolean createOnly) throws IOException {
        if (target.isRoot() || target.directory()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "an upload needs a file path; \""
                    + target.relative() + "\" ends with / (directories are created with the files in them)");
        }
        if (length < 0) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "Upload-Length must be a number of bytes");
        }
        if (length > ingest.maxBytes()) {
            throw new StoreException(StoreException.Kind.TOO_LARGE, "the object (" + length + " bytes) is over the"
                    + " store's upload limit of " + ingest.maxBytes() + " bytes (medjava.upload.max-bytes)");
        }
        String digest = sha256 == null ? "" : sha256.toLowerCase(Locale.ROOT);
        if (!SHA256_HEX.matcher(digest).matches()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "an upload needs the object's SHA-256 (64 hex"
                    + " digits in the metadata sha256, or Repr-Digest: sha-256=:base64:), checked when it is complete");
        }
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        String id = HexFormat.of().formatHex(bytes);
        Path part = dir.resolve(id + PART);
        try (FileChannel channel = FileChannel.open(part, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        Properties info = new Properties();
        info.setProperty("target", target.relative());
        info.setProperty("length", Long.toString(length));
        info.setProperty("sha256", digest);
        info.setProperty("owner", owner == null ? "" : owner);
        info.setProperty("contentType", contentType == null ? "" : contentType);
        info.setProperty("created", Long.toString(clock.millis()));
        info.setProperty("createOnly", Boolean.toString(createOnly));
        Path temp = dir.resolve(id + ".tmp");
        try (OutputStream out = Files.newOutputStream(temp)) {
            info.store(out, "a resumable upload (tus); the bytes received are in " + id + PART);
        }
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        move(temp, dir.resolve(id + INFO));
        forceDirectory();
        return read(id).orElseThrow();
    }

    /**
     * @throws StoreException NOT_FOUND (no such upload, or another account's), GONE (expired)
     */
    public Upload status(String id, String owner) {
        Upload upload = find(id, owner);
        if (!upload.expires().isAfter(clock.instant())) {
            if (busy.add(id)) {
                try {
                    remove(id);
                } finally {
                    busy.remove(id);
                }
            }
            throw new StoreException(StoreException.Kind.GONE, "the upload expired at " + upload.expires()
                    + " (medjava.upload.resumable-expiry-hours after its last chunk) and was removed; start again");
        }
        return upload;
    }

    /**
     * Appends a chunk at {@code offset}. A body that breaks off keeps what arrived when it carried no checksum (the
     * client resumes from the offset HEAD gives), and nothing of it when it did (its checksum cannot be checked).
     * When the last byte is in, the object is verified and stored ({@link Appended#stored()}); an empty chunk at the
     * full length retries a completion the store could not finish (503, 507).
     *
     * @param declaredLength the chunk's Content-Length, or -1
     * @param checksum       the chunk's checksum, or null
     * @param caller         who sends the chunk: the audit trail's requestor of the object stored at the end
     * @throws StoreException NOT_FOUND, GONE, LOCKED (another append in progress), CONFLICT (offset is not the
     *                        upload's), TOO_LARGE (beyond Upload-Length), CHECKSUM_MISMATCH (the chunk: discarded; the
     *                        whole object: the upload is discarded), and whatever {@link Ingest#put} refuses
     */
    public Appended append(String id, String owner, long offset, InputStream body, long declaredLength,
                           ChunkChecksum checksum, Caller caller) throws IOException {
        Upload upload = status(id, owner);
        if (!busy.add(id)) {
            throw new StoreException(StoreException.Kind.LOCKED, "another request is appending to this upload;"
                    + " ask HEAD for its offset and try again");
        }
        try {
            upload = read(id).orElseThrow(() -> gone(id)); // terminated meanwhile?
            if (offset != upload.offset()) {
                throw new StoreException(StoreException.Kind.CONFLICT, "Upload-Offset " + offset + " is not the"
                        + " upload's offset " + upload.offset() + "; ask HEAD for it and send from there");
            }
            long room = upload.length() - offset;
            if (declaredLength > room) {
                throw new StoreException(StoreException.Kind.TOO_LARGE, "the chunk has " + declaredLength
                        + " bytes, more than the " + room + " the upload lacks (Upload-Length " + upload.length() + ")");
            }
            if (room > 0 || declaredLength > 0) {
                try (Permit permit = admission.admit(upload.length())) {
                    receive(id, offset, room, body, checksum);
                }
            }
            upload = read(id).orElseThrow(() -> gone(id));
            if (!upload.complete()) {
                return new Appended(upload, null);
            }
            try (Permit permit = admission.admit(upload.length())) {
                return new Appended(upload, complete(upload, caller));
            }
        } finally {
            busy.remove(id);
        }
    }

    /** Writes the body from {@code offset}; at most {@code room} bytes. */
    private void receive(String id, long offset, long room, InputStream body, ChunkChecksum checksum)
            throws IOException {
        MessageDigest digest = checksum == null ? null : checksum.newDigest();
        try (FileChannel channel = FileChannel.open(dir.resolve(id + PART), StandardOpenOption.WRITE)) {
            channel.position(offset);
            byte[] buffer = new byte[BUFFER];
            long received = 0;
            boolean complete = false;
            try {
                for (int n; (n = read(body, buffer, (int) Math.min(buffer.length, room - received + 1), offset
                        + received, checksum != null)) >= 0; ) {
                    if (received + n > room) {
                        channel.truncate(offset);
                        channel.force(true);
                        throw new StoreException(StoreException.Kind.TOO_LARGE, "the chunk goes beyond the upload's"
                                + " length (" + room + " bytes lacking); nothing of it was kept");
                    }
                    channel.write(ByteBuffer.wrap(buffer, 0, n));
                    if (digest != null) {
                        digest.update(buffer, 0, n);
                    }
                    received += n;
                }
                complete = true;
            } finally {
                if (!complete && digest != null) {
                    channel.truncate(offset); // a chunk cut short cannot be checked: none of it counts
                }
                channel.force(true); // what the next HEAD reports is on disk
            }
            if (digest != null && !MessageDigest.isEqual(digest.digest(), checksum.expected())) {
                channel.truncate(offset);
                channel.force(true);
                throw new StoreException(StoreException.Kind.CHECKSUM_MISMATCH, "the chunk does not match its "
                        + checksum.algorithm() + " in Upload-Checksum; it was discarded, the upload stays at offset "
                        + offset);
            }
        }
    }

    /**
     * Reads the body; a connection that breaks off is the client's matter, not the store's trouble: BAD_REQUEST (the
     * client is usually gone; the log gets one line, not a stack trace).
     */
    private static int read(InputStream body, byte[] buffer, int max, long at, boolean checked) {
        try {
            return body.read(buffer, 0, max);
        } catch (IOException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "the chunk broke off at byte " + at + " ("
                    + e.getClass().getSimpleName() + "); " + (checked ? "it carried a checksum, so none of it was"
                    + " kept" : "what arrived was kept") + ": ask HEAD for the offset and send on from there", e);
        }
    }

    /** Verifies the whole object and hands it to the ingest door; the upload goes unless the store was only busy. */
    private ImageRepository.PutResult complete(Upload upload, Caller caller) throws IOException {
        Path part = dir.resolve(upload.id() + PART);
        MessageDigest sha256 = digest("SHA-256");
        try (InputStream in = Files.newInputStream(part)) {
            byte[] buffer = new byte[BUFFER];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha256.update(buffer, 0, n);
            }
        }
        String actual = HexFormat.of().formatHex(sha256.digest());
        if (!actual.equals(upload.sha256())) {
            remove(upload.id());
            throw new StoreException(StoreException.Kind.CHECKSUM_MISMATCH, "the object's SHA-256 is " + actual
                    + ", not the " + upload.sha256() + " given when the upload was created; nothing was stored and"
                    + " the upload was discarded");
        }
        try (InputStream in = Files.newInputStream(part)) {
            ImageRepository.PutResult stored = ingest.put(upload.target(), in, upload.length(),
                    upload.contentType().isEmpty() ? null : upload.contentType(),
                    upload.createOnly() ? new Preconditions(null, "*") : Preconditions.NONE, caller);
            remove(upload.id());
            return stored;
        } catch (StoreException e) {
            if (e.kind().status < 500) { // the object itself was refused (415, 422, ...): sending it again won't help
                remove(upload.id());
            }
            throw e;
        }
    }

    /**
     * Removes an upload (tus termination).
     *
     * @throws StoreException NOT_FOUND, LOCKED (a chunk is being appended)
     */
    public void terminate(String id, String owner) throws IOException {
        find(id, owner);
        if (!busy.add(id)) {
            throw new StoreException(StoreException.Kind.LOCKED, "a chunk is being appended to this upload; try"
                    + " again when it is in");
        }
        try {
            remove(id);
        } finally {
            busy.remove(id);
        }
    }

    /** Removes every expired upload that is not being appended to; returns how many went. */
    public int clean() {
        int removed = 0;
        try (DirectoryStream<Path> infos = Files.newDirectoryStream(dir, "*" + INFO)) {
            for (Path info : infos) {
                String id = info.getFileName().toString().replace(INFO, "");
                try {
                    Upload upload = read(id).orElse(null);
                    if (upload != null && !upload.expires().isAfter(clock.instant()) && busy.add(id)) {
                        try {
                            remove(id);
                            removed++;
                        } finally {
                            busy.remove(id);
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.log(Level.WARNING, "could not clean the resumable upload " + id + ": " + e.getMessage());
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not clean the resumable uploads in " + dir + ": " + e.getMessage());
        }
        if (removed > 0) {
            LOG.info("removed " + removed + " expired resumable upload(s)");
        }
        return removed;
    }

    /** Part files without info (a crash during creation) and info files being written are never uploads. */
    private void removeUnfinishedCreations() throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                boolean orphan = name.endsWith(".tmp") || name.endsWith(PART)
                        && !Files.exists(dir.resolve(name.replace(PART, INFO)));
                if (orphan) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    private Upload find(String id, String owner) {
        try {
            Upload upload = read(id).orElseThrow(() -> gone(id));
            if (!upload.owner().equals(owner == null ? "" : owner)) {
                throw gone(id); // another account's upload is not named to this one
            }
            return upload;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StoreException gone(String id) {
        return new StoreException(StoreException.Kind.NOT_FOUND, "no upload " + id + " (finished, terminated or"
                + " expired)");
    }

    private java.util.Optional<Upload> read(String id) throws IOException {
        if (id == null || !ID.matcher(id).matches()) {
            return java.util.Optional.empty();
        }
        Properties info = new Properties();
        try (InputStream in = Files.newInputStream(dir.resolve(id + INFO))) {
            info.load(new java.io.InputStreamReader(in, StandardCharsets.ISO_8859_1));
        } catch (NoSuchFileException e) {
            return java.util.Optional.empty();
        }
        Path part = dir.resolve(id + PART);
        long offset;
        Instant last;
        try {
            offset = Files.size(part);
            last = Files.getLastModifiedTime(part).toInstant();
        } catch (NoSuchFileException e) {
            return java.util.Optional.empty();
        }
        Instant created = Instant.ofEpochMilli(Long.parseLong(info.getProperty("created")));
        Instant expires = (last.isAfter(created) ? last : created).plus(expiry);
        return java.util.Optional.of(new Upload(id, StorePath.parse(info.getProperty("target")),
                Long.parseLong(info.getProperty("length")), info.getProperty("sha256"),
                info.getProperty("contentType", ""), info.getProperty("owner", ""), offset, expires,
                Boolean.parseBoolean(info.getProperty("createOnly", "false"))));
    }

    /** The info goes first: without it the part file is an orphan, removed at the next start. */
    private void remove(String id) {
        try {
            Files.deleteIfExists(dir.resolve(id + INFO));
            Files.deleteIfExists(dir.resolve(id + PART));
        } catch (IOException e) {
            LOG.log(Level.WARNING, "could not remove the resumable upload " + id + ": " + e.getMessage());
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private void forceDirectory() {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // some file systems cannot open directories: the rename is still atomic, only less durable
        }
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every Java runtime", e);
        }
    }
}
