package org.medjava.store.core.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Forces directories to disk after entries were renamed into them or created in them, on a background thread, and
 * shares one fsync among all writers whose changes happened before it started (group commit): concurrent
 * associations storing into one series directory pay one directory fsync between them, not one each.
 */
final class DirectorySync {

    private final Executor executor;
    /** Per directory, the fsync that has been asked for but has not started: later requests may join it. */
    private final Map<Path, CompletableFuture<Void>> notStarted = new HashMap<>();

    DirectorySync(Executor executor) {
        this.executor = executor;
    }

    /**
     * @return completed when {@code dir} has been forced to disk by an fsync that started after this call, so it
     *         covers every change made in {@code dir} before the call
     */
    synchronized CompletableFuture<Void> request(Path dir) {
        CompletableFuture<Void> waiting = notStarted.get(dir);
        if (waiting != null) {
            return waiting;
        }
        CompletableFuture<Void> synced = new CompletableFuture<>();
        notStarted.put(dir, synced);
        executor.execute(() -> {
            synchronized (this) {
                notStarted.remove(dir); // from here on a request needs a new fsync: this one may miss its change
            }
            force(dir);
            synced.complete(null);
        });
        return synced;
    }

    /** Makes the entries of {@code dir} durable. */
    static void force(Path dir) {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some file systems refuse to open directories; the rename is still atomic, only less durable.
        }
    }
}
