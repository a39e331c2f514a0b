package org.medjava.store.core.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.StoreException;

/**
 * The guarantees of {@link ObjectStorage} that every implementation keeps. A subclass supplies the storage; each test
 * gets a fresh, empty one.
 */
abstract class ObjectStorageContract {

    /** Large enough that a storage with small parts must split it (the S3 test uses 5 MiB parts). */
    static final long LARGE_SIZE = 40L * 1024 * 1024;

    @TempDir
    Path tempDir;

    protected ObjectStorage storage;

    /** A new, empty storage keeping whatever local files it needs under {@code tempDir}. */
    protected abstract ObjectStorage newStorage(Path tempDir) throws IOException;

    /**
     * Puts an object with a dot-name somewhere under the storage (as the storage's own files would be), to check
     * that it stays hidden. By default through {@link ObjectStorage#install}.
     */
    protected void putHidden(String key, byte[] bytes) throws IOException {
        put(key, bytes);
    }

    @BeforeEach
    void createStorage() throws IOException {
        storage = newStorage(tempDir);
    }

    @AfterEach
    void closeStorage() {
        if (storage != null) {
            storage.close();
        }
    }

    // ---- stat -------------------------------------------------------------------------------------------------

    @Test
    void statOfMissingKeyIsEmpty() throws IOException {
        assertThat(storage.stat("nothing.dcm")).isEmpty();
        assertThat(storage.stat("no/such/dir")).isEmpty();
    }

    @Test
    void statOfRootIsADirectoryEvenWhenEmpty() throws IOException {
        Optional<StorageEntry> root = storage.stat("");
        assertThat(root).isPresent();
        assertThat(root.get().directory()).isTrue();
        assertThat(root.get().key()).isEmpty();
    }

    @Test
    void statOfObjectGivesSizeTimeAndTheInstalledEtag() throws IOException {
        StorageEntry installed = put("a/b/c.dcm", bytes("hello"));
        StorageEntry stat = storage.stat("a/b/c.dcm").orElseThrow();
        assertThat(stat.directory()).isFalse();
        assertThat(stat.key()).isEqualTo("a/b/c.dcm");
        assertThat(stat.name()).isEqualTo("c.dcm");
        assertThat(stat.size()).isEqualTo(5);
        assertThat(stat.etag()).isEqualTo(installed.etag()).startsWith("\"").endsWith("\"");
        assertThat(stat.modified()).isEqualTo(installed.modified());
    }

    @Test
    void statOfImplicitDirectory() throws IOException {
        put("a/b/c.dcm", bytes("hello"));
        for (String dir : List.of("a", "a/b")) {
            StorageEntry d = storage.stat(dir).orElseThrow();
            assertThat(d.directory()).isTrue();
            assertThat(d.key()).isEqualTo(dir);
            assertThat(d.etag()).isNull();
            assertThat(d.size()).isZero();
        }
        assertThat(storage.stat("a/b/c.dcm/d")).isEmpty();
        assertThat(storage.stat("a/b/c")).isEmpty(); // a prefix of a name is nothing
    }

    // ---- list -------------------------------------------------------------------------------------------------

    @Test
    void listGivesDirectoriesAndObjectsWithoutDotNames() throws IOException {
        StorageEntry x = put("d/x.dcm", bytes("x"));
        put("d/sub/y.dcm", bytes("yy"));
        put("d/sub/deeper/z.dcm", bytes("zzz"));
        putHidden("d/.hidden", bytes("h"));
        putHidden("d/.cache/w", bytes("w"));
        put("other/o.dcm", bytes("o"));

        List<StorageEntry> entries = storage.list("d");
        assertThat(entries).extracting(StorageEntry::key).containsExactlyInAnyOrder("d/x.dcm", "d/sub");
        StorageEntry object = entries.stream().filter(e -> e.key().equals("d/x.dcm")).findFirst().orElseThrow();
        assertThat(object.directory()).isFalse();
        assertThat(object.size()).isEqualTo(1);
        assertThat(object.etag()).isEqualTo(x.etag());
        assertThat(object.modified()).isEqualTo(x.modified());
        StorageEntry sub = entries.stream().filter(e -> e.key().equals("d/sub")).findFirst().orElseThrow();
        assertThat(sub.directory()).isTrue();

        assertThat(storage.list("")).extracting(StorageEntry::key).containsExactlyInAnyOrder("d", "other");
        assertThat(storage.list("d/sub")).extracting(StorageEntry::key)
                .containsExactlyInAnyOrder("d/sub/y.dcm", "d/sub/deeper");
    }

    @Test
    void listOfRootOfEmptyStorageIsEmpty() throws IOException {
        assertThat(storage.list("")).isEmpty();
    }

    @Test
    void listOfMissingDirectoryIsNotFound() throws IOException {
        put("d/x.dcm", bytes("x"));
        assertThatThrownBy(() -> storage.list("nope")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
        assertThatThrownBy(() -> storage.list("d/nope")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
    }

    // ---- open / localCopy -------------------------------------------------------------------------------------

    @Test
    void openReadsRanges() throws IOException {
        byte[] data = bytes("0123456789abcdef");
        put("r.bin", data);
        assertThat(read(storage.open("r.bin", 0, 16))).isEqualTo(data);
        assertThat(read(storage.open("r.bin", 3, 5))).isEqualTo(bytes("34567"));
        assertThat(read(storage.open("r.bin", 10, 6))).isEqualTo(bytes("abcdef"));
        assertThat(read(storage.open("r.bin", 15, 1))).isEqualTo(bytes("f"));
        assertThat(read(storage.open("r.bin", 0, 0))).isEmpty();
        assertThat(read(storage.open("r.bin", 7, 0))).isEmpty();
    }

    @Test
    void aStreamClosedBeforeItsEndLeavesTheStorageUsable() throws IOException {
        int size = 2 * 1024 * 1024;
        put("partial.bin", filled(size, (byte) 'p'));
        for (int i = 0; i < 20; i++) { // more than a connection pool would hold if closing leaked connections
            try (InputStream in = storage.open("partial.bin", 0, size)) {
                assertThat(in.readNBytes(10)).isEqualTo(filled(10, (byte) 'p'));
            }
        }
        assertThat(read(storage.open("partial.bin", size - 3, 3))).isEqualTo(filled(3, (byte) 'p'));
        assertThat(storage.stat("partial.bin").orElseThrow().size()).isEqualTo(size);
    }

    @Test
    void openOfEmptyObject() throws IOException {
        put("empty.bin", new byte[0]);
        assertThat(storage.stat("empty.bin").orElseThrow().size()).isZero();
        assertThat(read(storage.open("empty.bin", 0, 0))).isEmpty();
    }

    @Test
    void openOfMissingObjectIsNoSuchFile() throws IOException {
        put("d/x", bytes("x"));
        assertThatThrownBy(() -> read(storage.open("missing", 0, 1))).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> read(storage.open("missing", 0, 0))).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> read(storage.open("d", 0, 1))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void readGivesTheObjectWithTheBytesOfThatVersion() throws IOException {
        StorageEntry first = put("v/obj.dcm", bytes("first"));
        try (ObjectRead r = storage.read("v/obj.dcm").orElseThrow()) {
            assertThat(r.entry()).isEqualTo(storage.stat("v/obj.dcm").orElseThrow());
            assertThat(r.entry().etag()).isEqualTo(first.etag());
            assertThat(read(r.body())).isEqualTo(bytes("first"));
        }
        StorageEntry second = put("v/obj.dcm", bytes("second, longer"));
        try (ObjectRead r = storage.read("v/obj.dcm").orElseThrow()) {
            assertThat(r.entry().etag()).isEqualTo(second.etag()).isNotEqualTo(first.etag());
            assertThat(r.entry().size()).isEqualTo(14);
            assertThat(r.entry().modified()).isEqualTo(second.modified());
            assertThat(read(r.body())).isEqualTo(bytes("second, longer"));
        }
        put("v/empty.dcm", new byte[0]);
        try (ObjectRead r = storage.read("v/empty.dcm").orElseThrow()) {
            assertThat(r.entry().size()).isZero();
            assertThat(read(r.body())).isEmpty();
        }
    }

    @Test
    void readOfNothingOfADirectoryOrThroughAnObjectIsEmpty() throws IOException {
        put("d/file.dcm", bytes("f"));
        assertThat(storage.read("missing.dcm")).isEmpty();
        assertThat(storage.read("d")).isEmpty();
        assertThat(storage.read("d/file.dcm/x")).isEmpty();
        assertThat(storage.read("")).isEmpty();
    }

    @Test
    void aReadClosedBeforeItsEndLeavesTheStorageUsable() throws IOException {
        int size = 2 * 1024 * 1024;
        put("partial.bin", filled(size, (byte) 'q'));
        for (int i = 0; i < 20; i++) { // more than a connection pool would hold if closing leaked connections
            try (ObjectRead r = storage.read("partial.bin").orElseThrow()) {
                assertThat(r.body().readNBytes(10)).isEqualTo(filled(10, (byte) 'q'));
            }
        }
        try (ObjectRead r = storage.read("partial.bin").orElseThrow()) {
            assertThat(read(r.body())).hasSize(size);
        }
    }

    @Test
    void localCopyHasTheBytesAndClosingLeavesTheObjectIntact() throws IOException {
        byte[] data = bytes("local copy bytes");
        put("c/copy.dcm", data);
        Path path;
        try (LocalCopy copy = storage.localCopy("c/copy.dcm")) {
            path = copy.path();
            assertThat(path).isRegularFile();
            assertThat(Files.readAllBytes(path)).isEqualTo(data);
        }
        // A temporary copy is gone; a storage that handed out the stored file itself still has it.
        if (Files.exists(path)) {
            assertThat(Files.readAllBytes(path)).isEqualTo(data);
        }
        assertThat(read(storage.open("c/copy.dcm", 0, data.length))).isEqualTo(data);
    }

    @Test
    void localCopyOfMissingObjectIsNoSuchFile() {
        assertThatThrownBy(() -> storage.localCopy("missing.dcm")).isInstanceOf(NoSuchFileException.class);
    }

    // ---- install ----------------------------------------------------------------------------------------------

    @Test
    void installGivesANewEtagAndALaterTimeEvenForTheSameBytes() throws IOException {
        StorageEntry first = put("same.dcm", bytes("same"));
        StorageEntry second = put("same.dcm", bytes("same"));
        StorageEntry third = put("same.dcm", bytes("same"));
        assertThat(List.of(first.etag(), second.etag(), third.etag())).doesNotHaveDuplicates();
        assertThat(second.modified()).isAfter(first.modified());
        assertThat(third.modified()).isAfter(second.modified());
        StorageEntry stat = storage.stat("same.dcm").orElseThrow();
        assertThat(stat.etag()).isEqualTo(third.etag());
        assertThat(stat.modified()).isEqualTo(third.modified());
    }

    @Test
    void installReplacesTheObject() throws IOException {
        put("r.dcm", bytes("old bytes, longer"));
        StorageEntry installed = put("r.dcm", bytes("new"));
        assertThat(installed.size()).isEqualTo(3);
        assertThat(installed.key()).isEqualTo("r.dcm");
        assertThat(installed.directory()).isFalse();
        assertThat(read(storage.open("r.dcm", 0, 3))).isEqualTo(bytes("new"));
        assertThat(storage.stat("r.dcm").orElseThrow().size()).isEqualTo(3);
    }

    @Test
    void installCreatesParents() throws IOException {
        put("p/q/r/s.dcm", bytes("s"));
        assertThat(storage.stat("p/q/r").orElseThrow().directory()).isTrue();
        assertThat(storage.list("p/q")).extracting(StorageEntry::key).containsExactly("p/q/r");
    }

    @Test
    void installUnderAnObjectIsAConflictAndConsumesTheStagingFile() throws IOException {
        put("file.dcm", bytes("f"));
        Path staging = stagingFile(bytes("child"));
        StagedBody body = storage.stage(staging);
        assertThatThrownBy(() -> storage.install("file.dcm/child.dcm", body, e -> { }))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT));
        assertThat(staging).doesNotExist();
        assertThat(storage.stat("file.dcm/child.dcm")).isEmpty();
        assertThatThrownBy(() -> put("file.dcm/deeper/child.dcm", bytes("child")))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT));
        assertThat(read(storage.open("file.dcm", 0, 1))).isEqualTo(bytes("f"));
    }

    @Test
    void pathsThroughAnObjectNameNothing() throws IOException {
        put("file.dcm", bytes("f"));
        assertThat(storage.stat("file.dcm/x")).isEmpty();
        assertThat(storage.stat("file.dcm/x/y")).isEmpty();
        assertThat(storage.delete("file.dcm/x")).isFalse();
        assertThatThrownBy(() -> read(storage.open("file.dcm/x", 0, 1))).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> storage.localCopy("file.dcm/x")).isInstanceOf(NoSuchFileException.class);
        assertThatThrownBy(() -> storage.list("file.dcm")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.NOT_FOUND));
    }

    @Test
    void installAtADirectoryIsAConflict() throws IOException {
        put("dir/inside.dcm", bytes("i"));
        Path staging = stagingFile(bytes("x"));
        StagedBody body = storage.stage(staging);
        assertThatThrownBy(() -> storage.install("dir", body, e -> { }))
                .isInstanceOfSatisfying(StoreException.class,
                        e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT));
        assertThat(staging).doesNotExist();
        assertThat(storage.stat("dir").orElseThrow().directory()).isTrue();
        assertThat(storage.stat("dir/inside.dcm")).isPresent();
    }

    @Test
    void installConsumesTheStagingFileOnSuccess() throws IOException {
        Path staging = stagingFile(bytes("body"));
        storage.install("ok.dcm", storage.stage(staging), e -> { });
        assertThat(staging).doesNotExist();
    }

    @Test
    void onVisibleRunsOnceTheNewObjectIsVisible() throws IOException {
        put("v.dcm", bytes("old"));
        AtomicReference<StorageEntry> seen = new AtomicReference<>();
        List<byte[]> readInside = new ArrayList<>();
        List<StorageEntry> statInside = new ArrayList<>();
        StorageEntry installed = storage.install("v.dcm", storage.stage(stagingFile(bytes("new!"))), e -> {
            seen.set(e);
            try {
                statInside.add(storage.stat("v.dcm").orElseThrow());
                readInside.add(read(storage.open("v.dcm", 0, 4)));
            } catch (IOException ex) {
                throw new AssertionError(ex);
            }
        });
        assertThat(seen.get()).isEqualTo(installed);
        assertThat(statInside).singleElement().satisfies(s -> {
            assertThat(s.etag()).isEqualTo(installed.etag());
            assertThat(s.size()).isEqualTo(4);
        });
        assertThat(readInside).singleElement().isEqualTo(bytes("new!"));
    }

    @Test
    void aReaderOfTheOldVersionReadsOneCompleteVersionWhileItIsReplaced() throws IOException {
        int size = 4 * 1024 * 1024; // more than socket and stream buffers hold
        byte[] old = filled(size, (byte) 'o');
        byte[] replacement = filled(size, (byte) 'n');
        put("busy.dcm", old);
        byte[] got = new byte[size];
        try (InputStream in = storage.open("busy.dcm", 0, size)) {
            int head = in.readNBytes(got, 0, 64 * 1024);
            assertThat(head).isEqualTo(64 * 1024);
            put("busy.dcm", replacement);
            int rest = in.readNBytes(got, head, size - head);
            assertThat(head + rest).isEqualTo(size);
            assertThat(in.read()).isEqualTo(-1);
        }
        // Old bytes complete, or the new complete: never a mix.
        assertThat(Arrays.equals(got, old) || Arrays.equals(got, replacement))
                .as("read one complete version").isTrue();
        assertThat(read(storage.open("busy.dcm", 0, size))).isEqualTo(replacement);
    }

    @Test
    void aLargeObjectStreamsInAndOut() throws IOException {
        Path staging = storage.newStagingFile("large");
        String written;
        try (OutputStream out = Files.newOutputStream(staging)) {
            written = writePattern(out, LARGE_SIZE);
        }
        StorageEntry installed = storage.install("big/large.bin", storage.stage(staging), e -> { });
        assertThat(staging).doesNotExist();
        assertThat(installed.size()).isEqualTo(LARGE_SIZE);
        assertThat(storage.stat("big/large.bin").orElseThrow().etag()).isEqualTo(installed.etag());

        try (InputStream in = storage.open("big/large.bin", 0, LARGE_SIZE)) {
            assertThat(digest(in)).isEqualTo(written);
        }
        // Ranges across the 5, 8 and 16 MiB boundaries that part sizes commonly fall on.
        for (long at : new long[] {5L << 20, 8L << 20, 16L << 20, LARGE_SIZE - 100}) {
            long from = at - 50;
            try (InputStream in = storage.open("big/large.bin", from, 100)) {
                byte[] range = in.readAllBytes();
                assertThat(range).hasSize(100);
                for (int i = 0; i < 100; i++) {
                    assertThat(range[i]).as("byte %d", from + i).isEqualTo(patternByte(from + i));
                }
            }
        }
        try (LocalCopy copy = storage.localCopy("big/large.bin")) {
            assertThat(Files.size(copy.path())).isEqualTo(LARGE_SIZE);
        }
    }

    // ---- delete -----------------------------------------------------------------------------------------------

    @Test
    void deleteRemovesAnObject() throws IOException {
        put("del/x.dcm", bytes("x"));
        put("del/y.dcm", bytes("y"));
        assertThat(storage.delete("del/x.dcm")).isTrue();
        assertThat(storage.stat("del/x.dcm")).isEmpty();
        assertThat(storage.list("del")).extracting(StorageEntry::key).containsExactly("del/y.dcm");
        assertThatThrownBy(() -> read(storage.open("del/x.dcm", 0, 1))).isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void deleteOfNothingIsFalse() throws IOException {
        assertThat(storage.delete("never.dcm")).isFalse();
        assertThat(storage.delete("no/such/dir")).isFalse();
    }

    @Test
    void deleteOfANonEmptyDirectoryIsAConflict() throws IOException {
        put("full/x.dcm", bytes("x"));
        assertThatThrownBy(() -> storage.delete("full")).isInstanceOfSatisfying(StoreException.class,
                e -> assertThat(e.kind()).isEqualTo(StoreException.Kind.CONFLICT));
        assertThat(storage.stat("full/x.dcm")).isPresent();
    }

    @Test
    void aDirectoryGoesWithItsLastObject() throws IOException {
        put("gone/x.dcm", bytes("x"));
        assertThat(storage.delete("gone/x.dcm")).isTrue();
        // Removing the then empty directory succeeds or there is nothing left to remove: either way it is gone.
        storage.delete("gone");
        assertThat(storage.stat("gone")).isEmpty();
    }

    // ---- walk -------------------------------------------------------------------------------------------------

    @Test
    void walkVisitsEveryObjectWithoutDotNames() throws IOException {
        StorageEntry a = put("w/a.dcm", bytes("a"));
        put("w/s/b.dcm", bytes("bb"));
        put("w/s/t/c.dcm", bytes("ccc"));
        put("x/d.dcm", bytes("dddd"));
        putHidden("w/.e", bytes("e"));
        putHidden("w/.hidden/f.dcm", bytes("f"));
        putHidden(".root-hidden/g.dcm", bytes("g"));

        List<StorageEntry> all = new ArrayList<>();
        storage.walk("", all::add);
        assertThat(all).extracting(StorageEntry::key)
                .containsExactlyInAnyOrder("w/a.dcm", "w/s/b.dcm", "w/s/t/c.dcm", "x/d.dcm");
        assertThat(all).allSatisfy(e -> {
            assertThat(e.directory()).isFalse();
            assertThat(e.etag()).isNotNull();
        });
        assertThat(all).filteredOn(e -> e.key().equals("w/a.dcm")).singleElement()
                .satisfies(e -> {
                    assertThat(e.etag()).isEqualTo(a.etag());
                    assertThat(e.modified()).isEqualTo(a.modified());
                    assertThat(e.size()).isEqualTo(1);
                });

        List<StorageEntry> underW = new ArrayList<>();
        storage.walk("w/s", underW::add);
        assertThat(underW).extracting(StorageEntry::key).containsExactlyInAnyOrder("w/s/b.dcm", "w/s/t/c.dcm");
    }

    // ---- helpers ----------------------------------------------------------------------------------------------

    protected StorageEntry put(String key, byte[] bytes) throws IOException {
        return storage.install(key, storage.stage(stagingFile(bytes)), e -> { });
    }

    protected Path stagingFile(byte[] bytes) throws IOException {
        Path staging = storage.newStagingFile("body");
        Files.write(staging, bytes);
        return staging;
    }

    protected static byte[] bytes(String s) {
        return s.getBytes(UTF_8);
    }

    protected static byte[] read(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    private static byte[] filled(int size, byte b) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, b);
        return bytes;
    }

    /** The deterministic content of large test objects, a function of the offset so ranges can be checked. */
    static byte patternByte(long i) {
        return (byte) (i * 31 + (i >>> 11) + (i >>> 19));
    }

    /** Streams {@code size} pattern bytes to {@code out}, returning their SHA-256. */
    static String writePattern(OutputStream out, long size) throws IOException {
        MessageDigest sha = sha256();
        byte[] buf = new byte[64 * 1024];
        for (long off = 0; off < size; off += buf.length) {
            int n = (int) Math.min(buf.length, size - off);
            for (int i = 0; i < n; i++) {
                buf[i] = patternByte(off + i);
            }
            out.write(buf, 0, n);
            sha.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    static String digest(InputStream in) throws IOException {
        MessageDigest sha = sha256();
        byte[] buf = new byte[64 * 1024];
        for (int n; (n = in.read(buf)) > 0; ) {
            sha.update(buf, 0, n);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
