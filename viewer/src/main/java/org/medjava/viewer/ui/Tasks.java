package org.medjava.viewer.ui;

import java.lang.System.Logger.Level;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.swing.SwingUtilities;
import org.medjava.viewer.store.Progress;

/**
 * Runs network and computation off the event thread. A foreground task (open, filter, upload) shows progress and
 * Cancel in the status bar, one at a time; background tasks (directory listings, searches) run silently. Results
 * and failures come back on the event thread.
 */
public final class Tasks {
    private static final System.Logger LOG = System.getLogger(Tasks.class.getName());

    /** The work itself, on a worker thread. */
    @FunctionalInterface
    public interface Job<T> {
        T run(Progress progress) throws Exception;
    }

    private final StatusBar status;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "viewer-worker-" + threads.incrementAndGet());
        t.setDaemon(true);
        return t;
    });
    private boolean foregroundRunning;

    public Tasks(StatusBar status) {
        this.status = status;
    }

    /** Whether a foreground task is running (event thread). */
    public boolean busy() {
        return foregroundRunning;
    }

    /**
     * Starts a foreground task (event thread).
     *
     * @return false, and nothing starts, while another foreground task runs
     */
    public <T> boolean foreground(String title, Job<T> job, Consumer<T> done, Consumer<Exception> failed) {
        if (foregroundRunning) {
            status.message("Please wait: another task is running (or cancel it)");
            return false;
        }
        if (pool.isShutdown()) {
            return false; // the window closed
        }
        foregroundRunning = true;
        AtomicBoolean cancelled = new AtomicBoolean();
        Future<?>[] future = new Future<?>[1];
        status.busy(title, () -> {
            cancelled.set(true);
            future[0].cancel(true);
        });
        Progress progress = new Progress() {
            private int shown = -1;

            @Override
            public void update(long doneBytes, long total) {
                int permille = total > 0 ? (int) (doneBytes * 1000 / total) : -1;
                if (permille != shown) {
                    shown = permille;
                    SwingUtilities.invokeLater(() -> status.progress(doneBytes, total));
                }
            }

            @Override
            public boolean cancelled() {
                return cancelled.get();
            }
        };
        future[0] = pool.submit(() -> {
            try {
                T result = job.run(progress);
                SwingUtilities.invokeLater(() -> {
                    finish();
                    if (cancelled.get()) {
                        status.message(title + ": cancelled");
                    } else {
                        done.accept(result);
                    }
                });
            } catch (CancellationException | InterruptedException e) {
                SwingUtilities.invokeLater(() -> {
                    finish();
                    status.message(title + ": cancelled");
                });
            } catch (Exception e) {
                SwingUtilities.invokeLater(() -> {
                    finish();
                    if (cancelled.get()) {
                        status.message(title + ": cancelled");
                    } else {
                        failed.accept(e);
                    }
                });
            } catch (OutOfMemoryError e) {
                SwingUtilities.invokeLater(() -> {
                    finish();
                    failed.accept(new IllegalStateException(title + ": not enough memory (" + e.getMessage()
                            + "); close other images or start the viewer with a larger -Xmx", e));
                });
            }
        });
        return true;
    }

    private void finish() {
        foregroundRunning = false;
        status.idle();
    }

    /** Starts a silent background task. */
    public <T> void background(Job<T> job, Consumer<T> done, Consumer<Exception> failed) {
        try {
            pool.submit(() -> {
                try {
                    T result = job.run(Progress.NONE);
                    SwingUtilities.invokeLater(() -> done.accept(result));
                } catch (Exception e) {
                    LOG.log(Level.DEBUG, "background task failed: " + e);
                    SwingUtilities.invokeLater(() -> failed.accept(e));
                }
            });
        } catch (RejectedExecutionException e) {
            // the window closed while a chain of tasks (e.g. revealing an upload in the tree) was under way
            LOG.log(Level.DEBUG, "background task after shutdown dropped");
        }
    }

    public void shutdown() {
        pool.shutdownNow();
    }
}
