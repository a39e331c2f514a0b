package org.medjava.store.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryLockTest {

    @TempDir
    Path data;

    @Test
    void oneHolderAtATimeAndItsPidIsRecorded() throws Exception {
        Optional<DataDirectoryLock> first = DataDirectoryLock.tryAcquire(data);
        assertThat(first).isPresent();
        assertThat(DataDirectoryLock.holder(data)).contains(ProcessHandle.current().pid());
        assertThat(DataDirectoryLock.tryAcquire(data)).as("while the first holds it").isEmpty();
        first.get().close();
        try (DataDirectoryLock again = DataDirectoryLock.tryAcquire(data).orElseThrow()) {
            assertThat(DataDirectoryLock.holder(data)).contains(ProcessHandle.current().pid());
        }
    }

    @Test
    void aMissingDirectoryIsCreatedAndAnUnreadableHolderIsEmpty() throws Exception {
        Path nested = data.resolve("new/store");
        assertThat(DataDirectoryLock.holder(nested)).isEmpty();
        try (DataDirectoryLock lock = DataDirectoryLock.tryAcquire(nested).orElseThrow()) {
            assertThat(nested.resolve(DataDirectoryLock.FILE)).exists();
        }
    }
}
