package org.medjava.bench.transport;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs a receiving task on its own thread and hands back the byte count it read. */
final class Receiver implements AutoCloseable {
    /** Reads one connection to EOF and returns the number of bytes. */
    @FunctionalInterface
    interface Task {
        long receive() throws IOException;
    }

    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "transport-receiver");
        t.setDaemon(true);
        return t;
    });
    private final Future<Long> received;

    Receiver(Task task) {
        received = thread.submit(task::receive);
    }

    long await() throws IOException {
        try {
            return received.get(10, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw new IOException("receiver failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("receiver did not finish in 10 minutes", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
