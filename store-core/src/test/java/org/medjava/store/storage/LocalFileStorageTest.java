package org.medjava.store.storage;

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
}
