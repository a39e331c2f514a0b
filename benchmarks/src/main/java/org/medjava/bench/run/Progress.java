package org.medjava.bench.run;

import java.util.Locale;

/**
 * Counts finished benchmarks against the plan and estimates the time left from the planned cost of what is done and
 * what remains (so slow straightforward ports at 4096² do not make the estimate jump).
 */
final class Progress {
    private final int total;
    private final double plannedSeconds;
    private final long startNanos = System.nanoTime();
    private int done;
    private int failed;
    private double plannedDone;
    private double currentCost;

    Progress(int total, double plannedSeconds) {
        this.total = total;
        this.plannedSeconds = plannedSeconds;
    }

    /** The planned cost of the benchmarks about to start (set per group). */
    void nextCost(double seconds) {
        currentCost = seconds;
    }

    String startLine(String what) {
        return String.format(Locale.ROOT, "[%3d/%d %s left ~%s] %-42s ", done + 1, total, clock(elapsed()),
                clock(remaining()), what);
    }

    void done() {
        done++;
        plannedDone += currentCost;
    }

    void failed() {
        failed++;
    }

    int failures() {
        return failed;
    }

    double elapsed() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private double remaining() {
        double rest = Math.max(0, plannedSeconds - plannedDone);
        double pace = plannedDone > 0 ? elapsed() / plannedDone : 1.0;
        return rest * pace;
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
