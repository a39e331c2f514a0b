package org.medjava.store.core.repo;

import org.medjava.store.core.StoreException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageFormat;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.repo.ImageRepository.PutResult;
import org.medjava.store.core.StoreException.Kind;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.storage.StagedBody;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * {@link ImageRepository} on local files, written through the ingest door ({@link Ingest}) as the store writes: writes,
 * refusals that leave the store as it was, listing, deletes, the index kept in step.
 */
class ImageRepositoryTest {

    private static final long MAX_UPLOAD = 64 * 1024;

    @TempDir
    Path root;

    private DicomIndex index;
    private ImageRepository repo;
    private Ingest ingest;
    private final byte[] png1 = TestImages.png(32, 32, 1);
    private final byte[] png2 = TestImages.png(32, 32, 2);

    @BeforeEach
    void setUp() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(Files.createTempDirectory("index-")));
        repo = newRepository(root);
        ingest = Ingest.builder(repo, index, new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS), DuplicatePolicy.REJECT)
                .build();
    }

    @AfterEach
    void closeIndex() {
        index.close();
    }

    // ------------------------------------------------------------------ put

    @Nested
    class Put {

        @Test
        void createsAFileAndItsParents() throws IOException {
            PutResult r = put("p001/ct/one.png", png1);

            assertThat(r.created()).isTrue();
            assertThat(r.file().contentType()).isEqualTo(ImageFormat.PNG.mediaType());
            assertThat(r.file().path()).isEqualTo(StorePath.parse("p001/ct/one.png"));
            assertThat(r.file().size()).isEqualTo(png1.length);
            assertThat(r.file().contentType()).isEqualTo("image/png");
            assertThat(r.file().directory()).isFalse();
            assertThat(Files.readAllBytes(root.resolve("p001/ct/one.png"))).isEqualTo(png1);
            assertStrongEtag(r.file().etag());
            assertThat(repo.stat(StorePath.parse("p001/ct/one.png")).orElseThrow().etag()).isEqualTo(r.file().etag());
            assertThat(repo.stat(StorePath.parse("p001/ct/")).orElseThrow().directory()).isTrue();
            assertStagingEmpty();
        }

        @Test
        void replacesAFileWithANewEtagPerWrite() throws IOException {
            PutResult first = put("a.png", png1);
            PutResult second = put("a.png", png2);
            PutResult third = put("a.png", png2); // same bytes again: still a new write

            assertThat(second.created()).isFalse();
            assertThat(third.created()).isFalse();
            assertThat(Files.readAllBytes(root.resolve("a.png"))).isEqualTo(png2);
            assertStrongEtag(second.file().etag());
            assertThat(second.file().etag()).isNotEqualTo(first.file().etag());
            assertThat(third.file().etag()).isNotEqualTo(second.file().etag());
            assertStagingEmpty();
        }

        @Test
        void storesEveryAcceptedFormat() throws IOException {
            assertThat(put("x/ct.dcm", TestImages.dicom("CT_small.dcm")).file().contentType()).isEqualTo(ImageFormat.DICOM.mediaType());
            assertThat(put("x/c.gif", TestImages.gif("ct-small.gif")).file().contentType()).isEqualTo(ImageFormat.GIF.mediaType());
            assertThat(put("x/j.jpg", TestImages.jpeg(16, 16, 0)).file().contentType()).isEqualTo(ImageFormat.JPEG.mediaType());
            assertThat(repo.stat(StorePath.parse("x/ct.dcm")).orElseThrow().contentType())
                    .isEqualTo("application/dicom");
        }

        @Test
        void declaredLengthOverTheLimitIsRefusedBeforeReading() {
            assertRefused(() -> ingest.put(StorePath.parse("big.png"), unreadable(), MAX_UPLOAD + 1, "image/png",
                    Preconditions.NONE, TestCallers.USER), Kind.TOO_LARGE)
                    .hasMessageContaining((MAX_UPLOAD + 1) + " bytes")
                    .hasMessageContaining("upload limit of " + MAX_UPLOAD);
            assertThat(repo.stat(StorePath.parse("big.png"))).isEmpty();
            assertStagingEmpty();
        }

        @Test
        void bodyGrowingPastTheLimitIsRefusedWithoutReadingItAll() {
            EndlessStream endless = new EndlessStream();

            assertRefused(() -> ingest.put(StorePath.parse("big.png"), endless, -1, null, Preconditions.NONE,
                    TestCallers.USER),
                    Kind.TOO_LARGE)
                    .hasMessageContaining("more than " + MAX_UPLOAD + " bytes");
            assertThat(endless.read).isLessThanOrEqualTo(MAX_UPLOAD + (1 << 16));
            assertThat(repo.stat(StorePath.parse("big.png"))).isEmpty();
            assertStagingEmpty();
        }

        @Test
        void bodyGrowingPastTheLimitLeavesTheOldFile() throws IOException {
            put("a.png", png1);

            assertRefused(() -> ingest.put(StorePath.parse("a.png"), new EndlessStream(), 100, null,
                    Preconditions.NONE, TestCallers.USER), Kind.TOO_LARGE);
            assertThat(Files.readAllBytes(root.resolve("a.png"))).isEqualTo(png1);
            assertStagingEmpty();
        }

        @Test
        void bodyShorterThanItsContentLengthIsABadRequest() {
            assertRefused(() -> ingest.put(StorePath.parse("a.png"), new ByteArrayInputStream(png1), png1.length + 10,
                    "image/png", Preconditions.NONE, TestCallers.USER), Kind.BAD_REQUEST)
                    .hasMessageContaining("ended after " + png1.length + " of the " + (png1.length + 10) + " bytes");
            assertThat(repo.stat(StorePath.parse("a.png"))).isEmpty();
            assertStagingEmpty();
        }

        @Test
        void failedValidationLeavesThePreviousFileByteIdentical() throws IOException {
            PutResult before = put("scan.png", png1);

            assertRefused(() -> put("scan.png", TestImages.truncated(png2)), Kind.UNPROCESSABLE);
            assertRefused(() -> put("scan.png", "not an image".getBytes()), Kind.UNSUPPORTED_MEDIA_TYPE);
            assertRefused(() -> put("scan.png", TestImages.gif("ct-small.gif")), Kind.UNSUPPORTED_MEDIA_TYPE);

            assertThat(Files.readAllBytes(root.resolve("scan.png"))).isEqualTo(png1);
            assertThat(repo.stat(StorePath.parse("scan.png")).orElseThrow().etag()).isEqualTo(before.file().etag());
            assertStagingEmpty();
        }

        @Test
        void aDeeplyNestedDicomReplacesNothing() throws Exception {
            put("keep.dcm", TestImages.dicom("CT_small.dcm"));
            byte[] before = Files.readAllBytes(root.resolve("keep.dcm"));
            byte[] deep = org.medjava.filter.testkit.NestedDicom.part10(2000,
                    org.medjava.filter.testkit.NestedDicom.Syntax.IMPLICIT_LE, false, "1.2.826.0.1.3680043.9.8");
            assertRefused(() -> put("keep.dcm", deep), Kind.UNPROCESSABLE)
                    .hasMessage("malformed: DICOM sequence nesting deeper than 64 levels");

            assertThat(Files.readAllBytes(root.resolve("keep.dcm"))).isEqualTo(before);
            assertStagingEmpty();
        }

        @Test
        void failedValidationOfANewFileCreatesNothing() {
            assertRefused(() -> put("new/dir/x.dcm", TestImages.dicom("MR_truncated.dcm")), Kind.UNPROCESSABLE);

            assertThat(repo.stat(StorePath.parse("new/"))).isEmpty();
            assertStagingEmpty();
        }

        @Test
        void fileUnderAFileIsAConflict() throws IOException {
            put("a.png", png1);

            assertRefused(() -> put("a.png/b.png", png2), Kind.CONFLICT)
                    .hasMessageStartingWith("a.png")
                    .hasMessageContaining("is a file, so a.png/b.png cannot be created under it");
            assertRefused(() -> put("a.png/c/d.png", png2), Kind.CONFLICT)
                    .hasMessageStartingWith("a.png")
                    .hasMessageContaining("is a file, so a.png/c/d.png cannot be created under it");
            // reading through a file is "not found", not a server error
            assertThat(repo.stat(StorePath.parse("a.png/b.png"))).isEmpty();
            assertThat(repo.stat(StorePath.parse("a.png/c/d.png"))).isEmpty();
            assertThat(Files.readAllBytes(root.resolve("a.png"))).isEqualTo(png1);
            assertStagingEmpty();
        }

        @Test
        void directoryPathIsABadRequest() {
            assertRefused(() -> put("dir/", png1), Kind.BAD_REQUEST).hasMessageContaining("ends with /");
            assertRefused(() -> ingest.put(StorePath.ROOT, new ByteArrayInputStream(png1), png1.length, null,
                    Preconditions.NONE, TestCallers.USER), Kind.BAD_REQUEST);
            assertThat(repo.stat(StorePath.parse("dir/"))).isEmpty();
        }

        @Test
        void fileOverAnExistingDirectoryIsAConflict() throws IOException {
            put("dir/inside.png", png1);

            assertRefused(() -> put("dir", png2), Kind.CONFLICT).hasMessageContaining("dir is a directory");
            assertThat(repo.stat(StorePath.parse("dir/")).orElseThrow().directory()).isTrue();
            assertThat(Files.readAllBytes(root.resolve("dir/inside.png"))).isEqualTo(png1);
            assertStagingEmpty();
        }
    }

    // ------------------------------------------------------------------ preconditions

    @Nested
    class InstallStaged {

        private StagedBody staged(byte[] body) throws IOException {
            Path file = repo.newStagingFile("test-");
            Files.write(file, body);
            return repo.stage(file);
        }

        @Test
        void installsAndCallsTheWriterUnderTheLock() throws IOException {
            List<StoredFile> seen = new ArrayList<>();
            PutResult r = repo.install(StorePath.parse("net/a/b/one.png"), staged(png1), Preconditions.NONE, seen::add);

            assertThat(r.created()).isTrue();
            assertThat(Files.readAllBytes(root.resolve("net/a/b/one.png"))).isEqualTo(png1);
            assertThat(seen).singleElement().satisfies(f -> {
                assertThat(f.path()).isEqualTo(StorePath.parse("net/a/b/one.png"));
                assertThat(f.size()).isEqualTo(png1.length);
            });
            assertStagingEmpty();
        }

        @Test
        void aFailedPreconditionStoresNothingAndConsumesTheStagedFile() throws IOException {
            put("net/two.png", png1);
            List<StoredFile> seen = new ArrayList<>();
            assertThatThrownBy(() -> repo.install(StorePath.parse("net/two.png"), staged(png2), new Preconditions(null, "*"), seen::add)).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.kind()).isEqualTo(Kind.PRECONDITION_FAILED));
            assertThat(Files.readAllBytes(root.resolve("net/two.png"))).isEqualTo(png1);
            assertThat(seen).isEmpty();
            assertStagingEmpty();
        }

        @Test
        void aBodyOverTheLimitIsRefused() throws IOException {
            StagedBody big = staged(new byte[(int) MAX_UPLOAD + 1]);
            assertThatThrownBy(() -> repo.install(StorePath.parse("net/big.png"), big, Preconditions.NONE, f -> true)).isInstanceOfSatisfying(StoreException.class,
                    e -> assertThat(e.kind()).isEqualTo(Kind.TOO_LARGE));
            assertThat(root.resolve("net/big.png")).doesNotExist();
            assertStagingEmpty();
        }

        @Test
        void onlyFilesInTheStagingDirectoryAreTaken() throws IOException {
            Path outside = Files.write(root.resolve("outside.part"), png1);
            assertThatThrownBy(() -> repo.stage(outside)).isInstanceOf(IllegalArgumentException.class);
        }

        private void assertStagingEmpty() throws IOException {
            try (Stream<Path> files = Files.list(root.resolve(".staging"))) {
                assertThat(files.toList()).isEmpty();
            }
        }
    }

    @Nested
    class ConditionalWrites {

        @Test
        void ifNoneMatchStarCreatesButDoesNotReplace() throws IOException {
            PutResult created = ingest.put(StorePath.parse("a.png"), new ByteArrayInputStream(png1), png1.length, null,
                    new Preconditions(null, "*"), TestCallers.USER);
            assertThat(created.created()).isTrue();

            // refused before the body is read
            assertRefused(() -> ingest.put(StorePath.parse("a.png"), unreadable(), png2.length, null,
                    new Preconditions(null, "*"), TestCallers.USER), Kind.PRECONDITION_FAILED)
                    .hasMessageContaining("already exists");
            assertThat(Files.readAllBytes(root.resolve("a.png"))).isEqualTo(png1);
            assertStagingEmpty();
        }

        @Test
        void ifMatchWithTheCurrentEtagReplaces() throws IOException {
            String etag = put("a.png", png1).file().etag();

            PutResult r = ingest.put(StorePath.parse("a.png"), new ByteArrayInputStream(png2), png2.length, null,
                    new Preconditions(etag, null), TestCallers.USER);

            assertThat(r.created()).isFalse();
            assertThat(Files.readAllBytes(root.resolve("a.png"))).isEqualTo(png2);
        }

        @Test
        void ifMatchWithAStaleEtagIsRefused() throws IOException {
            String stale = put("a.png", png1).file().etag();
            put("a.png", png2);

            assertRefused(() -> ingest.put(StorePath.parse("a.png"), unreadable(), png1.length, null,
                    new Preconditions(stale, null), TestCallers.USER), Kind.PRECONDITION_FAILED)
                    .hasMessageContaining("has changed");
            assertThat(Files.readAllBytes(root.resolve("a.png"))).isEqualTo(png2);
        }

        @Test
        void ifMatchOnAMissingFileIsRefused() {
            assertRefused(() -> ingest.put(StorePath.parse("a.png"), unreadable(), png1.length, null,
                    new Preconditions("*", null), TestCallers.USER), Kind.PRECONDITION_FAILED)
                    .hasMessageContaining("does not exist");
            assertThat(repo.stat(StorePath.parse("a.png"))).isEmpty();
        }

        @Test
        void deleteWithAStaleEtagIsRefused() throws IOException {
            String stale = put("a.png", png1).file().etag();
            put("a.png", png2);

            assertRefused(() -> ingest.delete(StorePath.parse("a.png"), new Preconditions(stale, null),
                    TestCallers.USER),
                    Kind.PRECONDITION_FAILED);
            assertThat(root.resolve("a.png")).exists();
        }
    }

    // ------------------------------------------------------------------ delete

    @Nested
    class Delete {

        @Test
        void deletesAFile() throws IOException {
            put("d/a.png", png1);

            ingest.delete(StorePath.parse("d/a.png"), Preconditions.NONE, TestCallers.USER);

            assertThat(root.resolve("d/a.png")).doesNotExist();
            assertThat(repo.stat(StorePath.parse("d/a.png"))).isEmpty();
        }

        @Test
        void missingIsNotFound() {
            assertRefused(() -> ingest.delete(StorePath.parse("nope.png"), Preconditions.NONE, TestCallers.USER),
                    Kind.NOT_FOUND)
                    .hasMessageContaining("no nope.png in the store");
        }

        @Test
        void nonEmptyDirectoryIsAConflict() throws IOException {
            put("d/a.png", png1);

            assertRefused(() -> ingest.delete(StorePath.parse("d/"), Preconditions.NONE, TestCallers.USER),
                    Kind.CONFLICT)
                    .hasMessageContaining("d/ is not empty");
            assertRefused(() -> ingest.delete(StorePath.parse("d"), Preconditions.NONE, TestCallers.USER),
                    Kind.CONFLICT);
            assertThat(root.resolve("d/a.png")).exists();
        }

        @Test
        void emptyDirectoryIsDeleted() throws IOException {
            put("d/a.png", png1);
            ingest.delete(StorePath.parse("d/a.png"), Preconditions.NONE, TestCallers.USER);

            ingest.delete(StorePath.parse("d/"), Preconditions.NONE, TestCallers.USER);

            assertThat(root.resolve("d")).doesNotExist();
        }

        @Test
        void rootCannotBeDeleted() {
            assertRefused(() -> ingest.delete(StorePath.ROOT, Preconditions.NONE, TestCallers.USER), Kind.BAD_REQUEST)
                    .hasMessageContaining("root");
            assertThat(root).isDirectory();
        }
    }

    // ------------------------------------------------------------------ list

    @Nested
    class Listing {

        @Test
        void directoriesFirstThenByNameWithoutDotNames() throws IOException {
            put("b.png", png1);
            put("a.gif", TestImages.gif("ct-small.gif"));
            put("zdir/x.png", png1);
            put("adir/y.png", png1);
            Files.writeString(root.resolve(".hidden"), "not listed");
            Files.createDirectories(root.resolve(".trash"));

            List<StoredFile> entries = repo.list(StorePath.ROOT);

            assertThat(entries).extracting(f -> f.path().relative())
                    .containsExactly("adir/", "zdir/", "a.gif", "b.png");
            assertThat(entries).extracting(StoredFile::directory).containsExactly(true, true, false, false);
            assertThat(entries.get(2).contentType()).isEqualTo("image/gif");
            assertThat(entries.get(3).etag()).isEqualTo(repo.stat(StorePath.parse("b.png")).orElseThrow().etag());
        }

        @Test
        void listsASubdirectory() throws IOException {
            put("p/ct/1.png", png1);
            put("p/ct/2.png", png2);

            assertThat(repo.list(StorePath.parse("p/ct/"))).extracting(f -> f.path().relative())
                    .containsExactly("p/ct/1.png", "p/ct/2.png");
            assertThat(repo.list(StorePath.parse("p/"))).extracting(f -> f.path().relative())
                    .containsExactly("p/ct/");
        }

        @Test
        void missingOrFileIsNotFound() throws IOException {
            put("a.png", png1);

            assertRefused(() -> repo.list(StorePath.parse("nope/")), Kind.NOT_FOUND);
            assertRefused(() -> repo.list(StorePath.parse("a.png")), Kind.NOT_FOUND)
                    .hasMessageContaining("a.png is a file");
        }

        @Test
        void emptyRepositoryListsNothing() {
            assertThat(repo.list(StorePath.ROOT)).isEmpty();
        }
    }

    // ------------------------------------------------------------------ listener, concurrency, start-up

    @Test
    void theIndexFollowsEveryWriteInOrder() throws IOException {
        byte[] ct = TestImages.dicom("CT_small.dcm");
        put("b/c", ct);
        assertThat(index.instance("b/c")).isPresent();
        put("b/c", png1); // a DICOM replaced by a PNG leaves the index
        assertThat(index.instance("b/c")).isEmpty();
        put("b/c", ct);
        assertRefused(() -> put("b/c", TestImages.truncated(ct)), Kind.UNPROCESSABLE);
        assertThat(index.instance("b/c")).get().extracting(i -> i.size()).isEqualTo((long) ct.length);
        ingest.delete(StorePath.parse("b/c"), Preconditions.NONE, TestCallers.USER);
        assertThat(index.instance("b/c")).isEmpty();
        ingest.delete(StorePath.parse("b/"), Preconditions.NONE, TestCallers.USER);
        assertThat(index.count()).isZero();
    }

    @Test
    void concurrentWritersToOnePathLeaveOneCompleteWinner() throws Exception {
        int writers = 8;
        List<byte[]> bodies = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            bodies.add(TestImages.png(48, 48, 10 + i));
        }
        StorePath path = StorePath.parse("shared/one.png");
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<PutResult>> results = new ArrayList<>();
            for (byte[] body : bodies) {
                results.add(pool.submit(() -> {
                    start.await();
                    return ingest.put(path, new ByteArrayInputStream(body), body.length, "image/png",
                            Preconditions.NONE, TestCallers.USER);
                }));
            }
            start.countDown();
            int created = 0;
            for (Future<PutResult> f : results) {
                created += f.get(60, TimeUnit.SECONDS).created() ? 1 : 0;
            }
            assertThat(created).as("exactly one writer created the file").isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }

        byte[] stored = Files.readAllBytes(root.resolve("shared/one.png"));
        assertThat(bodies).anySatisfy(b -> assertThat(stored).isEqualTo(b));
        assertStagingEmpty();
    }

    @Test
    void leftoversInStagingAreRemovedAtStart() throws IOException {
        Path other = root.resolve("other");
        Files.createDirectories(other.resolve(".staging"));
        Files.write(other.resolve(".staging/put-123.part"), png1);
        Files.writeString(other.resolve(".staging/put-456.part"), "half a body");
        Files.createDirectories(other.resolve("kept"));
        Files.write(other.resolve("kept/x.png"), png1);

        ImageRepository restarted = newRepository(other);

        assertThat(list(other.resolve(".staging"))).isEmpty();
        assertThat(Files.readAllBytes(other.resolve("kept/x.png"))).isEqualTo(png1);
        assertThat(restarted.list(StorePath.ROOT)).extracting(f -> f.path().relative()).containsExactly("kept/");
    }

    @Test
    void stagingIsNeitherAddressableNorListed() throws IOException {
        assertThat(root.resolve(".staging")).isDirectory();
        assertThat(repo.list(StorePath.ROOT)).isEmpty();
        assertThatThrownBy(() -> StorePath.parse(".staging/")).isInstanceOf(StorePath.BadPathException.class);
    }

    // ------------------------------------------------------------------ helpers

    private ImageRepository newRepository(Path dir) throws IOException {
        return new ImageRepository(new LocalFileStorage(dir), MAX_UPLOAD);
    }

    private PutResult put(String path, byte[] body) throws IOException {
        return ingest.put(StorePath.parse(path), new ByteArrayInputStream(body), body.length, null,
                Preconditions.NONE, TestCallers.USER);
    }

    private void assertStagingEmpty() {
        assertThat(list(root.resolve(".staging"))).as("files left in .staging").isEmpty();
    }

    private static List<Path> list(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertStrongEtag(String etag) {
        assertThat(etag).startsWith("\"").endsWith("\"").doesNotStartWith("W/").hasSizeGreaterThan(2);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertRefused(ThrowingCallable call, Kind kind) {
        return assertThatThrownBy(call).isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(((StoreException) e).kind()).as(e.getMessage()).isEqualTo(kind));
    }

    /** A body that must not be read: the repository has to refuse the request first. */
    private static InputStream unreadable() {
        return new InputStream() {
            @Override
            public int read() {
                throw new AssertionError("the body was read, but the request should have been refused first");
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return read();
            }
        };
    }

    /** A body that never ends (counts what was read). */
    private static final class EndlessStream extends InputStream {
        long read;

        @Override
        public int read() {
            read++;
            return 'x';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Arrays.fill(b, off, off + len, (byte) 'x');
            read += len;
            return len;
        }
    }
}
