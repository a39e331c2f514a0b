package org.medjava.store.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link LocalFileStorage} held to the {@link ObjectStorageContract}, and what only the file system does. */
class LocalFileStorageTest extends ObjectStorageContract {

    private Path root;

    @Override
    protected ObjectStorage newStorage(Path tempDir) throws IOException {
        root = tempDir.resolve("images");
        return new LocalFileStorage(root);
    }

    @Override
    protected void putHidden(String key, byte[] bytes) throws IOException {
        Path file = root.resolve(key);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    @Test
    void localCopyIsTheStoredFileItself() throws IOException {
        put("a/x.gif", bytes("x"));
        try (LocalCopy copy = storage.localCopy("a/x.gif")) {
            assertThat(copy.path()).isEqualTo(root.toRealPath().resolve("a/x.gif"));
        }
        assertThat(root.resolve("a/x.gif")).exists();
    }

    @Test
    void leftOversOfAnInterruptedWriteAreRemovedAtStart() throws IOException {
        Path leftOver = storage.newStagingFile("put-");
        Files.writeString(leftOver, "half a body");
        storage.close();
        storage = new LocalFileStorage(root);
        assertThat(leftOver).doesNotExist();
    }

    @Test
    void emptyDirectoriesStayUntilDeleted() throws IOException {
        put("a/b/x.gif", bytes("x"));
        assertThat(storage.delete("a/b/x.gif")).isTrue();
        assertThat(storage.stat("a/b")).get().matches(StorageEntry::directory);
        assertThat(storage.delete("a/b")).isTrue();
        assertThat(storage.stat("a/b")).isEmpty();
    }

    @Test
    void linksAreNotServed() throws IOException {
        put("real.gif", bytes("x"));
        Files.createSymbolicLink(root.resolve("link.gif"), root.resolve("real.gif"));
        assertThat(storage.stat("link.gif")).isEmpty();
    }

    @Test
    void aReadAfterAWriteSeesTheNewFileAtOnceThoughStatsAreKept() throws IOException {
        put("a/x.dcm", bytes("first"));
        StorageEntry first = storage.stat("a/x.dcm").orElseThrow();
        assertThat(storage.stat("a/x.dcm")).get().isSameAs(first); // kept, not looked up again
        put("a/x.dcm", bytes("second, longer"));
        StorageEntry second = storage.stat("a/x.dcm").orElseThrow();
        assertThat(second.size()).isEqualTo(14);
        assertThat(second.etag()).isNotEqualTo(first.etag());
        assertThat(storage.delete("a/x.dcm")).isTrue();
        assertThat(storage.stat("a/x.dcm")).isEmpty();
    }

    @Test
    void aLookupBegunBeforeAWriteIsNotKeptAfterIt() {
        StatCache cache = new StatCache();
        StorageEntry old = new StorageEntry("x.dcm", false, 1, java.time.Instant.EPOCH, "\"old\"");
        long before = cache.generation();
        cache.changed("x.dcm"); // the write renamed the new file into place while the old one was being looked up
        cache.keep("x.dcm", old, before);
        assertThat(cache.get("x.dcm")).isNull();
        cache.keep("x.dcm", old, cache.generation());
        assertThat(cache.get("x.dcm")).isSameAs(old);
        cache.changed("x.dcm");
        assertThat(cache.get("x.dcm")).isNull();
    }
}
