package org.medjava.store.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.codec.ImageCodec;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexDatabase;
import org.medjava.store.core.ingest.DuplicatePolicy;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.model.Preconditions;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.core.storage.DiskSpaceGuard;
import org.medjava.store.core.storage.LocalCopy;
import org.medjava.store.core.storage.LocalFileStorage;
import org.medjava.store.core.storage.ObjectStorage;
import org.medjava.store.core.storage.StagedBody;
import org.medjava.store.core.storage.StorageEntry;
import org.medjava.store.core.testsupport.RecordingMetrics;
import org.medjava.store.core.testsupport.TestCallers;

/**
 * A nearly full disk: writes are refused with 507 before they start (nothing read, nothing staged), reads go on, and
 * a disk that fills up part-way through a write (a real ENOSPC, from {@code /dev/full}) gives 507 and leaves what
 * was stored as it was. The ingest door counts what it stores and refuses.
 */
class FullDiskTest {

    private static final long FLOOR = 1L << 30;

    @TempDir
    Path root;

    private final AtomicLong free = new AtomicLong(10 * FLOOR);
    private final RecordingMetrics metrics = new RecordingMetrics();
    private DicomIndex index;
    private LocalFileStorage files;
    private Ingest ingest;
    private ImageRepository repo;
    private final byte[] png1 = TestImages.png(32, 32, 1);
    private final byte[] png2 = TestImages.png(32, 32, 2);

    @BeforeEach
    void open() throws IOException {
        index = new DicomIndex(IndexDatabase.h2(root.resolve("index")));
        files = new LocalFileStorage(root.resolve("images"));
        use(files);
    }

    private void use(ObjectStorage storage) {
        DiskSpaceGuard guard = new DiskSpaceGuard(FLOOR, List.of(files.root()), dir -> free.get());
        repo = new ImageRepository(storage, 1 << 24, new LocalPathLocks(), guard);
        ingest = Ingest.builder(repo, index, new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS), DuplicatePolicy.REJECT)
                .metrics(metrics).build();
    }

    @AfterEach
    void close() {
        index.close();
    }

    private ImageRepository.PutResult put(String path, byte[] body) throws IOException {
        return ingest.put(StorePath.parse(path), new ByteArrayInputStream(body), body.length, "image/png",
                Preconditions.NONE, TestCallers.USER);
    }

    private void assertStagingEmpty() throws IOException {
        try (Stream<Path> left = Files.list(files.root().resolve(".staging"))) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void belowTheFloorAPutIsRefusedBeforeItsBodyIsReadAndReadsGoOn() throws IOException {
        put("a/old.png", png1);
        free.set(FLOOR - 1);
        InputStream untouchable = new InputStream() {
            @Override
            public int read() {
                throw new AssertionError("the body of a refused write was read");
            }
        };

        assertThatThrownBy(() -> ingest.put(StorePath.parse("a/old.png"), untouchable, png2.length, "image/png",
                Preconditions.NONE, TestCallers.USER)).isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(StoreException.Kind.INSUFFICIENT_STORAGE);
                    assertThat(e.getMessage()).contains("free on the disk of " + files.root(), "floor 1.0 GiB");
                });

        StoredFile stored = repo.stat(StorePath.parse("a/old.png")).orElseThrow();
        try (InputStream in = repo.open(stored, 0, stored.size())) {
            assertThat(in.readAllBytes()).isEqualTo(png1);
        }
        assertStagingEmpty();
        assertThat(metrics.events()).containsExactly("ingested put " + png1.length,
                "refused put insufficient_storage");
    }

    @Test
    void aBodyThatWouldCrossTheFloorIsRefusedByItsContentLength() {
        free.set(FLOOR + png1.length - 1);

        assertThatThrownBy(() -> put("b.png", png1)).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.INSUFFICIENT_STORAGE));
        assertThat(repo.stat(StorePath.parse("b.png"))).isEmpty();
    }

    @Test
    void theNetworkGetsNoStagingFileBelowTheFloor() throws IOException {
        free.set(FLOOR / 2);

        assertThatThrownBy(ingest::newStagingFile).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.INSUFFICIENT_STORAGE));
        assertStagingEmpty();
    }

    @Test
    void writesResumeOnceSpaceIsFreed() throws IOException {
        free.set(0);
        assertThatThrownBy(() -> put("c.png", png1)).isInstanceOf(StoreException.class);

        free.set(2 * FLOOR);
        assertThat(put("c.png", png1).created()).isTrue();
    }

    @Test
    void aDiskThatFillsUpMidWriteGives507AndKeepsThePreviousVersion() throws IOException {
        Path devFull = Path.of("/dev/full");
        assumeTrue(Files.isWritable(devFull), "needs /dev/full (Linux) for a real ENOSPC");
        put("d/kept.png", png1);
        use(new FullStagingStorage(files, devFull));

        assertThatThrownBy(() -> put("d/kept.png", png2)).isInstanceOfSatisfying(StoreException.class, e -> {
            assertThat(e.kind()).isEqualTo(StoreException.Kind.INSUFFICIENT_STORAGE);
            assertThat(e.getMessage()).contains("ran out of space", "No space left on device",
                    "previous version, if any, is unchanged");
        });

        StoredFile stored = repo.stat(StorePath.parse("d/kept.png")).orElseThrow();
        try (InputStream in = repo.open(stored, 0, stored.size())) {
            assertThat(in.readAllBytes()).isEqualTo(png1);
        }
        assertStagingEmpty();
        assertThat(metrics.events()).last().isEqualTo("refused put insufficient_storage");
    }

    /** Local files whose staging files are links to a device that is always full: every write hits ENOSPC. */
    private static final class FullStagingStorage implements ObjectStorage {
        private final LocalFileStorage files;
        private final Path devFull;

        FullStagingStorage(LocalFileStorage files, Path devFull) {
            this.files = files;
            this.devFull = devFull;
        }

        @Override
        public Path newStagingFile(String prefix) throws IOException {
            Path staged = files.newStagingFile(prefix);
            Files.delete(staged);
            return Files.createSymbolicLink(staged, devFull);
        }

        @Override
        public Optional<StorageEntry> stat(String key) throws IOException {
            return files.stat(key);
        }

        @Override
        public List<StorageEntry> list(String key) throws IOException {
            return files.list(key);
        }

        @Override
        public InputStream open(String key, long offset, long length) throws IOException {
            return files.open(key, offset, length);
        }

        @Override
        public LocalCopy localCopy(String key) throws IOException {
            return files.localCopy(key);
        }

        @Override
        public StagedBody stage(Path stagingFile) throws IOException {
            return files.stage(stagingFile);
        }

        @Override
        public StorageEntry install(String key, StagedBody body, Consumer<StorageEntry> onVisible)
                throws IOException {
            return files.install(key, body, onVisible);
        }

        @Override
        public boolean delete(String key) throws IOException {
            return files.delete(key);
        }

        @Override
        public void walk(String key, Consumer<StorageEntry> visitor) throws IOException {
            files.walk(key, visitor);
        }

        @Override
        public void checkAvailable() throws IOException {
            files.checkAvailable();
        }

        @Override
        public String describe() {
            return "full " + files.describe();
        }

        @Override
        public void close() {
        }
    }
}
