package org.medjava.store.core.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link DirectorySync}: one fsync for the requests made before it starts, a new one for those after. */
class DirectorySyncTest {

    @TempDir
    Path dir;

    /** Runs the fsyncs when the test says so. */
    private final Queue<Runnable> queued = new ArrayDeque<>();
    private final DirectorySync sync = new DirectorySync(queued::add);

    @Test
    void requestsWaitingForTheSameDirectoryShareOneFsync() {
        CompletableFuture<Void> first = sync.request(dir);
        CompletableFuture<Void> second = sync.request(dir);

        assertThat(second).isSameAs(first);
        assertThat(queued).hasSize(1);
        assertThat(first).isNotDone();
        queued.poll().run();
        assertThat(first).isCompleted();
    }

    @Test
    void aRequestAfterTheFsyncStartedGetsAnotherOne() {
        CompletableFuture<Void> first = sync.request(dir);
        Runnable fsync = queued.poll();
        fsync.run(); // started (and done) before the next request: it may have missed that request's change
        CompletableFuture<Void> second = sync.request(dir);

        assertThat(second).isNotSameAs(first).isNotDone();
        queued.poll().run();
        assertThat(second).isCompleted();
    }

    @Test
    void eachDirectoryHasItsOwnFsync() {
        CompletableFuture<Void> a = sync.request(dir);
        CompletableFuture<Void> b = sync.request(dir.getParent());
        assertThat(b).isNotSameAs(a);
        assertThat(queued).hasSize(2);
    }
}
