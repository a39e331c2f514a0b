package org.medjava.viewer.ui;

import java.awt.image.BufferedImage;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javax.swing.SwingUtilities;
import javax.swing.Timer;
import org.medjava.filter.FilterCancelledException;
import org.medjava.filter.runtime.CallControl;
import org.medjava.filter.runtime.RegistryException;

/**
 * Runs a preview while parameters change: requests are debounced (only the values still current after
 * {@code delayMillis} run), each run goes to one worker thread, and a newer request cancels the run in progress
 * through its {@link CallControl}. Only the newest run's outcome is delivered, on the event thread. Event thread,
 * except the job.
 */
final class PreviewRunner implements AutoCloseable {
    /** The preview itself, on the worker thread. */
    @FunctionalInterface
    interface Job {
        BufferedImage run(Map<String, String> raw, CallControl control) throws Exception;
    }

    /** What the owner hears, on the event thread. */
    interface Listener {
        void started();

        void shown(BufferedImage after, long millis);

        void failed(String reason);
    }

    private final Job job;
    private final Listener listener;
    private final Timer debounce;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "filter-preview");
        t.setDaemon(true);
        return t;
    });
    private Map<String, String> pending;
    private CallControl running;
    private int generation;
    private int runs;
    private boolean closed;

    PreviewRunner(Job job, Listener listener, int delayMillis) {
        this.job = job;
        this.listener = listener;
        this.debounce = new Timer(delayMillis, e -> start());
        debounce.setRepeats(false);
    }

    /** The values to preview now; restarts the debounce delay. */
    void request(Map<String, String> raw) {
        if (closed) {
            return;
        }
        pending = Map.copyOf(raw);
        debounce.restart();
    }

    /** How many runs have started (for tests: debouncing makes this smaller than the number of requests). */
    int runs() {
        return runs;
    }

    private void start() {
        if (closed || pending == null) {
            return;
        }
        Map<String, String> raw = pending;
        pending = null;
        if (running != null) {
            running.cancel("newer preview parameters");
        }
        CallControl control = CallControl.unlimited();
        running = control;
        int mine = ++generation;
        runs++;
        listener.started();
        worker.submit(() -> {
            long start = System.nanoTime();
            try {
                BufferedImage after = job.run(raw, control);
                long millis = (System.nanoTime() - start) / 1_000_000;
                deliver(mine, () -> listener.shown(after, millis));
            } catch (RegistryException.CallCancelledException | FilterCancelledException e) {
                // a newer request superseded this one; it reports instead
            } catch (Exception e) {
                deliver(mine, () -> listener.failed(e.getMessage()));
            } catch (OutOfMemoryError e) {
                deliver(mine, () -> listener.failed("not enough memory for a preview"));
            }
        });
    }

    private void deliver(int runGeneration, Runnable report) {
        SwingUtilities.invokeLater(() -> {
            if (!closed && runGeneration == generation) {
                running = null;
                report.run();
            }
        });
    }

    /** Stops the timer, cancels a run in progress and ends the worker. */
    @Override
    public void close() {
        closed = true;
        debounce.stop();
        if (running != null) {
            running.cancel("preview closed");
        }
        worker.shutdownNow();
    }
}
