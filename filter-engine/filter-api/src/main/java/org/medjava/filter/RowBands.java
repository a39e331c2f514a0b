package org.medjava.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * Splits the rows a filter writes into bands run on the common fork/join pool plus the calling thread.
 * Every band may read the whole region of {@code src}; bands write disjoint rows, so the output is the same
 * byte for byte as a single-threaded run.
 */
public final class RowBands {

    /** Writes rows {@code [fromRow, toRow)}. */
    @FunctionalInterface
    public interface Band {
        void run(int fromRow, int toRow);
    }

    private RowBands() {
    }

    /** Bands worth having on this machine: one per core. */
    public static int defaultBands() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Runs {@code band} over {@code [fromRow, toRow)} split into at most {@link #defaultBands()} bands of at
     * least {@code minRows} rows. Exceptions thrown by a band propagate to the caller.
     */
    public static void run(int fromRow, int toRow, int minRows, Band band) {
        int rows = toRow - fromRow;
        int bands = (int) Math.min(defaultBands(), Math.max(1, rows / Math.max(1, minRows)));
        if (bands <= 1) {
            band.run(fromRow, toRow);
            return;
        }
        List<ForkJoinTask<?>> forked = new ArrayList<>(bands - 1);
        int start = fromRow;
        for (int i = 0; i < bands - 1; i++) {
            int end = fromRow + (int) ((long) rows * (i + 1) / bands);
            int s = start;
            forked.add(ForkJoinPool.commonPool().submit(() -> band.run(s, end)));
            start = end;
        }
        band.run(start, toRow);
        for (ForkJoinTask<?> task : forked) {
            task.join();
        }
    }
}
