package org.medjava.store.core.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.index.TestDicom;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.repo.UploadValidator;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.testsupport.MovableClock;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * The state machine behind tus uploads ({@link ResumableUploads}) on a temp repository and an H2 index: chunks at the
 * confirmed offset, offsets that disagree, chunk checksums, a body that breaks off, the whole object's SHA-256, the
 * per-upload lock, a restart over the same directory, expiry and cleaning, termination.
 */
class ResumableUploadsTest {

    private static final Duration EXPIRY = Duration.ofHours(24);
    private static final StorePath TARGET = StorePath.parse("resumable/ct.dcm");

    @TempDir
    Path dir;
    private DicomIndex index;
    private LocalFileStorage storage;
    private Ingest ingest;
    private MovableClock clock;
    private byte[] object;

    @BeforeEach
    void open() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(dir.resolve("index")));
        storage = new LocalFileStorage(dir.resolve("images"));
        ImageRepository images = new ImageRepository(storage, 1 << 24);
        ingest = Ingest.builder(images, index, new UploadValidator(1 << 24), DuplicatePolicy.REPLACE).build();
        clock = new MovableClock(Instant.now());
        object = Files.readAllBytes(TestDicom.ct().patient("RU1", "Resumable^Test")
                .study("1.2.826.0.1.3680043.9.71", "20240101").series("1.2.826.0.1.3680043.9.72", "CT", 1)
                .instance("1.2.826.0.1.3680043.9.73", 1).writeTo(dir.resolve("ct.dcm")));
    }

    @AfterEach
    void close() {
        index.close();
    }

    private ResumableUploads uploads() throws IOException {
        return new ResumableUploads(dir.resolve("work/uploads"), ingest, EXPIRY, clock,
                ResumableUploads.Admission.OPEN);
    }

    private ResumableUploads.Upload create(ResumableUploads uploads, byte[] bytes) throws IOException {
        return uploads.create(TARGET, bytes.length, sha256Hex(bytes), null, "alice");
    }

    private static ResumableUploads.Appended append(ResumableUploads uploads, String id, byte[] all, int from, int to)
            throws IOException {
        return uploads.append(id, "alice", from, new ByteArrayInputStream(all, from, to - from), to - from, null,
                TestCallers.USER);
    }

    @Test
    void chunksAtTheConfirmedOffsetStoreTheObjectThroughTheIngestDoorAndTheUploadGoes() throws Exception {
        ResumableUploads uploads = uploads();
        ResumableUploads.Upload upload = create(uploads, object);
        assertThat(upload.offset()).isZero();
        assertThat(upload.expires()).isBetween(clock.instant().plus(EXPIRY).minusSeconds(1),
                clock.instant().plus(EXPIRY).plusSeconds(60));

        int a = object.length / 3;
        int b = 2 * object.length / 3;
        assertThat(append(uploads, upload.id(), object, 0, a).upload().offset()).isEqualTo(a);
        assertThat(append(uploads, upload.id(), object, a, b).stored()).isNull();
        assertThat(uploads.status(upload.id(), "alice").offset()).isEqualTo(b);
        ResumableUploads.Appended last = append(uploads, upload.id(), object, b, object.length);

        assertThat(last.stored()).isNotNull();
        assertThat(last.stored().created()).isTrue();
        assertThat(Files.readAllBytes(storage.root().resolve(TARGET.relative()))).isEqualTo(object);
        assertThat(index.instance(TARGET.relative())).get().extracting(i -> i.patientId()).isEqualTo("RU1");
        assertThatThrownBy(() -> uploads.status(upload.id(), "alice")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
        assertThat(uploadFiles()).isEmpty();
    }

    @Test
    void anOffsetThatIsNotTheUploadsIsAConflictAndChangesNothing() throws Exception {
        ResumableUploads uploads = uploads();
        String id = create(uploads, object).id();
        append(uploads, id, object, 0, 100);

        assertThatThrownBy(() -> append(uploads, id, object, 50, 200)).isInstanceOfSatisfying(StoreException.class,
                e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT);
                    assertThat(e.getMessage()).contains("offset 100");
                });
        assertThat(uploads.status(id, "alice").offset()).isEqualTo(100);
    }

    @Test
    void aChunkChecksumIsCheckedInSha1OrSha256AndAWrongOneDiscardsTheChunk() throws Exception {
        ResumableUploads uploads = uploads();
        String id = create(uploads, object).id();
        byte[] first = Arrays.copyOfRange(object, 0, 1000);
        uploads.append(id, "alice", 0, new ByteArrayInputStream(first), first.length,
                ResumableUploads.ChunkChecksum.parse("sha1 " + base64("SHA-1", first)), TestCallers.USER);
        assertThat(uploads.status(id, "alice").offset()).isEqualTo(1000);

        byte[] second = Arrays.copyOfRange(object, 1000, 2000);
        byte[] tampered = second.clone();
        tampered[10] ^= 1;
        ResumableUploads.ChunkChecksum checksum = ResumableUploads.ChunkChecksum.parse(
                "sha256 " + base64("SHA-256", second));
        assertThatThrownBy(() -> uploads.append(id, "alice", 1000, new ByteArrayInputStream(tampered),
                tampered.length, checksum, TestCallers.USER)).isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.CHECKSUM_MISMATCH);
                    assertThat(e.kind().status).isEqualTo(460);
                });
        assertThat(uploads.status(id, "alice").offset()).isEqualTo(1000);

        uploads.append(id, "alice", 1000, new ByteArrayInputStream(second), second.length, checksum, TestCallers.USER);
        assertThat(uploads.status(id, "alice").offset()).isEqualTo(2000);
    }

    @Test
    void unknownOrMalformedChecksumsAreBadRequests() {
        assertThatThrownBy(() -> ResumableUploads.ChunkChecksum.parse("md5 AAAA"))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST);
                    assertThat(e.getMessage()).contains("sha1,sha256");
                });
        assertThatThrownBy(() -> ResumableUploads.ChunkChecksum.parse("sha1 not-base64!"))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
    }

    @Test
    void aBodyThatBreaksOffKeepsWhatArrivedUnlessItCarriedAChecksum() throws Exception {
        ResumableUploads uploads = uploads();
        String id = create(uploads, object).id();

        assertThatThrownBy(() -> uploads.append(id, "alice", 0, breaksOffAfter(object, 0, 700), 2000, null,
                TestCallers.USER))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST);
                    assertThat(e.getMessage()).contains("broke off at byte 700", "what arrived was kept");
                });
        assertThat(uploads.status(id, "alice").offset()).isEqualTo(700);

        byte[] chunk = Arrays.copyOfRange(object, 700, 2700);
        assertThatThrownBy(() -> uploads.append(id, "alice", 700, breaksOffAfter(object, 700, 1500), 2000,
                ResumableUploads.ChunkChecksum.parse("sha256 " + base64("SHA-256", chunk)), TestCallers.USER))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.getMessage()).contains("none of it was kept"));
        assertThat(uploads.status(id, "alice").offset()).isEqualTo(700);

        ResumableUploads.Appended done = append(uploads, id, object, 700, object.length);
        assertThat(done.stored()).isNotNull();
        assertThat(Files.readAllBytes(storage.root().resolve(TARGET.relative()))).isEqualTo(object);
    }

    @Test
    void aWrongWholeObjectDigestStoresNothingAndDiscardsTheUpload() throws Exception {
        ResumableUploads uploads = uploads();
        String id = uploads.create(TARGET, object.length, sha256Hex("something else".getBytes()), null, "alice").id();

        assertThatThrownBy(() -> append(uploads, id, object, 0, object.length))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.CHECKSUM_MISMATCH);
                    assertThat(e.getMessage()).contains("nothing was stored");
                });
        assertThat(storage.root().resolve(TARGET.relative())).doesNotExist();
        assertThat(index.instance(TARGET.relative())).isEmpty();
        assertThat(uploadFiles()).isEmpty();
    }

    @Test
    void anObjectTheIngestDoorRefusesIsNotStoredAndTheUploadGoes() throws Exception {
        ResumableUploads uploads = uploads();
        byte[] notAnImage = "just some text, not an image".getBytes();
        String id = uploads.create(StorePath.parse("resumable/x.png"), notAnImage.length, sha256Hex(notAnImage),
                null, "alice").id();

        assertThatThrownBy(() -> append(uploads, id, notAnImage, 0, notAnImage.length))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind().status).isBetween(400, 499));
        assertThat(storage.root().resolve("resumable/x.png")).doesNotExist();
        assertThat(uploadFiles()).isEmpty();
    }

    @Test
    void createOnlyKeepsAFileAlreadyAtThePathAsAPutWithIfNoneMatchDoes() throws Exception {
        ResumableUploads uploads = uploads();
        append(uploads, create(uploads, object).id(), object, 0, object.length);
        byte[] other = Files.readAllBytes(TestDicom.ct().patient("RU2", "Other^Test").writeTo(dir.resolve("o.dcm")));
        String id = uploads.create(TARGET, other.length, sha256Hex(other), null, "alice", true).id();

        assertThatThrownBy(() -> append(uploads, id, other, 0, other.length))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.PRECONDITION_FAILED));
        assertThat(Files.readAllBytes(storage.root().resolve(TARGET.relative()))).isEqualTo(object);
        assertThat(uploadFiles()).isEmpty();
    }

    @Test
    void creationChecksTheLimitTheDigestAndThePathUpFront() throws Exception {
        ResumableUploads uploads = uploads();
        String sha = sha256Hex(object);
        assertThatThrownBy(() -> uploads.create(TARGET, (1 << 24) + 1, sha, null, "alice"))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.TOO_LARGE);
                    assertThat(e.getMessage()).contains("medjava.upload.max-bytes");
                });
        assertThatThrownBy(() -> uploads.create(TARGET, 10, "abc", null, "alice"))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
        assertThatThrownBy(() -> uploads.create(StorePath.parse("resumable/"), 10, sha, null, "alice"))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
        assertThat(uploadFiles()).isEmpty();
    }

    @Test
    void anotherAccountDoesNotSeeTheUpload() throws Exception {
        ResumableUploads uploads = uploads();
        String id = create(uploads, object).id();
        assertThatThrownBy(() -> uploads.status(id, "mallory")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
        assertThatThrownBy(() -> uploads.terminate(id, "mallory")).isInstanceOf(StoreException.class);
        assertThatThrownBy(() -> uploads.status("../../etc/passwd", "alice")).isInstanceOf(StoreException.class);
        assertThat(uploads.status(id, "alice").offset()).isZero();
    }

    @Test
    void aSecondAppendWhileOneIsInProgressIsLockedOut() throws Exception {
        ResumableUploads uploads = uploads();
        String id = create(uploads, object).id();
        CountDownLatch reading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        InputStream slow = new InputStream() {
            private int sent;

            @Override
            public int read() throws IOException {
                reading.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                return sent < 10 ? object[sent++] & 0xff : -1;
            }
        };
        CompletableFuture<ResumableUploads.Appended> first = CompletableFuture.supplyAsync(() -> {
            try {
                return uploads.append(id, "alice", 0, slow, 10, null, TestCallers.USER);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(reading.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> append(uploads, id, object, 0, 10)).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.LOCKED));
        assertThatThrownBy(() -> uploads.terminate(id, "alice")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind().status).isEqualTo(423));
        release.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).upload().offset()).isEqualTo(10);
    }

    @Test
    void anUploadResumesAfterARestartOverTheSameDirectory() throws Exception {
        String id = create(uploads(), object).id();
        append(uploads(), id, object, 0, 1234);

        ResumableUploads restarted = uploads();
        assertThat(restarted.status(id, "alice").offset()).isEqualTo(1234);
        assertThat(append(restarted, id, object, 1234, object.length).stored()).isNotNull();
        assertThat(Files.readAllBytes(storage.root().resolve(TARGET.relative()))).isEqualTo(object);
    }

    @Test
    void anUploadExpiresAfterItsLastChunkAndIsCleanedPeriodicallyAndAtStart() throws Exception {
        ResumableUploads uploads = uploads();
        String idle = create(uploads, object).id();
        String active = create(uploads, object).id();
        append(uploads, active, object, 0, 10);

        clock.advance(EXPIRY.minusMinutes(1));
        assertThat(uploads.clean()).isZero();
        append(uploads, active, object, 10, 20); // its expiry moves on with this chunk... 
        Files.setLastModifiedTime(dir.resolve("work/uploads/" + active + ".part"),
                java.nio.file.attribute.FileTime.from(clock.instant())); // ...(the file's time is the real clock's)
        clock.advance(Duration.ofMinutes(2));

        assertThatThrownBy(() -> uploads.status(idle, "alice")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.GONE));
        assertThat(uploads.status(active, "alice").offset()).isEqualTo(20);
        String another = create(uploads, object).id();
        clock.advance(Duration.ofHours(23).plusMinutes(59)); // past active's last chunk + 24 h, not another's creation
        assertThat(uploads.clean()).isEqualTo(1); // 'active'; 'idle' went when it was asked for
        assertThat(uploadFiles()).containsExactlyInAnyOrder(another + ".info", another + ".part");

        clock.advance(EXPIRY);
        Files.write(dir.resolve("work/uploads/0123456789abcdef0123456789abcdef.part"), new byte[3]); // crash in create
        uploads();
        assertThat(uploadFiles()).isEmpty();
    }

    @Test
    void terminationRemovesTheUpload() throws Exception {
        ResumableUploads uploads = uploads();
        String id = create(uploads, object).id();
        append(uploads, id, object, 0, 10);
        uploads.terminate(id, "alice");
        assertThat(uploadFiles()).isEmpty();
        assertThatThrownBy(() -> append(uploads, id, object, 10, 20)).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
    }

    private java.util.List<String> uploadFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("work/uploads"))) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    /** Sends bytes {@code [from, to)} of {@code all}, then fails as a dropped connection does. */
    private static InputStream breaksOffAfter(byte[] all, int from, int to) {
        return new java.io.SequenceInputStream(new ByteArrayInputStream(all, from, to - from), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("connection reset");
            }
        });
    }

    static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String base64(String algorithm, byte[] bytes) throws Exception {
        return Base64.getEncoder().encodeToString(MessageDigest.getInstance(algorithm).digest(bytes));
    }
}
