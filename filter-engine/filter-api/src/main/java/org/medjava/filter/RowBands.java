package org.medjava.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Splits the rows a filter writes into bands that the calling thread and helpers on the common fork/join pool take
 * one at a time until none is left. Every band may read the whole region of {@code src}; bands write disjoint rows,
 * so the output is the same byte for byte as a single-threaded run.
 *
 * <p>Why claiming instead of one fixed band per core: on a shared machine one core is often slower (another process,
 * a helper that starts late), and with fixed halves the whole call waits for the slow half. With several bands per
 * thread the faster thread simply takes more of them. A helper that has not started by the time the caller runs out
 * of bands is abandoned, never waited for, so a busy pool can delay nothing.
 *
 * <p>Helpers run with the caller's {@link Cancellation} token bound, so a cancelled call stops on every thread; the
 * first band that throws {@link FilterCancelledException} stops the others from claiming more.
 */
public final class RowBands {

    /** Writes rows {@code [fromRow, toRow)}. */
    @FunctionalInterface
    public interface Band {
        void run(int fromRow, int toRow);
    }

    /** Bands per thread: enough to even out an unequal pace, few enough that per-band set-up stays negligible. */
    private static final int BANDS_PER_THREAD = 4;

    private RowBands() {
    }

    /** Threads worth using on this machine: one per core. */
    public static int defaultBands() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Runs {@code band} over {@code [fromRow, toRow)} in bands of at least {@code minRows} rows on up to
     * {@link #defaultBands()} threads (the caller included). Exceptions thrown by a band propagate to the caller
     * once every started band has finished.
     */
    public static void run(int fromRow, int toRow, int minRows, Band band) {
        int rows = toRow - fromRow;
        int threads = defaultBands();
        int bands = (int) Math.min((long) threads * BANDS_PER_THREAD, Math.max(1, rows / Math.max(1, minRows)));
        if (bands <= 1 || threads <= 1) {
            band.run(fromRow, toRow);
            return;
        }
        Work work = new Work(fromRow, rows, bands, band);
        List<Helper> helpers = new ArrayList<>(threads - 1);
        for (int i = 0; i < Math.min(threads, bands) - 1; i++) {
            Helper h = new Helper(work);
            helpers.add(h);
            ForkJoinPool.commonPool().execute(h);
        }
        Throwable failure = null;
        try {
            work.drain();
        } catch (RuntimeException | Error e) {
            failure = e;
        }
        for (Helper h : helpers) {
            Throwable t = h.awaitIfStarted();
            if (failure == null) {
                failure = t;
            } else if (t != null && t != failure) {
                failure.addSuppressed(t);
            }
        }
        if (failure instanceof RuntimeException) {
            throw (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
    }

    /** The bands of one call and the counter every thread claims them from. */
    private static final class Work {
        private final int fromRow;
        private final int rows;
        private final int bands;
        private final Band band;
        /** The caller's cancellation token, bound on helper threads too so their rows honour it. */
        private final Cancellation.Token token = Cancellation.current();
        private final AtomicInteger next = new AtomicInteger();

        Work(int fromRow, int rows, int bands, Band band) {
            this.fromRow = fromRow;
            this.rows = rows;
            this.bands = bands;
            this.band = band;
        }

        /** Runs bands until none is left; after a failure the others stop claiming. */
        void drain() {
            for (int i; (i = next.getAndIncrement()) < bands; ) {
                try {
                    band.run(start(i), start(i + 1));
                } catch (RuntimeException | Error e) {
                    next.set(bands);
                    throw e;
                }
            }
        }

        private int start(int i) {
            return fromRow + (int) ((long) rows * i / bands);
        }
    }

    /** A helper thread's share: starts only if the caller has not given up on it yet. */
    private static final class Helper implements Runnable {
        private static final int WAITING = 0;
        private static final int RUNNING = 1;
        private static final int ABANDONED = 2;

        private final Work work;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Helper(Work work) {
            this.work = work;
        }

        @Override
        public void run() {
            if (!state.compareAndSet(WAITING, RUNNING)) {
                return;
            }
            try (Cancellation.Scope bound = Cancellation.bind(work.token)) {
                work.drain();
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }

        /** Waits for a helper that started; abandons one that did not. @return what it threw, or null */
        Throwable awaitIfStarted() {
            if (state.compareAndSet(WAITING, ABANDONED)) {
                return null;
            }
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        done.get();
                        return null;
                    } catch (ExecutionException e) {
                        return e.getCause();
                    } catch (InterruptedException e) {
                        interrupted = true; // the helper writes into the caller's image: it must finish first
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
